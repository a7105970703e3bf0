import type { ChangedFile } from './change-source';

/** Files a package manager writes: reviewing them line by line helps nobody. */
const lockfiles = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'deno.lock',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'composer.lock',
  'Gemfile.lock',
  'go.sum',
  'mix.lock',
  'flake.lock',
  'pubspec.lock',
  'Podfile.lock',
  'packages.lock.json',
]);

/** Folders of build output and installed dependencies. */
const generatedFolders = ['dist', 'node_modules', 'coverage'];

const minifiedName = /\.min\.(?:js|mjs|cjs|css)$/i;
const sourceMapName = /\.(?:js|mjs|cjs|css)\.map$/i;

/** Markers generators write at the top (Go's convention, and Facebook's `@generated`). */
const generatedMarker = /(?:^|\W)@generated(?:\W|$)|Code generated .* DO NOT EDIT/;

/** As the sast scanner decides: long lines on average, in a file of some size. */
const minifiedAverageLine = 250;
const minifiedMinimumSize = 1_000;

const looksMinified = (text: string): boolean => {
  if (text.length < minifiedMinimumSize) return false;
  const lines = text.split('\n').length;
  return text.length / lines > minifiedAverageLine;
};

/**
 * A lockfile, or third-party code installed under `node_modules/`: generated files whose contents
 * the change's authors did not write, and which the review does not scan for secrets either.
 */
export const isDependencyRecord = (path: string): boolean => {
  const segments = path.split('/');
  return lockfiles.has(segments[segments.length - 1] ?? '') || segments.slice(0, -1).includes('node_modules');
};

/**
 * Why a file of the change is skipped (binary or generated), or null when it is reviewed. A
 * generated file is one a tool writes: a lockfile, anything under `dist/`, `node_modules/` or
 * `coverage/`, a minified file or source map, or a file whose first lines say it is generated.
 */
export const skipReason = (file: ChangedFile): string | null => {
  if (file.kind === 'binary') return 'binary file';
  if (file.kind === 'not_a_file') return 'not a regular file (a symbolic link or a submodule)';
  const segments = file.path.split('/');
  const name = segments[segments.length - 1] ?? '';
  if (lockfiles.has(name)) return 'generated: a lockfile';
  const folder = segments.slice(0, -1).find((segment) => generatedFolders.includes(segment));
  if (folder) return `generated: under ${folder}/`;
  if (minifiedName.test(name)) return 'generated: minified';
  if (sourceMapName.test(name)) return 'generated: a source map';
  const text = file.after ?? file.before ?? '';
  if (generatedMarker.test(text.split('\n', 5).join('\n'))) return 'generated: marked as generated';
  if (looksMinified(text)) return 'generated: minified (long lines)';
  return null;
};
