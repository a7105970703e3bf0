import { parseSyml } from '@yarnpkg/parsers';
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

/** The 1-based line of each key of the top-level `packages:` map (keys as written, quotes removed). */
const packageKeyLines = (text: string): Map<string, number> => {
  const lines = new Map<string, number>();
  let inPackages = false;
  linesOf(text).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    if (!/^\s/.test(line)) {
      inPackages = /^packages:\s*$/.test(line);
      return;
    }
    const key = inPackages ? /^ {2}(\S.*?):(?:\s|$)/.exec(line)?.[1] : undefined;
    if (key !== undefined) lines.set(key.replace(/^(['"])(.*)\1$/, '$2'), index + 1);
  });
  return lines;
};

/**
 * pnpm-lock.yaml, lockfile v5, v6 and v9, read as YAML by `@yarnpkg/parsers` (its js-yaml): the
 * `packages:` map (`snapshots:` repeats it per peer set), each key's line as written.
 */
export const readPnpmLock = (text: string, manifest: string): LockedPackage[] => {
  const document = parseSyml(text) as { lockfileVersion?: unknown; packages?: unknown };
  const major = Number.parseInt(String(document.lockfileVersion ?? '9'), 10) || 9;
  const packages = typeof document.packages === 'object' && document.packages !== null ? Object.keys(document.packages) : [];
  const lines = packageKeyLines(text);
  const found: LockedPackage[] = [];
  for (const key of packages) {
    const parsed = parsePnpmKey(key, major);
    if (parsed) found.push({ ecosystem: 'npm', ...parsed, manifest, line: lines.get(key) ?? 1 });
  }
  return uniquePackages(found);
};
