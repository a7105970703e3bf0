import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gitRepository } from '../../../functions/adapters/repository/git-repository';
import { createBareClone, createFixtureRepository, gitCli, mainFiles, tempRoot, type FixtureRepository } from './git-fixtures';

let root: Awaited<ReturnType<typeof tempRoot>>;
let fixture: FixtureRepository;
let bare: string;
let counter = 0;

beforeAll(async () => {
  root = await tempRoot();
  fixture = await createFixtureRepository(root.path);
  bare = createBareClone(fixture.dir, join(root.path, 'bare.git'));
});
afterAll(() => root.remove());

const freshDir = () => join(root.path, `checkout-${++counter}`);
const urlOf = (path: string) => pathToFileURL(path).href;
/** As the local runtime runs it: file repositories enabled. */
const { checkout, pushBranch } = gitRepository({ fileRepositories: true });

/** Every regular file under dir (no .git), path → content. */
const readAll = async (dir: string, prefix = ''): Promise<Record<string, string>> => {
  const files: Record<string, string> = {};
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== '.git') Object.assign(files, await readAll(dir, path));
    else if (entry.isFile()) files[path] = await readFile(join(dir, path), 'utf8');
  }
  return files;
};

describe('checkout from file://', () => {
  it("writes the default branch's tree and reports its commit", async () => {
    const dir = freshDir();
    const result = await checkout({ url: urlOf(fixture.dir), dir });
    expect(result).toEqual({ branch: 'main', commit: gitCli(fixture.dir, 'rev-parse', 'main') });
    expect(await readAll(dir)).toEqual(mainFiles);
    expect((await stat(join(dir, 'bin/run.sh'))).mode & 0o111).not.toBe(0);
    await expect(lstat(join(dir, 'link'))).rejects.toThrow();
    await expect(stat(join(dir, '.git'))).rejects.toThrow();
  });

  it('writes a named branch from a bare, packed repository (not the tag of the same name)', async () => {
    const dir = freshDir();
    const result = await checkout({ url: urlOf(bare), branch: 'feature', dir });
    expect(result).toEqual({ branch: 'feature', commit: gitCli(bare, 'rev-parse', 'refs/heads/feature') });
    expect(await readAll(dir)).toEqual({ ...mainFiles, 'src/app.ts': 'export const app = 42;\n', 'feature.txt': 'feature\n' });
  });

  it('follows HEAD of a bare repository for the default branch', async () => {
    const other = createBareClone(fixture.dir, join(root.path, 'head-feature.git'));
    gitCli(other, 'symbolic-ref', 'HEAD', 'refs/heads/feature');
    expect(await checkout({ url: urlOf(other), dir: freshDir() })).toEqual({ branch: 'feature', commit: fixture.featureCommit });
  });

  it('reads the branches of a linked worktree (git worktree add), which live in the main repository', async () => {
    const worktree = join(root.path, 'linked-worktree');
    gitCli(fixture.dir, 'worktree', 'add', worktree, 'feature');
    expect(await checkout({ url: urlOf(worktree), branch: 'feature', dir: freshDir() })).toEqual({
      branch: 'feature',
      commit: fixture.featureCommit,
    });
    expect(await checkout({ url: urlOf(worktree), branch: 'main', dir: freshDir() })).toEqual({
      branch: 'main',
      commit: fixture.mainCommit,
    });
  });

  it('checks out a given commit of the branch', async () => {
    const dir = freshDir();
    expect(await checkout({ url: urlOf(fixture.dir), branch: 'feature', commit: fixture.mainCommit, dir })).toEqual({
      branch: 'feature',
      commit: fixture.mainCommit,
    });
    expect(await readAll(dir)).toEqual(mainFiles);
  });

  it('says which branch is missing', async () => {
    await expect(checkout({ url: urlOf(fixture.dir), branch: 'nope', dir: freshDir() })).rejects.toMatchObject({
      name: 'RepositoryRefNotFound',
      message: expect.stringContaining('nope'),
    });
    await expect(checkout({ url: urlOf(fixture.dir), branch: 'main', commit: 'f'.repeat(40), dir: freshDir() })).rejects.toMatchObject({
      name: 'RepositoryRefNotFound',
    });
  });

  it('refuses branch names git would refuse', async () => {
    await expect(checkout({ url: urlOf(fixture.dir), branch: '../../etc', dir: freshDir() })).rejects.toMatchObject({
      name: 'InvalidBranchName',
    });
  });

  it('reports a missing or non-repository folder as unavailable', async () => {
    await expect(checkout({ url: urlOf(join(root.path, 'missing')), dir: freshDir() })).rejects.toMatchObject({
      name: 'RepositoryUnavailable',
    });
    await expect(checkout({ url: urlOf(join(fixture.dir, 'src')), dir: freshDir() })).rejects.toMatchObject({
      name: 'RepositoryUnavailable',
      message: expect.stringContaining('not a git repository'),
    });
  });

  it.each(['ssh://git@example.com/acme/app.git', 'git@github.com:acme/app.git'])('refuses ssh address %s', async (url) => {
    await expect(checkout({ url, dir: freshDir() })).rejects.toMatchObject({
      name: 'RepositoryUnavailable',
      message: 'ssh repositories are not supported; use https',
    });
  });

  it('refuses a folder that is not empty', async () => {
    const dir = freshDir();
    await checkout({ url: urlOf(fixture.dir), dir });
    await expect(checkout({ url: urlOf(fixture.dir), dir })).rejects.toThrow('not empty');
  });
});

