import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { zipSync, type Zippable } from 'fflate';

/** The earliest time a zip entry can carry (DOS dates start in 1980): fixed, so the same tree zips the same. */
const zipEpoch = new Date('1980-01-01T00:00:00Z');

/** The tree as a zip (CodeBuild's S3 source format), without `.git` and `node_modules`. */
export const zipTree = async (root: string): Promise<Uint8Array> => {
  const files: Zippable = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile())
        files[relative(root, path).split('\\').join('/')] = [new Uint8Array(await readFile(path)), { mtime: zipEpoch }];
    }
  };
  await walk(root);
  return zipSync(files, { level: 6 });
};
