import { describe, expect, it } from 'vitest';
import {
  SEVERITY,
  severityWeight,
  severityWeightedMean,
  weightedMean,
} from '../../../src/scoring/aggregate.js';
import { mapScore } from '../../../src/scoring/calibration.js';

describe('severity weighting', () => {
  it('weighs a value v by 1 + 4·(1 − v)²', () => {
    expect(SEVERITY).toBe(4);
    expect(severityWeight(1)).toBe(1);
    expect(severityWeight(0)).toBe(1 + 4 * 1);
    expect(severityWeight(0.5)).toBe(1 + 4 * 0.25);
    expect(severityWeight(0.9)).toBeCloseTo(1 + 4 * 0.01, 12);
  });

  it('does not let 19 perfect interactions hide one total failure', () => {
    const values = [...Array<number>(19).fill(1), 0];
    const plain = 19 / 20;
    const weighted = severityWeightedMean(values)!;
    // (19·1·1 + 1·5·0) / (19·1 + 1·5)
    expect(weighted).toBeCloseTo(19 / 24, 12);
    expect(weighted).toBeLessThan(plain - 0.15);
    // After calibration: 0.95 → 95 (top band) but 0.79 → 87.
    expect(mapScore(plain)).toBe(95);
    expect(mapScore(weighted)).toBe(87);
  });

  it('keeps the plain mean when all values are equal', () => {
    expect(severityWeightedMean([0.9, 0.9, 0.9])).toBeCloseTo(0.9, 12);
    expect(severityWeightedMean([1])).toBe(1);
  });

  it('weighs partial values by their severity', () => {
    // 0.5 weighs 1 + 4·0.25 = 2, 1 weighs 1: (0.5·2 + 1·1) / (2 + 1)
    expect(severityWeightedMean([0.5, 1])).toBeCloseTo((0.5 * 2 + 1) / 3, 12);
    // speed 1, 0.9: (1·1 + 0.9·1.04) / (1 + 1.04)
    expect(severityWeightedMean([1, 0.9])).toBeCloseTo((1 + 0.9 * 1.04) / 2.04, 12);
  });

  it('returns null for no values and rejects values outside 0..1', () => {
    expect(severityWeightedMean([])).toBeNull();
    expect(() => severityWeightedMean([1.2])).toThrow(/between 0 and 1/);
    expect(() => severityWeightedMean([Number.NaN])).toThrow();
    expect(() => severityWeightedMean([1], -1)).toThrow(/severity/);
  });
});

describe('weightedMean', () => {
  it('renormalises over the entries that have a value', () => {
    expect(
      weightedMean([
        { value: 0.5, weight: 0.7 },
        { value: null, weight: 0.3 },
      ]),
    ).toBeCloseTo(0.5, 12);
    expect(
      weightedMean([
        { value: 1, weight: 0.7 },
        { value: 0.4, weight: 0.3 },
      ]),
    ).toBeCloseTo(0.7 + 0.12, 12);
    expect(weightedMean([{ value: null, weight: 1 }])).toBeNull();
  });
});
