/**
 * The source files a test generation covers, read from a checked-out repository.
 *
 * - jest / vitest: `.js .mjs .cjs .ts .tsx`; node:test: `.js .mjs .cjs` (Node 20 runs JavaScript
 *   only); pytest: `.py`.
 * - Never test files themselves (`*.test.*`, `*.spec.*`, `*_test.*`, `test_*.py`, `tests.py`, …),
 *   `conftest.py`, `__main__.py`, `setup.py`, type declarations (`*.d.ts`), minified bundles, or
 *   configuration (`*.config.js`, `gulpfile.js`, `jest.setup.js`, …); no dotfile.
 * - Folders not entered: `.git` and every other dot-folder, `node_modules`, `dist`, `build`, `out`,
 *   `coverage`, `__pycache__`, `venv`, `site-packages`, and the test folders `test`, `tests`,
 *   `__tests__`, `__mocks__`, `__snapshots__` (a folder named in `paths` is itself walked, whatever its name).
 * - Symbolic links are never followed.
 * - `paths` (repo-relative files or folders) restricts the walk; each must exist inside the
 *   repository, else `InvalidTestPaths` names the ones that do not. A file named in `paths` that is
 *   not a source of the framework is reported as `not_a_source`.
 * - Caps: `maxFiles` files, `maxFileBytes` each, `maxTotalBytes` in all, taken in path order (plain
 *   code-unit order); what is left out is reported with the reason.
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TestFramework, TestSource } from '../../core/ai/provider';
import { insideRoot } from '../verification/inside-root';

export interface SourceLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const defaultSourceLimits: SourceLimits = { maxFiles: 30, maxFileBytes: 64 * 1024, maxTotalBytes: 512 * 1024 };

/** How many left-out files are named; `omittedCount` counts them all. */
export const maxOmittedListed = 100;

export type OmittedReason = 'too_large' | 'file_limit' | 'total_limit' | 'binary' | 'empty' | 'symlink' | 'not_a_source';

export interface OmittedSource {
  path: string;
  reason: OmittedReason;
}

export interface CollectedSources {
  /** Sorted by path. */
  files: TestSource[];
  /** The first `maxOmittedListed` files left out, in path order. */
  omitted: OmittedSource[];
  omittedCount: number;
  totalBytes: number;
}

export interface CollectSourcesOptions {
  /** Repo-relative files or folders ('/'-separated); all of the repository when absent or empty. */
  paths?: string[] | undefined;
  framework: TestFramework;
  limits?: Partial<SourceLimits>;
}

/** Some `paths` are not files or folders inside the repository (missing, outside it, or symbolic links). */
export class InvalidTestPaths extends Error {
  override readonly name = 'InvalidTestPaths';

  constructor(readonly paths: string[]) {
    const shown = paths.slice(0, 20).map((path) => JSON.stringify(path));
    const more = paths.length > shown.length ? ` and ${paths.length - shown.length} more` : '';
    super(`Not a file or folder inside the repository: ${shown.join(', ')}${more}`);
  }
}

const skippedFolders = new Set([
  'node_modules',
  'dist',
  'build',
  'out',
  'coverage',
  '__pycache__',
  'venv',
  'site-packages',
  'test',
  'tests',
  '__tests__',
  '__mocks__',
  '__snapshots__',
]);

const extensionsFor = (framework: TestFramework): RegExp =>
  framework === 'pytest' ? /\.py$/ : framework === 'node:test' ? /\.(?:js|mjs|cjs)$/ : /\.(?:js|mjs|cjs|ts|tsx)$/;

const isJsTestFile = (name: string): boolean => /(?:^|[._-])(?:test|spec)s?\.[cm]?[jt]sx?$/i.test(name) || /^tests?[-_]/i.test(name);

const isJsConfigFile = (name: string): boolean =>
  /\.config\.[cm]?[jt]s$/i.test(name) ||
  /^(?:gulpfile|gruntfile|jest\.setup|jest\.preset|vitest\.setup|setuptests)\.[cm]?[jt]s$/i.test(name) ||
  /\.d\.[cm]?ts$/i.test(name) ||
  /\.min\.[cm]?js$/i.test(name);

const isPythonNonSource = (name: string): boolean =>
  /^test_.*\.py$/.test(name) ||
  /_test\.py$/.test(name) ||
  /^tests?\.py$/.test(name) ||
  ['conftest.py', '__main__.py', 'setup.py', 'noxfile.py', 'fabfile.py'].includes(name);

