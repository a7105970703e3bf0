import { readCargoLock } from './cargo-lock';
import { readGoSum } from './go-sum';
import { readPackageLock } from './package-lock';
import { readPnpmLock } from './pnpm-lock';
import { readPoetryLock } from './poetry-lock';
import { readRequirementsTxt } from './requirements-txt';
import type { Ecosystem, LockedPackage } from './types';
import { readYarnLock } from './yarn-lock';

export { normalizePackageName, type Ecosystem, type LockedPackage } from './types';

export const lockfileKinds = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'requirements.txt',
  'poetry.lock',
  'go.sum',
  'Cargo.lock',
] as const;
export type LockfileKind = (typeof lockfileKinds)[number];

export const lockfileEcosystem: Record<LockfileKind, Ecosystem> = {
  'package-lock.json': 'npm',
  'npm-shrinkwrap.json': 'npm',
  'yarn.lock': 'npm',
  'pnpm-lock.yaml': 'npm',
  'requirements.txt': 'PyPI',
  'poetry.lock': 'PyPI',
  'go.sum': 'Go',
  'Cargo.lock': 'crates.io',
};

export const lockfileReaders: Record<LockfileKind, (text: string, manifest: string) => LockedPackage[]> = {
  'package-lock.json': readPackageLock,
  'npm-shrinkwrap.json': readPackageLock,
  'yarn.lock': readYarnLock,
  'pnpm-lock.yaml': readPnpmLock,
  'requirements.txt': readRequirementsTxt,
  'poetry.lock': readPoetryLock,
  'go.sum': readGoSum,
  'Cargo.lock': readCargoLock,
};

/**
 * The lockfile kind of a repository-relative path: by exact file name, and for pip by
 * `requirements*.txt` (`requirements-dev.txt`, `requirements.prod.txt`) or any `.txt` inside a
 * `requirements/` folder.
 */
export const lockfileKindOf = (path: string): LockfileKind | null => {
  const segments = path.split('/');
  const name = segments[segments.length - 1] ?? '';
  const exact = lockfileKinds.find((kind) => kind !== 'requirements.txt' && kind === name);
  if (exact) return exact;
  if (/^requirements(?:[-_.][^/]*)?\.txt$/i.test(name)) return 'requirements.txt';
  if (name.toLowerCase().endsWith('.txt') && segments[segments.length - 2]?.toLowerCase() === 'requirements') return 'requirements.txt';
  return null;
};
