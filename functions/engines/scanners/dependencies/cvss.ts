import type { Severity } from '../../../core/security/scanner';

/**
 * CVSS base scores computed from vector strings.
 *
 * - v3.0 and v3.1 (`CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H`): the specification's base
 *   equations, with v3.1's Roundup (floating-point safe) and v3.0's plain ceiling to one decimal.
 *   Temporal and environmental metrics in the vector are accepted and ignored.
 * - v2 (`AV:N/AC:L/Au:N/C:P/I:P/A:P`): the v2 base equation.
 * - v4 is not scored: its score comes from a lookup table of expert-rated macro vectors rather
 *   than an equation. Callers fall back to another rating (see `severityOf`).
 *
 * Returns null for a vector that is not valid (a base metric missing, unknown or repeated).
 */

const v3Weights: Record<string, Record<string, number>> = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  PR: { N: 0.85, L: 0.62, H: 0.27 },
  UI: { N: 0.85, R: 0.62 },
  S: { U: 0, C: 0 },
  C: { H: 0.56, L: 0.22, N: 0 },
  I: { H: 0.56, L: 0.22, N: 0 },
  A: { H: 0.56, L: 0.22, N: 0 },
};

/** Metric → value, refusing repeated metrics; null when malformed. */
const metricsOf = (parts: string[]): Map<string, string> | null => {
  const metrics = new Map<string, string>();
  for (const part of parts) {
    const [metric, value, extra] = part.split(':');
    if (!metric || !value || extra !== undefined || metrics.has(metric)) return null;
    metrics.set(metric, value);
  }
  return metrics;
};

/** CVSS v3.1 Roundup: the smallest number with one decimal ≥ the input, computed on integers. */
const roundUp31 = (value: number): number => {
  const integer = Math.round(value * 100000);
  return integer % 10000 === 0 ? integer / 100000 : (Math.floor(integer / 10000) + 1) / 10;
};

const roundUp30 = (value: number): number => Math.ceil(value * 10) / 10;

export const cvss3BaseScore = (vector: string): number | null => {
  const [prefix, ...parts] = vector.trim().split('/');
  const version = /^CVSS:(3\.[01])$/.exec(prefix ?? '')?.[1];
  if (!version) return null;
  const metrics = metricsOf(parts);
  if (!metrics) return null;
  const weight = (metric: string): number | null => {
    const value = metrics.get(metric);
    return value === undefined ? null : (v3Weights[metric]?.[value] ?? null);
  };
  const [av, ac, pr, ui, scope, c, i, a] = ['AV', 'AC', 'PR', 'UI', 'S', 'C', 'I', 'A'].map(weight);
  if (av == null || ac == null || pr == null || ui == null || scope == null || c == null || i == null || a == null) return null;
  const changed = metrics.get('S') === 'C';
  // Privileges Required weighs more when the scope changes.
  const privileges = changed ? (({ N: 0.85, L: 0.68, H: 0.5 } as Record<string, number>)[metrics.get('PR') ?? ''] ?? pr) : pr;
  const iss = 1 - (1 - c) * (1 - i) * (1 - a);
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * Math.pow(iss - 0.02, 15) : 6.42 * iss;
  const exploitability = 8.22 * av * ac * privileges * ui;
  if (impact <= 0) return 0;
  const roundUp = version === '3.1' ? roundUp31 : roundUp30;
  return changed ? roundUp(Math.min(1.08 * (impact + exploitability), 10)) : roundUp(Math.min(impact + exploitability, 10));
};

const v2Weights: Record<string, Record<string, number>> = {
  AV: { L: 0.395, A: 0.646, N: 1 },
  AC: { H: 0.35, M: 0.61, L: 0.71 },
  Au: { M: 0.45, S: 0.56, N: 0.704 },
  C: { N: 0, P: 0.275, C: 0.66 },
  I: { N: 0, P: 0.275, C: 0.66 },
  A: { N: 0, P: 0.275, C: 0.66 },
};

export const cvss2BaseScore = (vector: string): number | null => {
  const text = vector
    .trim()
    .replace(/^\(|\)$/g, '')
    .replace(/^CVSS:2\.0\//, '');
  const metrics = metricsOf(text.split('/'));
  if (!metrics) return null;
  const values = ['AV', 'AC', 'Au', 'C', 'I', 'A'].map((metric) => v2Weights[metric]?.[metrics.get(metric) ?? '']);
  const [av, ac, au, c, i, a] = values;
  if (av === undefined || ac === undefined || au === undefined || c === undefined || i === undefined || a === undefined) return null;
  const impact = 10.41 * (1 - (1 - c) * (1 - i) * (1 - a));
  const exploitability = 20 * av * ac * au;
  const score = (0.6 * impact + 0.4 * exploitability - 1.5) * (impact === 0 ? 0 : 1.176);
  return Math.round(score * 10) / 10;
};

/** ≥ 9 critical, ≥ 7 high, ≥ 4 medium, > 0 low, 0 info. */
export const severityOfScore = (score: number): Severity => {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'info';
};
