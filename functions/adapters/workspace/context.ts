import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepositoryContext } from '../../core/workflows/stage-data';
import { languagesOf } from '../../core/workspace/languages';
import { readTextPrefix } from './read-text';
import { repositoryPathProblem } from '../../core/workspace/repository-path';
import { isWithin, resolveInside } from './safe-path';

export const maxContextFiles = 2000;
export const maxManifestBytes = 16 * 1024;
export const maxReadmeBytes = 16 * 1024;
/** Folders below the root searched for manifests: `a/b/package.json` is found, `a/b/c/package.json` not. */
export const maxManifestDepth = 2;
/** Enough for a monorepo's main packages without flooding the AI's context; shallowest first. */
export const maxManifests = 30;

const skippedFolders = new Set(['.git', 'node_modules']);

const manifestNames = new Set([
  'package.json',
  'tsconfig.json',
  'pyproject.toml',
  'requirements.txt',
  'go.mod',
  'Cargo.toml',
  'pom.xml',
  'build.gradle',
  'Gemfile',
  'composer.json',
  'Dockerfile',
]);

/** In order of preference, matched without regard to case. */
const readmeNames = ['readme.md', 'readme', 'readme.rst', 'readme.txt'];

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const joinRelative = (folder: string, name: string): string => (folder === '' ? name : `${folder}/${name}`);

interface Listing {
  files: string[];
  folders: string[];
}

/** One folder's regular files and sub-folders (symbolic links are neither), sorted by name, as repository paths. */
const list = async (root: string, folder: string): Promise<Listing> => {
  const entries = await readdir(folder === '' ? root : join(root, ...folder.split('/')), { withFileTypes: true });
  const files: string[] = [];
  const folders: string[] = [];
  for (const entry of entries.sort((a, b) => byName(a.name, b.name))) {
    const path = joinRelative(folder, entry.name);
    // Names no change could address (a `.git` file, a backslash) are not worth showing the AI.
    if (repositoryPathProblem(path)) continue;
    if (entry.isFile()) files.push(path);
    else if (entry.isDirectory() && !skippedFolders.has(entry.name)) folders.push(path);
  }
  return { files, folders };
};

/** Breadth first, so that a cut keeps the top of the tree; at most `cap + 1` files. */
const walkFiles = async (root: string, cap: number): Promise<string[]> => {
  const files: string[] = [];
  let level = [''];
  while (level.length > 0 && files.length <= cap) {
    const next: string[] = [];
    for (const folder of level) {
      const listing = await list(root, folder);
      files.push(...listing.files);
      next.push(...listing.folders);
      if (files.length > cap) break;
    }
    level = next;
  }
  return files.slice(0, cap + 1);
};

const findManifests = async (root: string): Promise<Record<string, string>> => {
  const found: string[] = [];
  let level = [''];
  for (let depth = 0; depth <= maxManifestDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      const listing = await list(root, folder);
      for (const file of listing.files) {
        if (manifestNames.has(file.slice(file.lastIndexOf('/') + 1))) found.push(file);
      }
      next.push(...listing.folders);
    }
    level = next;
  }
  const manifests = Object.create(null) as Record<string, string>;
  for (const path of found.slice(0, maxManifests)) {
    const content = await readTextPrefix(resolveInside(root, path), maxManifestBytes);
    if (content) manifests[path] = content.text;
  }
  return manifests;
};

const findReadme = async (root: string): Promise<string | null> => {
  const { files } = await list(root, '');
  for (const wanted of readmeNames) {
    const name = files.find((file) => file.toLowerCase() === wanted);
    if (name) return (await readTextPrefix(join(root, name), maxReadmeBytes))?.text ?? null;
  }
  return null;
};

/** What the AI needs to know about a checked-out repository to plan a change. */
export const gatherContext = async (
  root: string,
  source: { repository: string; branch: string; commit: string },
): Promise<RepositoryContext> => {
  const walked = await walkFiles(root, maxContextFiles);
  const kept = walked.slice(0, maxContextFiles).sort(byName);
  const files = await Promise.all(kept.map(async (path) => ({ path, size: (await lstat(resolveInside(root, path))).size })));
  return {
    repository: source.repository,
    branch: source.branch,
    commit: source.commit,
    files,
    filesTruncated: walked.length > maxContextFiles,
    manifests: await findManifests(root),
    readme: await findReadme(root),
    languages: languagesOf(kept),
  };
};

export interface ReadFilesLimits {
  /** Larger files are left out, not cut: the AI rewrites whole files, and must not rewrite half of one. */
  maxFileBytes: number;
  /** Files that would take the total past this are left out. */
  maxTotalBytes: number;
}

export const defaultReadFilesLimits: ReadFilesLimits = { maxFileBytes: 128 * 1024, maxTotalBytes: 512 * 1024 };

/**
 * The text of the requested files, for the AI to edit. Invalid paths, absent, binary and too
 * large files, and links that lead out of the root are silently left out; the caller sees which
 * paths are missing from the result.
 */
export const readFiles = async (
  root: string,
  paths: readonly string[],
  limits: ReadFilesLimits = defaultReadFilesLimits,
): Promise<Record<string, string>> => {
  const realRoot = await realpath(root);
  const contents = Object.create(null) as Record<string, string>;
  let total = 0;
  for (const path of [...new Set(paths)]) {
    if (repositoryPathProblem(path)) continue;
    const real = await realpath(resolveInside(root, path)).catch(() => null);
    if (!real || !isWithin(realRoot, real)) continue;
    const stats = await stat(real);
    if (!stats.isFile() || stats.size > limits.maxFileBytes || total + stats.size > limits.maxTotalBytes) continue;
    const content = await readTextPrefix(real, limits.maxFileBytes);
    if (!content) continue;
    contents[path] = content.text;
    total += stats.size;
  }
  return contents;
};
