import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gitChangeReader } from '../../../functions/adapters/repository/change-reader';
import type { ChangeRead } from '../../../functions/core/reviews/change-source';
import { createBareClone, gitCli, tempRoot } from './git-fixtures';
import { startGitHttpServer, type GitHttpServer } from './git-http-server';

const write = async (root: string, files: Record<string, string | Buffer>) => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
};

const lines = (count: number, word: string) => Array.from({ length: count }, (_, i) => `${word} ${i + 1}`).join('\n') + '\n';

let root: Awaited<ReturnType<typeof tempRoot>>;
let repo: string;
let forkPoint: string;
let featureTip: string;
/** The object id of an annotated tag of `featureTip` (a tag object, not the commit). */
let featureTag: string;
let counter = 0;

/**
 * `main`: a few files. `feature` forks from it and changes every kind of thing over 60 commits
 * (so a shallow fetch must deepen to reach the fork); `main` moves on after the fork, changing
 * README.md, which the review must not show.
 */
beforeAll(async () => {
  root = await tempRoot();
  repo = join(root.path, 'repo');
  await mkdir(repo);
  gitCli(repo, 'init', '--quiet', '--initial-branch=main');
  await write(repo, {
    'README.md': '# Shop\n',
    'src/app.ts': lines(12, '// line'),
    'src/old-name.ts': lines(10, '// kept'),
    'src/moved.ts': 'export const moved = true;\n',
    'src/gone.ts': 'export const gone = 1;\n',
  });
  gitCli(repo, 'add', '-A');
  gitCli(repo, 'commit', '--quiet', '-m', 'initial');
  forkPoint = gitCli(repo, 'rev-parse', 'HEAD');

  gitCli(repo, 'checkout', '--quiet', '-b', 'feature');
  const app = lines(12, '// line').split('\n');
  app[5] = 'export const changed = 6;';
  await write(repo, {
    'src/app.ts': app.join('\n'),
    'src/new.ts': 'export const fresh = 1;\n',
    'src/new-name.ts': lines(10, '// kept').replace('// kept 10', '// edited 10'),
    'src/place/moved.ts': 'export const moved = true;\n',
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
  });
  gitCli(repo, 'rm', '--quiet', 'src/gone.ts', 'src/old-name.ts', 'src/moved.ts');
  await symlink('README.md', join(repo, 'link'));
  gitCli(repo, 'add', '-A');
  gitCli(repo, 'commit', '--quiet', '-m', 'feature work');
  for (let i = 0; i < 60; i += 1) gitCli(repo, 'commit', '--quiet', '--allow-empty', '-m', `feature step ${i}`);
  featureTip = gitCli(repo, 'rev-parse', 'HEAD');
  gitCli(repo, 'tag', '--annotate', 'reviewed', '--message', 'the reviewed state', featureTip);
  featureTag = gitCli(repo, 'rev-parse', 'reviewed');

  gitCli(repo, 'checkout', '--quiet', 'main');
  await write(repo, { 'README.md': '# Shop, moved on\n' });
  gitCli(repo, 'commit', '--quiet', '-am', 'main moves on');
  gitCli(repo, 'checkout', '--quiet', '--orphan', 'unrelated');
  gitCli(repo, 'commit', '--quiet', '--allow-empty', '-m', 'no shared history');
  gitCli(repo, 'checkout', '--quiet', 'main');
});
afterAll(() => root.remove());

const freshDir = async () => {
  const dir = join(root.path, `head-${++counter}`);
  await mkdir(dir);
  return dir;
};

const summary = (read: ChangeRead) => read.files.map(({ path, previous_path, change, kind }) => ({ path, previous_path, change, kind }));

const expectedFiles = [
  { path: 'assets/logo.png', previous_path: null, change: 'added', kind: 'binary' },
  { path: 'link', previous_path: null, change: 'added', kind: 'not_a_file' },
  { path: 'src/app.ts', previous_path: null, change: 'modified', kind: 'text' },
  { path: 'src/gone.ts', previous_path: null, change: 'deleted', kind: 'text' },
  { path: 'src/new-name.ts', previous_path: 'src/old-name.ts', change: 'renamed', kind: 'text' },
  { path: 'src/new.ts', previous_path: null, change: 'added', kind: 'text' },
  { path: 'src/place/moved.ts', previous_path: 'src/moved.ts', change: 'renamed', kind: 'text' },
];

