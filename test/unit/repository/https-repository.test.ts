import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitRepository } from '../../../functions/adapters/repository/git-repository';
import { createBareClone, createFixtureRepository, gitCli, mainFiles, tempRoot, type FixtureRepository } from './git-fixtures';
import { startGitHttpServer, type GitHttpServer } from './git-http-server';

/** isomorphic-git over smart HTTP against a local `git http-backend`; the address is https, the wire is local. */

const token = 'test-token-123';
const credentials = { token };
const url = 'https://git.test/app.git';

let root: Awaited<ReturnType<typeof tempRoot>>;
let fixture: FixtureRepository;
let served: string;
let server: GitHttpServer;
let repository: ReturnType<typeof gitRepository>;
let counter = 0;

beforeAll(async () => {
  root = await tempRoot();
  fixture = await createFixtureRepository(root.path);
  served = createBareClone(fixture.dir, join(root.path, 'app.git'));
  // Lets a client fetch a commit that is no longer a branch tip, as GitHub and GitLab do.
  gitCli(served, 'config', 'uploadpack.allowReachableSHA1InWant', 'true');
  // `topic~1` is a commit that no branch points at.
  gitCli(fixture.dir, 'checkout', '--quiet', '-b', 'topic', 'main');
  gitCli(fixture.dir, 'commit', '--quiet', '--allow-empty', '-m', 'topic 1');
  gitCli(fixture.dir, 'commit', '--quiet', '--allow-empty', '-m', 'topic 2');
  gitCli(fixture.dir, 'checkout', '--quiet', 'main');
  gitCli(fixture.dir, 'push', '--quiet', served, 'topic');
  server = await startGitHttpServer(root.path, token);
  repository = gitRepository({ http: server.client, now: () => new Date('2030-01-01T00:00:00Z') });
});
afterAll(async () => {
  await server.close();
  await root.remove();
});

const freshDir = () => join(root.path, `https-checkout-${++counter}`);

describe('checkout over https', () => {
  it('fetches the default branch with the token and writes its files', async () => {
    const dir = freshDir();
    expect(await repository.checkout({ url, dir, credentials })).toEqual({ branch: 'main', commit: fixture.mainCommit });
    for (const [path, content] of Object.entries(mainFiles)) expect(await readFile(join(dir, path), 'utf8')).toBe(content);
    expect(server.authorizations).toContain(`Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
  });

  it('fetches a named branch', async () => {
    const dir = freshDir();
    expect(await repository.checkout({ url, branch: 'feature', dir, credentials })).toEqual({
      branch: 'feature',
      commit: fixture.featureCommit,
    });
    expect(await readFile(join(dir, 'feature.txt'), 'utf8')).toBe('feature\n');
  });

  it('fetches a commit behind the tip of the branch', async () => {
    const dir = freshDir();
    expect(await repository.checkout({ url, branch: 'feature', commit: fixture.mainCommit, dir, credentials })).toEqual({
      branch: 'feature',
      commit: fixture.mainCommit,
    });
    expect(await readFile(join(dir, 'src/app.ts'), 'utf8')).toBe(mainFiles['src/app.ts']);
  });

  it('says which branch is missing', async () => {
    await expect(repository.checkout({ url, branch: 'nope', dir: freshDir(), credentials })).rejects.toMatchObject({
      name: 'RepositoryRefNotFound',
      message: expect.stringContaining('nope'),
    });
  });

  it('reports refused credentials as unavailable, without the token', async () => {
    for (const attempt of [undefined, { token: 'wrong' }]) {
      const error = await repository
        .checkout({ url, dir: freshDir(), ...(attempt ? { credentials: attempt } : {}) })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'RepositoryUnavailable',
        message: 'the repository could not be reached (access_denied: check the repository token)',
      });
      expect(String((error as Error).message)).not.toContain('wrong');
    }
  });

  it('refuses a token written into the address', async () => {
    await expect(repository.checkout({ url: `https://x:${token}@git.test/app.git`, dir: freshDir() })).rejects.toMatchObject({
      name: 'RepositoryUnavailable',
      message: expect.not.stringContaining(token),
    });
  });

  it('refuses a loopback repository by default, saying only that it could not be reached', async () => {
    await expect(gitRepository().checkout({ url: 'https://127.0.0.1:1/app.git', dir: freshDir() })).rejects.toMatchObject({
      name: 'RepositoryTargetRefused',
      message: expect.stringMatching(/^the repository could not be reached \(refused_target/),
    });
  });
});

describe('pushBranch over https', () => {
  const author = { name: 'Automation Bot', email: 'bot@example.com' };
  const changes = {
    summary: 's',
    files: [
      { path: 'src/app.ts', content: 'export const app = 7;\n' },
      { path: 'added/file.txt', content: 'added\n' },
      { path: 'README.md', content: null },
    ],
  };

  it.each([
    ['the tip of a branch', () => fixture.mainCommit],
    ['a commit that is no branch tip', () => gitCli(served, 'rev-parse', 'refs/heads/topic~1')],
  ])('publishes a new branch on top of %s', async (_, base) => {
    const baseCommit = base();
    const branch = `automation/https_${++counter}`;
    const pushed = await repository.pushBranch({ url, baseCommit, branch, changes, message: 'Apply', author, credentials });

    expect(pushed).toEqual({ branch, commit: gitCli(served, 'rev-parse', `refs/heads/${branch}`) });
    expect(gitCli(served, 'log', '-1', '--format=%an|%s|%P', branch)).toBe(`Automation Bot|Apply|${baseCommit}`);
    expect(gitCli(served, 'diff', '--name-status', baseCommit, branch).split('\n').sort()).toEqual([
      'A\tadded/file.txt',
      'D\tREADME.md',
      'M\tsrc/app.ts',
    ]);
    gitCli(served, 'fsck', '--strict', '--no-dangling');

    await expect(repository.pushBranch({ url, baseCommit, branch, changes, message: 'again', author, credentials })).rejects.toMatchObject({
      name: 'BranchExists',
    });
  });

  it('sends only the objects the change adds when the base is a branch tip', async () => {
    const branch = `automation/https_${++counter}`;
    await repository.pushBranch({ url, baseCommit: fixture.mainCommit, branch, changes, message: 'm', author, credentials });
    // The commit, the root, src and added trees, and the blobs of src/app.ts and added/file.txt.
    expect(server.pushedObjectCounts.at(-1)).toBe(6);
  });

  it('builds the commit in the folder given, and only there', async () => {
    const dir = freshDir();
    const branch = `automation/https_${++counter}`;
    await repository.pushBranch({ url, baseCommit: fixture.mainCommit, branch, changes, message: 'm', author, credentials, dir });
    expect(gitCli(join(dir, '.git'), 'rev-parse', `refs/heads/${branch}`)).toBe(gitCli(served, 'rev-parse', `refs/heads/${branch}`));
  });

  it('refuses without credentials, leaving no branch', async () => {
    await expect(
      repository.pushBranch({ url, baseCommit: fixture.mainCommit, branch: 'automation/denied', changes, message: 'm', author }),
    ).rejects.toMatchObject({ name: 'RepositoryUnavailable' });
    expect(gitCli(served, 'branch', '--list', 'automation/denied')).toBe('');
  });
});
