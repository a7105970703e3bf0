import { lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import type { FileChange } from '../../core/workflows/stage-data';
import type { AppliedChangeSet } from '../../core/workspace/working-tree';
import { UnsafePathError } from '../../core/workspace/repository-path';
import { resolveForWrite } from './safe-path';
import { changeSetProblems, InvalidChangeSetError, type ChangeSetProblem } from '../../core/workspace/validate-change-set';

export { InvalidChangeSetError } from '../../core/workspace/validate-change-set';

interface ResolvedChange extends FileChange {
  target: string;
}

const lstatOrNull = async (path: string) => lstat(path).catch(() => null);

/** Problems only the file system can reveal: links out of the root, files where folders must be. */
const resolveAll = async (
  root: string,
  changes: readonly FileChange[],
): Promise<{ resolved: ResolvedChange[]; problems: ChangeSetProblem[] }> => {
  const problems: ChangeSetProblem[] = [];
  const resolved: ResolvedChange[] = [];
  const deleted = new Set(changes.filter((c) => c.content === null).map((c) => c.path));
  for (const change of changes) {
    let target: string;
    try {
      target = await resolveForWrite(root, change.path);
    } catch (error) {
      if (!(error instanceof UnsafePathError)) throw error;
      problems.push({ path: change.path, issue: error.issue });
      continue;
    }
    resolved.push({ ...change, target });
    if ((await lstatOrNull(target))?.isDirectory()) {
      problems.push({ path: change.path, issue: 'is a folder' });
      continue;
    }
    if (change.content === null) continue;
    for (let folder = dirname(target); relative(root, folder) !== ''; folder = dirname(folder)) {
      const folderPath = relative(root, folder).split(sep).join('/');
      const stats = await lstatOrNull(folder);
      if (stats && !stats.isDirectory() && !deleted.has(folderPath)) {
        problems.push({ path: change.path, issue: `needs ${folderPath} to be a folder, but it is a file` });
      }
    }
  }
  return { resolved, problems };
};

const readOriginal = async (target: string): Promise<string | null> => {
  try {
    return await readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return null;
    }
    throw error;
  }
};

/**
 * Writes and deletes the files of a change set under `root`, creating folders as needed. Every
 * path is checked first; when any is refused nothing is written (InvalidChangeSetError).
 */
export const applyChangeSet = async (root: string, changes: readonly FileChange[]): Promise<AppliedChangeSet> => {
  const pathProblems = changeSetProblems(changes);
  if (pathProblems.length > 0) throw new InvalidChangeSetError(pathProblems);
  const { resolved, problems } = await resolveAll(root, changes);
  if (problems.length > 0) throw new InvalidChangeSetError(problems);

  // No prototype: a file may well be called `__proto__`.
  const originals = Object.create(null) as Record<string, string | null>;
  for (const change of resolved) originals[change.path] = await readOriginal(change.target);
  // Deletions first, so that a deleted file may make room for a folder of the same name.
  for (const change of resolved) {
    if (change.content === null) await rm(change.target, { force: true });
  }
  for (const change of resolved) {
    if (change.content === null) continue;
    await mkdir(dirname(change.target), { recursive: true });
    await writeFile(change.target, change.content, 'utf8');
  }
  return { originals };
};
