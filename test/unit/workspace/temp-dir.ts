import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Temporary folders for one test file, removed by `removeAll` in afterAll. */
export const tempDirs = () => {
  const made: string[] = [];
  return {
    async make(prefix = 'ws-'): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    async removeAll(): Promise<void> {
      await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
};

/** Writes files (path → content) under root, creating folders. */
export const writeTree = async (root: string, files: Record<string, string | Buffer>): Promise<void> => {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
};