/** True when a file of this name is a source `framework`'s tests would cover. */
export const isSourceFile = (framework: TestFramework, name: string): boolean => {
  if (name.startsWith('.') || !extensionsFor(framework).test(name)) return false;
  return framework === 'pytest' ? !isPythonNonSource(name) : !isJsTestFile(name) && !isJsConfigFile(name);
};

const byPath = <T extends { path: string }>(a: T, b: T): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

interface Candidate {
  path: string;
  absolute: string;
  size: number;
}

/** `./src/` → `src`, `.` → ``; null when the text cannot name a path inside the repository. */
const normalised = (path: string): string | null => {
  let text = path.trim();
  if (text === '' || text.includes('\0') || text.includes('\\') || text.startsWith('/') || /^[A-Za-z]:/.test(text))
    return text === '' ? '' : null;
  while (text.startsWith('./')) text = text.slice(2);
  text = text.replace(/\/+$/, '');
  if (text === '.' || text === '') return '';
  const segments = text.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.toLowerCase() === '.git')) return null;
  return text;
};

export const collectSources = async (root: string, options: CollectSourcesOptions): Promise<CollectedSources> => {
  const limits = { ...defaultSourceLimits, ...options.limits };
  const rootPath = resolve(root);
  const realRoot = await realpath(rootPath);

  // The starting points: the repository, or the named paths once each is known to be safe.
  const starts: Array<{ path: string; directory: boolean }> = [];
  const requested = options.paths ?? [];
  if (requested.length === 0) starts.push({ path: '', directory: true });
  const invalid: string[] = [];
  for (const raw of requested) {
    const path = normalised(raw);
    if (path === null) {
      invalid.push(raw);
      continue;
    }
    const absolute = join(rootPath, path);
    try {
      const stat = await lstat(absolute);
      const real = await realpath(absolute);
      if (stat.isSymbolicLink() || !insideRoot(realRoot, real) || !(stat.isFile() || stat.isDirectory())) invalid.push(raw);
      else starts.push({ path, directory: stat.isDirectory() });
    } catch {
      invalid.push(raw);
    }
  }
  if (invalid.length > 0) throw new InvalidTestPaths(invalid);

  const candidates = new Map<string, Candidate>();
  const omitted = new Map<string, OmittedReason>();
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(rootPath, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !skippedFolders.has(entry.name)) await walk(path);
      } else if (isSourceFile(options.framework, entry.name)) {
        if (entry.isSymbolicLink()) omitted.set(path, 'symlink');
        else if (entry.isFile() && !candidates.has(path)) {
          const absolute = join(rootPath, path);
          candidates.set(path, { path, absolute, size: (await lstat(absolute)).size });
        }
      }
    }
  };
  for (const start of starts) {
    if (start.directory) await walk(start.path);
    else {
      const name = start.path.slice(start.path.lastIndexOf('/') + 1);
      const absolute = join(rootPath, start.path);
      if (isSourceFile(options.framework, name))
        candidates.set(start.path, { path: start.path, absolute, size: (await lstat(absolute)).size });
      else omitted.set(start.path, 'not_a_source');
    }
  }

  const files: TestSource[] = [];
  let totalBytes = 0;
  for (const candidate of [...candidates.values()].sort(byPath)) {
    if (candidate.size > limits.maxFileBytes) {
      omitted.set(candidate.path, 'too_large');
      continue;
    }
    if (files.length >= limits.maxFiles) {
      omitted.set(candidate.path, 'file_limit');
      continue;
    }
    if (totalBytes + candidate.size > limits.maxTotalBytes) {
      omitted.set(candidate.path, 'total_limit');
      continue;
    }
    const bytes = await readFile(candidate.absolute);
    if (bytes.length === 0 || bytes.toString('utf8').trim() === '') omitted.set(candidate.path, 'empty');
    else if (bytes.subarray(0, 8 * 1024).includes(0)) omitted.set(candidate.path, 'binary');
    else {
      files.push({ path: candidate.path, content: bytes.toString('utf8') });
      totalBytes += bytes.length;
    }
  }

  const left = [...omitted].map(([path, reason]) => ({ path, reason })).sort(byPath);
  return { files, omitted: left.slice(0, maxOmittedListed), omittedCount: left.length, totalBytes };
};
