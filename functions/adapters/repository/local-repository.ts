import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RepositoryUnavailable } from './repository-errors';

const statOrNull = async (path: string) => stat(path).catch(() => null);

/**
 * The directory holding a linked worktree's branches and objects: its `commondir` (the main
 * repository's git directory, `git worktree add`); a submodule's or a plain git directory is its own.
 */
const commonGitdir = async (gitdir: string): Promise<string> => {
  const common = await readFile(join(gitdir, 'commondir'), 'utf8').catch(() => null);
  return common?.trim() ? resolve(gitdir, common.trim()) : gitdir;
};

/**
 * The git directory of a repository on disk: `<path>/.git` (also as a `gitdir:` file, a linked
 * worktree's or a submodule's) or `<path>` itself when bare.
 */
export const locateGitdir = async (path: string): Promise<string> => {
  if (!(await statOrNull(path))?.isDirectory()) throw new RepositoryUnavailable(`no repository at ${path}`);
  const dotGit = join(path, '.git');
  const dotGitStats = await statOrNull(dotGit);
  if (dotGitStats?.isDirectory()) return dotGit;
  if (dotGitStats?.isFile()) {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8'));
    if (pointer?.[1]) return commonGitdir(resolve(path, pointer[1]));
  }
  const [head, objects] = await Promise.all([statOrNull(join(path, 'HEAD')), statOrNull(join(path, 'objects'))]);
  if (head?.isFile() && objects?.isDirectory()) return path;
  throw new RepositoryUnavailable(`${path} is not a git repository`);
};
