/**
 * Welch's t-test and Cohen's d. Reference values were computed independently with SciPy 1.17.1:
 *   scipy.stats.ttest_ind(b, a, equal_var=False)   → t, df, p (two-sided)
 *   d = (mean(b) − mean(a)) / sqrt(((na−1)·var(a, ddof=1) + (nb−1)·var(b, ddof=1)) / (na+nb−2))
 * and hard-coded here to 3 decimals.
 */
import { describe, expect, it } from 'vitest';
import { significance, stdDev, welchTest } from '../../../src/compare/stats.js';

const CASES: [string, number[], number[], { t: number; df: number; p: number; d: number }][] = [
  ['small, separated', [85, 87, 90], [72, 74, 76], { t: -7.184, df: 3.806, p: 0.002, d: -5.866 }],
  [
    'unequal sizes and spreads',
    [88, 90, 91, 87, 89],
    [70, 80, 75],
    { t: -4.71, df: 2.243, p: 0.034, d: -4.427 },
  ],
  ['durations', [61, 62, 63], [90, 91, 92.5, 90.5], { t: 36.682, df: 4.655, p: 0.0, d: 27.65 }],
  [
    'noisy, overlapping',
    [80, 95, 70, 88, 77, 91, 84],
    [78, 90, 73, 86, 79, 88, 81, 83],
    { t: -0.346, df: 10.133, p: 0.737, d: -0.184 },
  ],
  [
    'tokens, not significant',
    [150000, 151000, 149000],
    [152000, 148000, 156000],
    { t: 0.84, df: 2.249, p: 0.481, d: 0.686 },
  ],
];

describe('welchTest agrees with SciPy to 3 decimals', () => {
  for (const [name, a, b, ref] of CASES)
    it(name, () => {
      const r = welchTest(a, b);
      expect(r.t).toBeCloseTo(ref.t, 3);
      expect(r.df).toBeCloseTo(ref.df, 3);
      expect(r.p).toBeCloseTo(ref.p, 3);
      expect(r.d).toBeCloseTo(ref.d, 3);
    });

  it('is antisymmetric in its samples', () => {
    const [, a, b] = CASES[1]!;
    const x = welchTest(a, b);
    const y = welchTest(b, a);
    expect(y.t).toBeCloseTo(-x.t, 12);
    expect(y.d).toBeCloseTo(-x.d, 12);
    expect(y.p).toBeCloseTo(x.p, 12);
  });

  it('constant samples: equal → p 1, different → p 0; fewer than 2 values is an error', () => {
    expect(welchTest([5, 5], [5, 5, 5])).toEqual({ t: 0, df: 3, p: 1, d: 0 });
    expect(welchTest([5, 5], [4, 4])).toMatchObject({ t: -Infinity, p: 0, d: -Infinity });
    expect(() => welchTest([1], [1, 2])).toThrow('sample a needs at least 2 values, found 1');
    expect(() => welchTest([1, 2], [1, Number.NaN])).toThrow(
      'sample b holds a value that is not a finite number',
    );
  });
});

/** n values with mean 0 and sample standard deviation exactly 1. */
function unitSample(n: number): number[] {
  const raw = Array.from({ length: n }, (_, i) => i - (n - 1) / 2);
  const sd = stdDev(raw);
  return raw.map((v) => v / sd);
}
const shifted = (n: number, by: number) => unitSample(n).map((v) => v + by);

describe("the spec's sensitivity claims (two-sided, p < 0.05, equal spread σ = 1 a side)", () => {
  // SciPy: t.ppf(0.975, 2n − 2) · sqrt(2/n) = 2.267 (n 3), 0.9993 (n 9), 0.6580 (n 19, the most runs).
  it('3 runs a side need about 2.27σ of separation (the band needs 2.00σ)', () => {
    expect(welchTest(unitSample(3), shifted(3, 2.27)).p).toBeLessThan(0.05);
    expect(welchTest(unitSample(3), shifted(3, 2.26)).p).toBeGreaterThan(0.05);
    // so at 2σ the band flags a move the test cannot yet separate
    expect(welchTest(unitSample(3), shifted(3, 2.0)).p).toBeGreaterThan(0.05);
  });

  it('9 runs a side detect a 1.00σ move', () => {
    expect(welchTest(unitSample(9), shifted(9, 1.0)).p).toBeLessThan(0.05);
    expect(welchTest(unitSample(9), shifted(9, 0.99)).p).toBeGreaterThan(0.05);
  });

  it('19 runs a side (the most settings.runs allows) detect 0.66σ', () => {
    expect(welchTest(unitSample(19), shifted(19, 0.66)).p).toBeLessThan(0.05);
    expect(welchTest(unitSample(19), shifted(19, 0.65)).p).toBeGreaterThan(0.05);
  });
});

describe('significance reads the test for people, direction-aware', () => {
  it('a score that drops is a regression; a duration that drops is an improvement', () => {
    const drop = welchTest([87, 88, 86], [74, 75, 73]);
    expect(significance(drop, 'higher')).toMatchObject({
      marker: '●',
      verdict: 'regression',
      label: 'large regression',
    });
    expect(significance(drop, 'lower')).toMatchObject({
      marker: '●',
      verdict: 'improvement',
      label: 'large improvement',
    });
  });

  it('○ when the test cannot separate the samples', () => {
    const [, a, b] = CASES[3]!;
    expect(significance(welchTest(a, b), 'higher')).toMatchObject({
      marker: '○',
      verdict: null,
      label: 'not significant',
      level: 'none',
    });
  });

  it('◐ when significant with an effect under 0.8', () => {
    // Large samples, a small but consistent shift: p < 0.05 with |d| < 0.8.
    const a = unitSample(19).map((v) => v * 10 + 80);
    const b = a.map((v) => v + 7);
    const r = welchTest(a, b);
    expect(r.p).toBeLessThan(0.05);
    expect(Math.abs(r.d)).toBeLessThan(0.8);
    expect(significance(r, 'higher')).toMatchObject({
      marker: '◐',
      verdict: 'improvement',
      label: 'improvement',
    });
  });
});
