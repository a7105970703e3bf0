import { medianInterval } from '../../../bench/stats';

const oneTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe("the bench's interval for a median of paired ratios", () => {
  it.each([
    // n, the ranks of the interval's ends (1-based), its exact coverage: the sign test's order statistics.
    [6, 1, 6, 0.96875],
    [9, 2, 8, 0.9609375],
    [15, 4, 12, 0.96484375],
    [30, 10, 21, 0.9572],
  ])('with %i values runs from rank %i to rank %i of the sorted values, covering %f', (n, low, high, coverage) => {
    const interval = medianInterval(oneTo(n).reverse());
    expect(interval.low).toBe(low);
    expect(interval.high).toBe(high);
    expect(interval.confidence).toBeCloseTo(coverage, 4);
    expect(interval.confidence).toBeGreaterThanOrEqual(0.95);
  });

  it('says how little it covers when the sample is too small for 95 %', () => {
    expect(medianInterval(oneTo(5))).toEqual({ low: 1, high: 5, confidence: 0.9375 });
    expect(medianInterval([1.2])).toEqual({ low: 1.2, high: 1.2, confidence: 0 });
  });

  it('holds the median and narrows as the values agree', () => {
    const spread = [1.02, 1.31, 1.05, 1.07, 0.91, 1.06, 1.04, 1.08, 1.5, 1.03, 1.06, 1.05, 1.09, 1.07, 0.98];
    const interval = medianInterval(spread);
    expect(interval.low).toBeLessThanOrEqual(1.06);
    expect(interval.high).toBeGreaterThanOrEqual(1.06);
    expect(interval.low).toBe(1.03);
    expect(interval.high).toBe(1.08);
  });

  it('is empty for no values', () => {
    expect(medianInterval([])).toEqual({ low: Number.NaN, high: Number.NaN, confidence: 0 });
  });
});
