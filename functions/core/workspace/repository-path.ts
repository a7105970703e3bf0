/** What makes a repository-relative file path acceptable: checked before any file is touched. */
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
