/**
 * The shared file walk of the scanners: every regular text file of a checked-out tree, in a
 * deterministic order (sorted by repo-relative path, plain code-unit order, never the locale's).
 *
 * - `.git/` and `node_modules/` are not entered, at any depth. `.git` is VCS metadata; every
 *   `node_modules` directory is listed in `excludedDirs` (with how many files it holds) so that
 *   the caller can report it as not covered — this module does not decide that.
 * - Symbolic links are never followed (a link could point outside the tree): they are `skipped`.
 * - A file larger than `maxFileBytes` is `skipped` as `too_large` without being read.
 * - A file with a NUL byte in its first 8 KiB is `skipped` as `binary`.
 * - Sockets, FIFOs and devices are ignored (reading a FIFO would block).
 * - At most `maxFiles` text files are listed (the first ones in path order); the regular files
 *   left unexamined after that are counted in `overLimit`.
 */
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';

export interface TextFile {
  /** Repo-relative, '/'-separated. */
  path: string;
  absolutePath: string;
  size: number;
}

export type SkipReason = 'binary' | 'too_large' | 'symlink';

export interface SkippedFile {
  path: string;
  reason: SkipReason;
}

export interface ExcludedDir {
  /** Repo-relative path of the directory (e.g. 'node_modules', 'packages/a/node_modules'). */
  path: string;
  /** Regular files under it (symlinks not followed), counted up to `EXCLUDED_COUNT_CAP`. */
  files: number;
}

export interface TextFileListing {
  files: TextFile[];
  skipped: SkippedFile[];
  /** `node_modules` directories that were not walked; `.git` is never listed here. */
  excludedDirs: ExcludedDir[];
  /** Regular files not examined at all because `maxFiles` text files were already listed. */
  overLimit: number;
}

export interface ListTextFilesOptions {
  /** Default 1 MiB. */
  maxFileBytes?: number;
  /** Default 20,000. */
  maxFiles?: number;
}

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_FILES = 20_000;
/** How many leading bytes are looked at for a NUL byte. */
export const BINARY_SNIFF_BYTES = 8 * 1024;
/** Counting the files of an excluded directory stops here (it is only for the coverage report). */
export const EXCLUDED_COUNT_CAP = 100_000;

const SKIPPED_DIRS = new Set(['.git']);
const EXCLUDED_DIRS = new Set(['node_modules']);
const CONCURRENCY = 16;

interface Candidate {
  path: string;
  absolutePath: string;
}

export async function listTextFiles(root: string, options: ListTextFilesOptions = {}): Promise<TextFileListing> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const absoluteRoot = path.resolve(root);

  const candidates: Candidate[] = [];
  const symlinks: string[] = [];
  const excludedDirs: ExcludedDir[] = [];

  const walk = async (dir: string, relDir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      const abs = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        symlinks.push(rel);
      } else if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        if (EXCLUDED_DIRS.has(entry.name)) {
          excludedDirs.push({ path: rel, files: await countFiles(abs, EXCLUDED_COUNT_CAP) });
          continue;
        }
        await walk(abs, rel);
      } else if (entry.isFile()) {
        candidates.push({ path: rel, absolutePath: abs });
      }
    }
  };
  await walk(absoluteRoot, '');

  candidates.sort((a, b) => compare(a.path, b.path));
  excludedDirs.sort((a, b) => compare(a.path, b.path));

  const files: TextFile[] = [];
  const skipped: SkippedFile[] = symlinks.map((p) => ({ path: p, reason: 'symlink' as const }));
  let overLimit = 0;

  // Classified in batches (bounded concurrency) but consumed in path order, so that which files
  // make the `maxFiles` cut never depends on timing.
  for (let start = 0; start < candidates.length; start += CONCURRENCY) {
    if (files.length >= maxFiles) {
      overLimit += candidates.length - start;
      break;
    }
    const batch = candidates.slice(start, start + CONCURRENCY);
    const classified = await Promise.all(batch.map((c) => classify(c, maxFileBytes)));
    for (let i = 0; i < batch.length; i++) {
      const candidate = batch[i]!;
      const result = classified[i]!;
      if (files.length >= maxFiles) {
        // Past the limit, a file counts as not examined whatever it is (as in later batches).
        overLimit++;
      } else if (result.kind === 'skipped') {
        skipped.push({ path: candidate.path, reason: result.reason });
      } else if (result.kind === 'text') {
        files.push({ path: candidate.path, absolutePath: candidate.absolutePath, size: result.size });
      }
    }
  }

  skipped.sort((a, b) => compare(a.path, b.path));
  return { files, skipped, excludedDirs, overLimit };
}

type Classification = { kind: 'text'; size: number } | { kind: 'skipped'; reason: SkipReason } | { kind: 'gone' };

async function classify(candidate: Candidate, maxFileBytes: number): Promise<Classification> {
  let size: number;
  try {
    const stats = await lstat(candidate.absolutePath);
    if (!stats.isFile()) return stats.isSymbolicLink() ? { kind: 'skipped', reason: 'symlink' } : { kind: 'gone' };
    size = stats.size;
  } catch {
    // Removed between the walk and now.
    return { kind: 'gone' };
  }
  if (size > maxFileBytes) return { kind: 'skipped', reason: 'too_large' };
  if (size === 0) return { kind: 'text', size };
  return (await hasNulByte(candidate.absolutePath)) ? { kind: 'skipped', reason: 'binary' } : { kind: 'text', size };
}

/** True when the first `BINARY_SNIFF_BYTES` bytes of the file contain a NUL byte. */
export async function hasNulByte(absolutePath: string): Promise<boolean> {
  const handle = await open(absolutePath, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** Regular files under `dir` (no symlinks followed), stopping at `cap`. */
async function countFiles(dir: string, cap: number): Promise<number> {
  let count = 0;
  const stack = [dir];
  while (stack.length > 0 && count < cap) {
    const current = stack.pop()!;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) stack.push(path.join(current, entry.name));
      else if (entry.isFile()) count++;
    }
  }
  return Math.min(count, cap);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
