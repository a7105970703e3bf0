import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The git CLI builds and inspects fixture repositories; the code under test never uses it. */
const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
};

export const gitCli = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export const tempRoot = async (): Promise<{ path: string; remove(): Promise<void> }> => {
  const path = await mkdtemp(join(tmpdir(), 'repo-test-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
};

const write = async (root: string, files: Record<string, string>) => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
};

export interface FixtureRepository {
  /** The non-bare source repository (`main` checked out). */
  dir: string;
  mainCommit: string;
  featureCommit: string;
}

export const mainFiles = {
  'README.md': '# Fixture\n',
  'src/app.ts': 'export const app = 1;\n',
  'src/nested/deep/util.ts': 'export const util = 2;\n',
  'src/only/lonely.txt': 'alone\n',
  'bin/run.sh': '#!/bin/sh\necho run\n',
};

/**
 * `main`: the files above, `bin/run.sh` executable and a symbolic link `link` to the README.
 * `feature`: one commit more, editing `src/app.ts` and adding `feature.txt`.
 * A tag called `feature` points at main, to tell tags from branches.
 */
export const createFixtureRepository = async (root: string): Promise<FixtureRepository> => {
  const dir = join(root, 'src-repo');
  await mkdir(dir);
  gitCli(dir, 'init', '--quiet', '--initial-branch=main');
  await write(dir, mainFiles);
  await chmod(join(dir, 'bin/run.sh'), 0o755);
  await symlink('README.md', join(dir, 'link'));
  gitCli(dir, 'add', '-A');
  gitCli(dir, 'commit', '--quiet', '-m', 'initial');
  gitCli(dir, 'checkout', '--quiet', '-b', 'feature');
  await write(dir, { 'src/app.ts': 'export const app = 42;\n', 'feature.txt': 'feature\n' });
  gitCli(dir, 'add', '-A');
  gitCli(dir, 'commit', '--quiet', '-m', 'feature work');
  gitCli(dir, 'checkout', '--quiet', 'main');
  gitCli(dir, 'tag', 'feature', 'main');
  return { dir, mainCommit: gitCli(dir, 'rev-parse', 'main'), featureCommit: gitCli(dir, 'rev-parse', 'refs/heads/feature') };
};

/** A bare clone with every object packed, as on a server. */
export const createBareClone = (source: string, target: string): string => {
  gitCli(dirname(target), 'clone', '--quiet', '--bare', source, target);
  gitCli(target, 'gc', '--quiet');
  return target;
};
