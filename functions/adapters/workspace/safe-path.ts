import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute, sep } from 'node:path';
import { assertRepositoryPath, UnsafePathError } from '../../core/workspace/repository-path';

/** The absolute location of a valid repository path under `root` (no file system access). */
export const resolveInside = (root: string, path: string): string => {
  assertRepositoryPath(path);
  return join(root, ...path.split('/'));
};

/** Whether absolute `candidate` is `parent` or lies below it (lexically; resolve links first). */
export const isWithin = (parent: string, candidate: string): boolean => {
  const rel = relative(parent, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

const lstatOrNull = async (path: string) => lstat(path).catch(() => null);

/**
 * Like `resolveInside`, and also refuses a location that a symbolic link would carry out of
 * `root`: the nearest existing ancestor must resolve inside the real root, and the file itself
 * must not be a symbolic link (writing would follow it, deleting would hide where it pointed).
 * Writing or deleting through the result then cannot touch anything outside the root.
 */
export const resolveForWrite = async (root: string, path: string): Promise<string> => {
  const target = resolveInside(root, path);
  if ((await lstatOrNull(target))?.isSymbolicLink()) {
    throw new UnsafePathError(path, 'is a symbolic link');
  }
  const realRoot = await realpath(root);
  let ancestor = dirname(target);
  while (!(await lstatOrNull(ancestor))) ancestor = dirname(ancestor);
  // A dangling link has no real path and could be created anywhere: refused too.
  const realAncestor = await realpath(ancestor).catch(() => null);
  if (realAncestor === null || !isWithin(realRoot, realAncestor)) {
    throw new UnsafePathError(path, 'leads outside the repository through a symbolic link');
  }
  return target;
};

/** Alias of `resolveInside`: the absolute location of a valid repository path under `root`. */
export const safeResolve = resolveInside;
