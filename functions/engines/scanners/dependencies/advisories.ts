import type { Ecosystem } from './lockfiles/types';

/** The subset of the OSV schema (https://ossf.github.io/osv-schema/) the dependencies scanner reads. */
export interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}

export interface OsvRange {
  /** SEMVER and ECOSYSTEM are evaluated; GIT ranges (commit hashes) are not. */
  type: 'SEMVER' | 'ECOSYSTEM' | 'GIT' | (string & {});
  events: OsvEvent[];
}

export interface OsvSeverity {
  type: 'CVSS_V2' | 'CVSS_V3' | 'CVSS_V4' | (string & {});
  /** A CVSS vector string. */
  score: string;
}

export interface OsvAffected {
  package?: { ecosystem: string; name: string; purl?: string };
  ranges?: OsvRange[];
  versions?: string[];
  severity?: OsvSeverity[];
  ecosystem_specific?: Record<string, unknown>;
  database_specific?: Record<string, unknown>;
}

export interface OsvVulnerability {
  id: string;
  modified?: string;
  published?: string;
  withdrawn?: string;
  aliases?: string[];
  summary?: string;
  details?: string;
  severity?: OsvSeverity[];
  affected?: OsvAffected[];
  references?: Array<{ type?: string; url: string }>;
  /** GitHub advisories put their rating here: `severity` CRITICAL, HIGH, MODERATE or LOW. */
  database_specific?: { severity?: string } & Record<string, unknown>;
}

/** One package version to look up. */
export interface PackageQuery {
  ecosystem: Ecosystem;
  name: string;
  version: string;
}

/** The key of a query's entry in the map an `AdvisorySource` answers (exactly as queried: no normalisation). */
export const advisoryKey = (query: PackageQuery): string => `${query.ecosystem}\u0000${query.name}\u0000${query.version}`;

/**
 * Where vulnerability advisories come from (osv.dev's API, or a local directory of OSV records).
 * Answers, for each queried package version, the vulnerabilities that affect it, by `advisoryKey`
 * (a key may be missing when none do). Throws `AdvisorySourceUnavailable` when the source cannot
 * answer now: the scan then fails instead of reporting a vulnerable tree clean.
 */
export interface AdvisorySource {
  query(packages: readonly PackageQuery[]): Promise<Map<string, OsvVulnerability[]>>;
  /**
   * The ecosystems the source holds any advisory for; absent when it answers for every ecosystem
   * (the OSV API). A lockfile of an ecosystem it knows nothing of was not checked: the scan says so.
   */
  ecosystemsCovered?(): Promise<ReadonlySet<string>>;
}

export class AdvisorySourceUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdvisorySourceUnavailable';
  }
}