describe('file repositories outside the local runtime', () => {
  it('refuses to read or write a folder of the server unless the local runtime enabled them', async () => {
    const elsewhere = gitRepository();
    const dir = freshDir();
    await expect(elsewhere.checkout({ url: urlOf(fixture.dir), dir })).rejects.toMatchObject({
      name: 'RepositoryTargetRefused',
      message: expect.stringContaining('only in the local runtime'),
    });
    await expect(readdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(
      elsewhere.pushBranch({
        url: urlOf(fixture.dir),
        baseCommit: fixture.mainCommit,
        branch: 'automation/never',
        changes: { summary: 'x', files: [{ path: 'x.txt', content: 'x' }] },
        message: 'never',
        author: { name: 'a', email: 'a@example.com' },
      }),
    ).rejects.toMatchObject({ name: 'RepositoryTargetRefused' });
    expect(gitCli(fixture.dir, 'branch', '--list', 'automation/never')).toBe('');
  });
});

describe('pushBranch to file://', () => {
  const change = {
    summary: 'demo',
    files: [
      { path: 'src/app.ts', content: 'export const app = 3;\n' },
      { path: 'bin/run.sh', content: '#!/bin/sh\necho changed\n' },
      { path: 'docs/new/guide.md', content: '# Guide\n' },
      { path: 'README.md', content: null },
      { path: 'src/only/lonely.txt', content: null },
    ],
  };
  const author = { name: 'Automation Bot', email: 'bot@example.com' };
  const fixedDate = new Date('2030-01-02T03:04:05Z');
  const repository = gitRepository({ now: () => fixedDate, fileRepositories: true });

  it.each([
    ['a non-bare repository', () => fixture.dir],
    ['a bare repository', () => bare],
  ])('publishes a commit on top of the base as a new branch of %s', async (_, source) => {
    const src = source();
    const branch = `automation/wf_${++counter}`;
    const result = await repository.pushBranch({
      url: urlOf(src),
      baseCommit: fixture.mainCommit,
      branch,
      changes: change,
      message: 'Apply the change',
      author,
    });

    expect(result).toEqual({ branch, commit: gitCli(src, 'rev-parse', `refs/heads/${branch}`) });
    expect(gitCli(src, 'log', '-1', '--format=%an <%ae>|%cn|%s|%P|%ct', branch)).toBe(
      `Automation Bot <bot@example.com>|Automation Bot|Apply the change|${fixture.mainCommit}|${fixedDate.getTime() / 1000}`,
    );
    expect(gitCli(src, 'diff', '--name-status', fixture.mainCommit, branch).split('\n').sort()).toEqual([
      'A\tdocs/new/guide.md',
      'D\tREADME.md',
      'D\tsrc/only/lonely.txt',
      'M\tbin/run.sh',
      'M\tsrc/app.ts',
    ]);
    expect(gitCli(src, 'show', `${branch}:src/app.ts`)).toBe('export const app = 3;');
    expect(gitCli(src, 'show', `${branch}:docs/new/guide.md`)).toBe('# Guide');
    expect(gitCli(src, 'ls-tree', branch, 'bin/run.sh')).toMatch(/^100755 /);
    expect(gitCli(src, 'ls-tree', branch, 'link')).toMatch(/^120000 /);
    expect(gitCli(src, 'ls-tree', '-d', branch, 'src/only')).toBe('');
    gitCli(src, 'fsck', '--strict', '--no-dangling');
    // The working tree of a non-bare source is left as it was.
    if (src === fixture.dir) expect(gitCli(src, 'status', '--porcelain')).toBe('');

    await expect(
      repository.pushBranch({ url: urlOf(src), baseCommit: fixture.mainCommit, branch, changes: change, message: 'again', author }),
    ).rejects.toMatchObject({ name: 'BranchExists', message: expect.stringContaining(branch) });
    expect(gitCli(src, 'rev-parse', `refs/heads/${branch}`)).toBe(result.commit);
  });

  it('is what a later checkout of that branch sees', async () => {
    const branch = `automation/wf_${++counter}`;
    const pushed = await pushBranch({
      url: urlOf(fixture.dir),
      baseCommit: fixture.featureCommit,
      branch,
      changes: { summary: 's', files: [{ path: 'feature.txt', content: 'more\n' }] },
      message: 'm',
      author,
    });
    const dir = freshDir();
    expect(await checkout({ url: urlOf(fixture.dir), branch, dir })).toEqual(pushed);
    expect(await readFile(join(dir, 'feature.txt'), 'utf8')).toBe('more\n');
  });

  it('refuses an unknown base commit, a bad branch name and an unsafe change, writing no ref', async () => {
    const request = {
      url: urlOf(fixture.dir),
      baseCommit: fixture.mainCommit,
      branch: 'automation/refused',
      changes: { summary: 's', files: [{ path: 'x', content: 'x' }] },
      message: 'm',
      author,
    };
    await expect(pushBranch({ ...request, baseCommit: '0'.repeat(40) })).rejects.toMatchObject({ name: 'RepositoryRefNotFound' });
    await expect(pushBranch({ ...request, baseCommit: 'main' })).rejects.toMatchObject({ name: 'RepositoryRefNotFound' });
    await expect(pushBranch({ ...request, branch: 'bad..name' })).rejects.toMatchObject({ name: 'InvalidBranchName' });
    await expect(
      pushBranch({ ...request, changes: { summary: 's', files: [{ path: '.git/hooks/pre-commit', content: 'x' }] } }),
    ).rejects.toMatchObject({ name: 'InvalidChangeSetError' });
    await expect(pushBranch({ ...request, changes: { summary: 's', files: [{ path: 'link', content: 'x' }] } })).rejects.toMatchObject({
      name: 'InvalidChangeSetError',
      message: expect.stringContaining('symbolic link'),
    });
    await expect(pushBranch({ ...request, changes: { summary: 's', files: [{ path: 'src', content: 'x' }] } })).rejects.toMatchObject({
      name: 'InvalidChangeSetError',
      message: expect.stringContaining('is a folder'),
    });
    expect(gitCli(fixture.dir, 'branch', '--list', 'automation/refused')).toBe('');
  });
});
