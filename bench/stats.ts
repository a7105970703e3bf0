/** Small statistics helpers shared by the bench sections. */

/** Nearest-rank percentile (p in 0..100) of a sample; NaN for an empty sample. */
export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
};

/** The middle value; the mean of the two middle values for an even count. */
export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export const round = (value: number, digits = 1): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
const binomialHalfCdf = (n: number, k: number): number => {
  let term = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k; i += 1) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
};

export interface MedianInterval {
  low: number;
  high: number;
  /** The interval's exact coverage: at least the asked confidence where the sample allows it. */
  confidence: number;
}

/**
 * A distribution-free confidence interval for the median: the order statistics x(k) and
 * x(n−k+1), k the largest rank whose tails, each a Binomial(n, ½) probability, leave at least the
 * asked coverage. No assumption on the shape of the noise; with fewer than 6 values the widest
 * interval (minimum to maximum) is all there is, and its coverage says how little that is.
 */
export const medianInterval = (values: readonly number[], confidence = 0.95): MedianInterval => {
  const n = values.length;
  if (n === 0) return { low: Number.NaN, high: Number.NaN, confidence: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  let k = 1;
  while (k + 1 <= Math.ceil(n / 2) && 1 - 2 * binomialHalfCdf(n, k) >= confidence) k += 1;
  return { low: sorted[k - 1] as number, high: sorted[n - k] as number, confidence: 1 - 2 * binomialHalfCdf(n, k - 1) };
};
