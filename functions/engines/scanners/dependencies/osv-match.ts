import type { OsvAffected, OsvRange, OsvVulnerability, PackageQuery } from './advisories';
import { normalizePackageName } from './lockfiles/types';
import { compareVersions, sameVersion } from './versions';

/** The `affected` entries of `vulnerability` about the package (same ecosystem, same name — PEP 503-normalised for PyPI). */
export const affectedEntriesFor = (vulnerability: OsvVulnerability, query: Pick<PackageQuery, 'ecosystem' | 'name'>): OsvAffected[] => {
  const name = normalizePackageName(query.ecosystem, query.name);
  return (vulnerability.affected ?? []).filter(
    (entry) => entry.package?.ecosystem === query.ecosystem && normalizePackageName(query.ecosystem, entry.package.name) === name,
  );
};

const isZero = (version: string): boolean => version === '0';

/**
 * Evaluates one SEMVER or ECOSYSTEM range as the OSV schema describes: events sorted by version,
 * `introduced` ≤ v switches on, `fixed` ≤ v or `last_affected` < v switches off. Null when a
 * version cannot be compared (or the range type is not evaluated).
 */
export const rangeAffects = (ecosystem: string, range: OsvRange, version: string): boolean | null => {
  if (range.type !== 'SEMVER' && range.type !== 'ECOSYSTEM') return null;
  const events = (range.events ?? [])
    .map((event) => {
      if (event.introduced !== undefined) return { kind: 'introduced' as const, at: event.introduced };
      if (event.fixed !== undefined) return { kind: 'fixed' as const, at: event.fixed };
      if (event.last_affected !== undefined) return { kind: 'last_affected' as const, at: event.last_affected };
      return null;
    })
    .filter((event) => event !== null);
  const order = (at: string): number | null => (isZero(at) ? -1 : compareVersions(ecosystem, at, version));
  if (events.some((event) => order(event.at) === null)) return null;
  const sorted = [...events].sort((a, b) => {
    if (isZero(a.at) || isZero(b.at)) return (isZero(a.at) ? 0 : 1) - (isZero(b.at) ? 0 : 1);
    return compareVersions(ecosystem, a.at, b.at) ?? 0;
  });
  let affected = false;
  for (const event of sorted) {
    const position = order(event.at) ?? 1; // position of the event relative to the version
    if (event.kind === 'introduced' && position <= 0) affected = true;
    else if (event.kind === 'fixed' && position <= 0) affected = false;
    else if (event.kind === 'last_affected' && position < 0) affected = false;
  }
  return affected;
};

/** Whether one `affected` entry covers `version`: in its explicit `versions`, or inside one of its ranges. */
export const entryAffects = (ecosystem: string, entry: OsvAffected, version: string): boolean =>
  (entry.versions ?? []).some((listed) => sameVersion(ecosystem, listed, version)) ||
  (entry.ranges ?? []).some((range) => rangeAffects(ecosystem, range, version) === true);

/** Whether `vulnerability` affects this package version (withdrawn advisories never do). */
export const vulnerabilityAffects = (vulnerability: OsvVulnerability, query: PackageQuery): boolean =>
  !vulnerability.withdrawn && affectedEntriesFor(vulnerability, query).some((entry) => entryAffects(query.ecosystem, entry, query.version));

/**
 * The lowest `fixed` version above the installed one among the package's ranges, or null (no fix
 * published, or versions that cannot be compared). Go versions get the installed version's leading `v`.
 */
export const fixedVersionAbove = (vulnerability: OsvVulnerability, query: PackageQuery): string | null => {
  let best: string | null = null;
  for (const entry of affectedEntriesFor(vulnerability, query)) {
    for (const range of entry.ranges ?? []) {
      if (range.type !== 'SEMVER' && range.type !== 'ECOSYSTEM') continue;
      for (const event of range.events ?? []) {
        const fixed = event.fixed;
        if (fixed === undefined || (compareVersions(query.ecosystem, fixed, query.version) ?? 0) <= 0) continue;
        if (best === null || (compareVersions(query.ecosystem, fixed, best) ?? 0) < 0) best = fixed;
      }
    }
  }
  if (best !== null && query.ecosystem === 'Go' && query.version.startsWith('v') && !best.startsWith('v')) return `v${best}`;
  return best;
};
