import { type LockedPackage, linesOf, uniquePackages } from './types';

const registryVersion = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/;

/**
 * A `packages:` key as name and version: `/name@1.2.3(peer@1)` (v6), `name@1.2.3` (v9),
 * `/@scope/name/1.2.3_peer@1` (v5). Null for git, tarball, file and link entries.
 */
export const parsePnpmKey = (rawKey: string, lockfileMajor: number): { name: string; version: string } | null => {
  let key = rawKey.trim();
  if (/^(['"]).*\1$/.test(key)) key = key.slice(1, -1);
  if (lockfileMajor < 6) {
    if (!key.startsWith('/')) return null;
    const slash = key.lastIndexOf('/');
    const name = key.slice(1, slash);
    const version = key.slice(slash + 1).split('_')[0] ?? '';
    return name && registryVersion.test(version) ? { name, version } : null;
  }
  if (key.startsWith('/')) key = key.slice(1);
  const paren = key.indexOf('(');
  if (paren >= 0) key = key.slice(0, paren);
  const at = key.lastIndexOf('@');
  if (at <= 0) return null;
  const name = key.slice(0, at);
  const version = key.slice(at + 1);
  return registryVersion.test(version) ? { name, version } : null;
};

/** The major `lockfileVersion` (`'9.0'`, `'6.0'`, `5.4`), or 9 when absent. */
export const pnpmLockfileMajor = (text: string): number => {
  const match = /^lockfileVersion:\s*['"]?(\d+)/m.exec(text);
  return match?.[1] ? Number(match[1]) : 9;
};

export interface PnpmPackageEntry {
  key: string;
  line: number;
}

/** The keys of the top-level `packages:` map, with their lines (read line by line: lockfiles are machine-written). */
export const pnpmPackageEntries = (text: string): PnpmPackageEntry[] => {
  const entries: PnpmPackageEntry[] = [];
  let inPackages = false;
  linesOf(text).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    if (!/^\s/.test(line)) {
      inPackages = /^packages:\s*$/.test(line);
      return;
    }
    const key = inPackages ? /^ {2}(\S.*):\s*$/.exec(line)?.[1] : undefined;
    if (key !== undefined) entries.push({ key, line: index + 1 });
  });
  return entries;
};

/** pnpm-lock.yaml, lockfile v5, v6 and v9 (the `packages:` map; `snapshots:` repeats it per peer set). */
export const readPnpmLock = (text: string, manifest: string): LockedPackage[] => {
  const major = pnpmLockfileMajor(text);
  const found: LockedPackage[] = [];
  for (const { key, line } of pnpmPackageEntries(text)) {
    const parsed = parsePnpmKey(key, major);
    if (parsed) found.push({ ecosystem: 'npm', ...parsed, manifest, line });
  }
  return uniquePackages(found);
};
