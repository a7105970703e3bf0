import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { assertArtifactKey, sha256Hex, toBuffer, type ArtifactStore } from '../../core/workspace/artifact-store';

/**
 * Artifacts as files under `root` (the local runtime's data folder). A write goes to a temporary
 * file beside the target and is renamed into place, so a reader sees the old body or the new one,
 * never half of one. The content type is not kept.
 */
export const fileArtifactStore = (root: string): ArtifactStore => {
  const absoluteRoot = resolve(root);
  const pathOf = (key: string): string => {
    assertArtifactKey(key);
    return join(absoluteRoot, ...key.split('/'));
  };

  return {
    async put(key, body) {
      const path = pathOf(key);
      const bytes = toBuffer(body);
      await mkdir(dirname(path), { recursive: true });
      // Random, so that two writers of one key never share a temporary file.
      const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { location: path, sha256: sha256Hex(bytes), size: bytes.length };
    },

    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
        throw error;
      }
    },
  };
};
