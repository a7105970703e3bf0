import { lstat, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scratch, WorkingTree } from '../../core/workspace/working-tree';
import { applyChangeSet } from './apply-change-set';
import { gatherContext, readFiles } from './context';
import { UnsafePathError } from '../../core/workspace/repository-path';
import { isWithin, resolveInside } from './safe-path';

const absent = (error: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** The working tree in the folder `dir` on the local file system; `dispose` is what removing it takes. */
export const workingTreeAt = (dir: string, dispose: () => Promise<void>): WorkingTree => ({
  dir,
  async readText(path) {
    const target = resolveInside(dir, path);
    let real: string;
    try {
      real = await realpath(target);
    } catch (error) {
      if (absent(error)) return null;
      throw error;
    }
    // A link in the repository must not read the machine's files (/proc/self/environ…) into a prompt.
    if (!isWithin(await realpath(dir), real)) throw new UnsafePathError(path, 'leads outside the repository through a symbolic link');
    return readFile(real, 'utf8');
  },
  async isFile(path) {
    return (await lstat(resolveInside(dir, path)).catch(() => null))?.isFile() ?? false;
  },
  readFiles: (paths) => readFiles(dir, paths),
  describe: (source) => gatherContext(dir, source),
  apply: (changes) => applyChangeSet(dir, changes),
  dispose,
});

/** Scratch folders under the system's temporary folder (`/tmp` in Lambda), named `<prefix>…`. */
export const scratchFolders = (prefix: string): Scratch => ({
  async create() {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    return workingTreeAt(dir, () => rm(dir, { recursive: true, force: true }));
  },
});
