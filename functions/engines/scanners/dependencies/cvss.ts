import * as calculatorModule from 'ae-cvss-calculator';
import type { Severity } from '../../../core/security/scanner';

// A CommonJS bundle whose names Node's ESM loader cannot see: there they are on its default export
// (the local runtime), elsewhere on the namespace itself (esbuild's Lambda bundles, jest).
const { Cvss2, Cvss3P0, Cvss3P1, Cvss4P0 } = (calculatorModule as { default?: typeof calculatorModule }).default ?? calculatorModule;

/**
 * CVSS base scores computed from vector strings by `ae-cvss-calculator`: v2
 * (`AV:N/AC:L/Au:N/C:P/I:P/A:P`), v3.0 and v3.1 (`CVSS:3.1/AV:N/…`, temporal and environmental
 * metrics accepted and left out of the base score) and v4.0 (`CVSS:4.0/AV:N/AC:L/AT:N/…`, scored
 * from the specification's macro-vector table).
 *
 * Returns null for a vector that is not valid: another version's prefix, a base metric missing,
 * unknown or repeated, an unknown metric.
 */

/** `baseMetricsOnly` is v4's CVSS-B score, without threat or environmental metrics (like the v3 base score). */
type Calculator = { isBaseFullyDefined(): boolean; calculateScores(): { base?: number; baseMetricsOnly?: number } };

const hasRepeatedMetric = (vector: string): boolean => {
  const metrics = vector
    .split('/')
    .filter((part) => !part.startsWith('CVSS:'))
    .map((part) => part.split(':')[0]);
  return new Set(metrics).size !== metrics.length;
};

const baseScore = (vector: string, prefix: RegExp, make: (vector: string) => Calculator): number | null => {
  if (!prefix.test(vector) || hasRepeatedMetric(vector)) return null;
  try {
    const calculator = make(vector);
    const scores = calculator.calculateScores();
    const base = scores.baseMetricsOnly ?? scores.base;
    return calculator.isBaseFullyDefined() && typeof base === 'number' ? base : null;
  } catch {
    return null;
  }
};

export const cvss4BaseScore = (vector: string): number | null => baseScore(vector, /^CVSS:4\.0\//, (text) => new Cvss4P0(text));

export const cvss3BaseScore = (vector: string): number | null =>
  vector.startsWith('CVSS:3.0/')
    ? baseScore(vector, /^CVSS:3\.0\//, (text) => new Cvss3P0(text))
    : baseScore(vector, /^CVSS:3\.1\//, (text) => new Cvss3P1(text));

/** v2 vectors come bare, in parentheses (NVD's old form) or with a `CVSS:2.0/` prefix. */
export const cvss2BaseScore = (vector: string): number | null =>
  baseScore(
    vector
      .trim()
      .replace(/^\(|\)$/g, '')
      .replace(/^CVSS:2\.0\//, ''),
    /^AV:/,
    (text) => new Cvss2(text),
  );

/** ≥ 9 critical, ≥ 7 high, ≥ 4 medium, > 0 low, 0 info. */
export const severityOfScore = (score: number): Severity => {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'info';
};
