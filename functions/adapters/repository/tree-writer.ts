import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repositoryPathProblem } from '../../core/workspace/repository-path';
import { fs, git, type GitCache } from './git-client';
import { RepositoryUnavailable } from './repository-errors';

interface TreeSource {
  gitdir: string;
  cache: GitCache;
}

const writeFolder = async (source: TreeSource, treeOid: string, dir: string, prefix: string): Promise<void> => {
  const { tree } = await git.readTree({ fs, gitdir: source.gitdir, oid: treeOid, cache: source.cache });
  await mkdir(dir, { recursive: true });
  for (const entry of tree) {
    const path = prefix === '' ? entry.path : `${prefix}/${entry.path}`;
    // Git itself refuses such trees on checkout; a crafted one must not write outside `dir` or into .git.
    if (entry.path.includes('/') || repositoryPathProblem(path)) {
      throw new RepositoryUnavailable(`the repository holds an unsafe path: ${JSON.stringify(path.slice(0, 200))}`);
    }
    const target = join(dir, entry.path);
    if (entry.type === 'tree') {
      await writeFolder(source, entry.oid, target, path);
    } else if (entry.type === 'blob' && (entry.mode === '100644' || entry.mode === '100755')) {
      const { blob } = await git.readBlob({ fs, gitdir: source.gitdir, oid: entry.oid, cache: source.cache });
      await writeFile(target, blob);
      if (entry.mode === '100755') await chmod(target, 0o755);
    }
    // Symbolic links (120000) and submodules (commit entries) are left out.
  }
};

/** Writes the files of `commit` into `dir` (no .git, no index: a plain working tree). */
export const writeTreeAt = async (gitdir: string, commit: string, dir: string, cache: GitCache = {}): Promise<void> => {
  const { commit: object } = await git.readCommit({ fs, gitdir, oid: commit, cache });
  await writeFolder({ gitdir, cache }, object.tree, dir, '');
};
