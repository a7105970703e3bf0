import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute, sep } from 'node:path';

export const maxRepositoryPathLength = 1024;

export class UnsafePathError extends Error {
  constructor(
    readonly path: string,
    readonly issue: string,
  ) {
    super(`Unsafe path ${JSON.stringify(path.slice(0, 200))}: ${issue}`);
    this.name = 'UnsafePathError';
  }
}

/** Why `path` is not an acceptable repository-relative file path, or null when it is. */
export const repositoryPathProblem = (path: string): string | null => {
  if (path.length === 0) return 'is empty';
  if (path.length > maxRepositoryPathLength) return `is longer than ${maxRepositoryPathLength} characters`;
  if (path.includes('\0')) return 'contains a NUL character';
  if (path.includes('\\')) return 'contains a backslash (use / as separator)';
  if (path.startsWith('/')) return 'is absolute (must be relative to the repository root)';
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
    // Case-insensitive, like git itself on checkout: `.GIT/config` is the same file on macOS.
    if (segment.toLowerCase() === '.git') return 'is inside .git';
  }
  return null;
};

export const assertRepositoryPath = (path: string): void => {
  const problem = repositoryPathProblem(path);
  if (problem) throw new UnsafePathError(path, problem);
};

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
