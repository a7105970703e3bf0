import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Framework } from '../../core/testing/results';

/**
 * Which test framework a checked-out repository uses, from its files alone (nothing is run):
 *
 * 1. Config files: `vitest.config.*` → vitest; `jest.config.*` or a `"jest"` key in package.json → jest.
 * 2. package.json `scripts.test`: mentions vitest → vitest; jest → jest; `node … --test` → node:test.
 * 3. package.json dependencies/devDependencies: vitest → vitest; jest → jest.
 * 4. pytest markers: pytest.ini, `[tool.pytest.ini_options]` in pyproject.toml, `[tool:pytest]` in setup.cfg,
 *    `[pytest]` in tox.ini, conftest.py, or `test_*.py` / `*_test.py` files (searched a few levels deep).
 * 5. Otherwise null. package.json `"type"` plays no part.
 */

const configExtensions = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts', 'json'];
const maxManifestBytes = 1024 * 1024;
const pythonSearchDepth = 3;
const skippedDirectories = new Set([
  'node_modules',
  '.git',
  '.venv',
  'venv',
  'env',
  '__pycache__',
  'dist',
  'build',
  '.tox',
  'site-packages',
]);

const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => null))?.isFile() ?? false;

const readSmall = async (path: string): Promise<string | null> => {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile() || info.size > maxManifestBytes) return null;
  return readFile(path, 'utf8').catch(() => null);
};

const anyFile = async (dir: string, names: readonly string[]): Promise<boolean> => {
  for (const name of names) if (await isFile(join(dir, name))) return true;
  return false;
};

const configNames = (base: string): string[] => configExtensions.map((ext) => `${base}.config.${ext}`);

interface PackageJson {
  scripts?: unknown;
  dependencies?: unknown;
  devDependencies?: unknown;
  jest?: unknown;
}

const readPackageJson = async (dir: string): Promise<PackageJson | null> => {
  const text = await readSmall(join(dir, 'package.json'));
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as PackageJson) : null;
  } catch {
    return null;
  }
};

const hasKey = (record: unknown, key: string): boolean =>
  typeof record === 'object' && record !== null && Object.prototype.hasOwnProperty.call(record, key);

/** `node --test`, also with options before `--test` (`node --experimental-strip-types --test`). */
const nodeTestPattern = /(?:^|[\s;&|(])node(?:\s+--?[\w-]+(?:=\S+)?)*\s+--test\b/;

const fromPackageJson = (pkg: PackageJson): Framework | null => {
  const testScript = hasKey(pkg.scripts, 'test') ? (pkg.scripts as Record<string, unknown>)['test'] : undefined;
  if (typeof testScript === 'string') {
    if (/\bvitest\b/.test(testScript)) return 'vitest';
    if (/\bjest\b/.test(testScript)) return 'jest';
    if (nodeTestPattern.test(testScript)) return 'node:test';
  }
  for (const deps of [pkg.devDependencies, pkg.dependencies]) if (hasKey(deps, 'vitest')) return 'vitest';
  for (const deps of [pkg.devDependencies, pkg.dependencies]) if (hasKey(deps, 'jest')) return 'jest';
  return null;
};

const hasIniSection = async (path: string, section: RegExp): Promise<boolean> => {
  const text = await readSmall(path);
  return text !== null && section.test(text);
};

const isPythonTestFile = (name: string): boolean => /^test_.*\.py$/.test(name) || /^(?!test_).*_test\.py$/.test(name);

const hasPythonTests = async (dir: string, depth: number): Promise<boolean> => {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isFile() && (entry.name === 'conftest.py' || isPythonTestFile(entry.name))) return true;
  }
  if (depth >= pythonSearchDepth) return false;
  for (const entry of entries) {
    if (entry.isDirectory() && !skippedDirectories.has(entry.name) && !entry.name.startsWith('.')) {
      if (await hasPythonTests(join(dir, entry.name), depth + 1)) return true;
    }
  }
  return false;
};

const usesPytest = async (dir: string): Promise<boolean> =>
  (await isFile(join(dir, 'pytest.ini'))) ||
  (await hasIniSection(join(dir, 'pyproject.toml'), /^\s*\[tool\.pytest\.ini_options\]/m)) ||
  (await hasIniSection(join(dir, 'setup.cfg'), /^\s*\[tool:pytest\]/m)) ||
  (await hasIniSection(join(dir, 'tox.ini'), /^\s*\[pytest\]/m)) ||
  (await hasPythonTests(dir, 0));

export const detectFramework = async (dir: string): Promise<Framework | null> => {
  if (await anyFile(dir, configNames('vitest'))) return 'vitest';
  const pkg = await readPackageJson(dir);
  if ((await anyFile(dir, configNames('jest'))) || hasKey(pkg, 'jest')) return 'jest';
  const fromManifest = pkg ? fromPackageJson(pkg) : null;
  if (fromManifest) return fromManifest;
  if (await usesPytest(dir)) return 'pytest';
  return null;
};