describe('the change a pull request would show, from a file: repository', () => {
  it('is the diff from the merge base to head: every kind of change, renames paired, and nothing main did since', async () => {
    const dir = await freshDir();
    const read = await gitChangeReader({ fileRepositories: true }).read({ url: `file://${repo}`, base: 'main', head: 'feature', dir });
    expect(read).toMatchObject({ base_ref: 'main', merge_base: forkPoint, head_commit: featureTip });
    expect(summary(read)).toEqual(expectedFiles);
    const byPath = new Map(read.files.map((file) => [file.path, file]));
    expect(byPath.get('src/app.ts')?.before).toBe(lines(12, '// line'));
    expect(byPath.get('src/app.ts')?.after?.split('\n')[5]).toBe('export const changed = 6;');
    expect(byPath.get('src/gone.ts')).toMatchObject({ before: 'export const gone = 1;\n', after: null });
    expect(byPath.get('src/new-name.ts')?.before).toBe(lines(10, '// kept'));
    expect(byPath.get('assets/logo.png')).toMatchObject({ before: null, after: null });
    // The head's files are in the folder, for the type check and the scanners.
    expect(await readFile(join(dir, 'src/new.ts'), 'utf8')).toBe('export const fresh = 1;\n');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Shop\n');
    expect(await readdir(dir)).not.toContain('.git');
  });

  it("takes the repository's default branch as base, and a full commit id as head", async () => {
    const read = await gitChangeReader({ fileRepositories: true }).read({ url: `file://${repo}`, head: featureTip, dir: await freshDir() });
    expect(read).toMatchObject({ base_ref: 'main', merge_base: forkPoint, head_commit: featureTip });
    expect(summary(read)).toEqual(expectedFiles);
  });

  it('takes the id of an annotated tag as head, as git does: the commit it tags', async () => {
    expect(featureTag).not.toBe(featureTip);
    const read = await gitChangeReader({ fileRepositories: true }).read({ url: `file://${repo}`, head: featureTag, dir: await freshDir() });
    expect(read).toMatchObject({ base_ref: 'main', merge_base: forkPoint, head_commit: featureTip });
    expect(summary(read)).toEqual(expectedFiles);
  });

  it('names what cannot be reviewed: an unknown branch, an unknown commit, two branches with no shared history', async () => {
    const reader = gitChangeReader({ fileRepositories: true });
    await expect(reader.read({ url: `file://${repo}`, head: 'nope', dir: await freshDir() })).rejects.toThrow(
      'branch nope was not found in the repository',
    );
    await expect(reader.read({ url: `file://${repo}`, head: 'f'.repeat(40), dir: await freshDir() })).rejects.toThrow(
      `commit ${'f'.repeat(40)} was not found`,
    );
    await expect(reader.read({ url: `file://${repo}`, base: 'main', head: 'unrelated', dir: await freshDir() })).rejects.toThrow(
      'main and unrelated share no history',
    );
  });
});

describe('the change a pull request would show, over https', () => {
  const token = 'review-token-1';
  let server: GitHttpServer;
  beforeAll(async () => {
    createBareClone(repo, join(root.path, 'shop.git'));
    server = await startGitHttpServer(root.path, token);
  });
  afterAll(() => server.close());

  it('fetches shallow, deepens until the merge base 61 commits down is in reach, and reads the same change', async () => {
    const dir = await freshDir();
    const read = await gitChangeReader({ http: server.client }).read({
      url: 'https://git.test/shop.git',
      base: 'main',
      head: 'feature',
      dir,
      credentials: { token },
    });
    expect(read).toMatchObject({ base_ref: 'main', merge_base: forkPoint, head_commit: featureTip });
    expect(summary(read)).toEqual(expectedFiles);
    expect(await readFile(join(dir, 'src/app.ts'), 'utf8')).toContain('export const changed = 6;');
    expect(server.authorizations).toContain(`Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
  });

  it('takes the id of an annotated tag as head there too', async () => {
    const read = await gitChangeReader({ http: server.client }).read({
      url: 'https://git.test/shop.git',
      base: 'main',
      head: featureTag,
      dir: await freshDir(),
      credentials: { token },
    });
    expect(read).toMatchObject({ base_ref: 'main', merge_base: forkPoint, head_commit: featureTip });
    expect(summary(read)).toEqual(expectedFiles);
  });
});
