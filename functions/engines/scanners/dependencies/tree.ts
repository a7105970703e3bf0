import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders never descended into: installed packages and git's own data. */
export const skippedFolders: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * Every regular file under `root` whose repository-relative path (`/`-separated) `wanted` accepts,
 * sorted. Symbolic links are not followed (a link could point out of the checkout).
 */
export const findFiles = async (root: string, wanted: (path: string) => boolean): Promise<string[]> => {
  const found: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(relative ? join(root, ...relative.split('/')) : root, { withFileTypes: true });
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) await visit(path);
      } else if (entry.isFile() && wanted(path)) {
        found.push(path);
      }
    }
  };
  await visit('');
  return found.sort();
};

/** The folder of a repository-relative path ('' at the root). */
export const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** The file name of a repository-relative path. */
export const baseNameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** `folder` and each of its parents up to the root (''), nearest first. */
export const folderAndParents = (folder: string): string[] => {
  const result = [folder];
  let current = folder;
  while (current !== '') {
    current = folderOf(current);
    result.push(current);
  }
  return result;
};
