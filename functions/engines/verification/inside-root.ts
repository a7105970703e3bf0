import { isAbsolute, relative, sep } from 'node:path';

/** True when `path` (absolute) is `root` or below it. */
export const insideRoot = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};
