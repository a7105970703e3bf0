import type { Severity } from '../../../core/security/scanner';
import type { OsvAffected, OsvSeverity, OsvVulnerability } from './advisories';
import { cvss2BaseScore, cvss3BaseScore, cvss4BaseScore, severityOfScore } from './cvss';

export interface AdvisorySeverity {
  severity: Severity;
  /** Where the rating comes from. */
  source: 'cvss_v4' | 'cvss_v3' | 'database_specific' | 'cvss_v2' | 'default';
  /** The CVSS base score computed, when the rating comes from a vector. */
  cvss_score: number | null;
  cvss_vector: string | null;
}

const databaseSeverities: Record<string, Severity> = {
  CRITICAL: 'critical',
  HIGH: 'high',
  MODERATE: 'medium',
  MEDIUM: 'medium',
  LOW: 'low',
};

const highestScore = (ratings: OsvSeverity[], type: string, score: (vector: string) => number | null) => {
  let best: { score: number; vector: string } | null = null;
  for (const rating of ratings) {
    if (rating.type !== type || typeof rating.score !== 'string') continue;
    const value = score(rating.score);
    if (value !== null && (best === null || value > best.score)) best = { score: value, vector: rating.score };
  }
  return best;
};

/**
 * The severity of a vulnerability for a package: the highest base score of the newest CVSS
 * version among the advisory's and the package's `severity` vectors (v4.0, else v3.x); else the
 * database's own rating (`database_specific.severity`, GitHub's CRITICAL/HIGH/MODERATE/LOW — the
 * advisory's, then the package's); else a CVSS v2 score; else medium.
 */
export const severityOf = (vulnerability: OsvVulnerability, entries: OsvAffected[] = []): AdvisorySeverity => {
  const ratings = [...(vulnerability.severity ?? []), ...entries.flatMap((entry) => entry.severity ?? [])];
  const v4 = highestScore(ratings, 'CVSS_V4', cvss4BaseScore);
  if (v4) return { severity: severityOfScore(v4.score), source: 'cvss_v4', cvss_score: v4.score, cvss_vector: v4.vector };
  const v3 = highestScore(ratings, 'CVSS_V3', cvss3BaseScore);
  if (v3) return { severity: severityOfScore(v3.score), source: 'cvss_v3', cvss_score: v3.score, cvss_vector: v3.vector };
  for (const rating of [vulnerability.database_specific?.severity, ...entries.map((entry) => entry.database_specific?.severity)]) {
    const severity = typeof rating === 'string' ? databaseSeverities[rating.toUpperCase()] : undefined;
    if (severity) return { severity, source: 'database_specific', cvss_score: null, cvss_vector: null };
  }
  const v2 = highestScore(ratings, 'CVSS_V2', cvss2BaseScore);
  if (v2) return { severity: severityOfScore(v2.score), source: 'cvss_v2', cvss_score: v2.score, cvss_vector: v2.vector };
  return { severity: 'medium', source: 'default', cvss_score: null, cvss_vector: null };
};
