import { describe, expect, test } from 'vitest';
import { resolveWeights } from '../../../src/config/weights.js';

const where = (n: number) => Array.from({ length: n }, (_, i) => `judge[${i}]`);
const rounded = (r: ReturnType<typeof resolveWeights>) =>
  r.ok ? r.weights.map((w) => Math.round(w * 10000) / 10000) : r.message;

describe('criterion weights', () => {
  test('no weights: equal shares', () => {
    expect(rounded(resolveWeights([undefined, undefined, undefined, undefined], where(4)))).toEqual([
      0.25, 0.25, 0.25, 0.25,
    ]);
  });
  test('explicit weights are kept, the rest is shared', () => {
    expect(rounded(resolveWeights([0.5, undefined, undefined], where(3)))).toEqual([0.5, 0.25, 0.25]);
    expect(rounded(resolveWeights([0.1, 0.3, undefined, undefined, undefined], where(5)))).toEqual([
      0.1, 0.3, 0.2, 0.2, 0.2,
    ]);
  });
  test('explicit weights summing to 1 are kept as they are', () => {
    const r = resolveWeights([0.7, 0.3], where(2));
    expect(r).toEqual({ ok: true, weights: [0.7, 0.3], normalized: false });
  });
  test('explicit weights below 1 with nothing unweighted are scaled up proportionally', () => {
    const r = resolveWeights([0.2, 0.2, 0.4], where(3));
    expect(r.ok && r.normalized).toBe(true);
    expect(rounded(r)).toEqual([0.25, 0.25, 0.5]);
  });
  test('a sum within the 0.001 tolerance is fine', () => {
    expect(rounded(resolveWeights([0.3333, 0.3333, 0.3334], where(3)))).toEqual([0.3333, 0.3333, 0.3334]);
    expect(resolveWeights([0.5, 0.5005], where(2)).ok).toBe(true);
  });
  test('explicit weights over 1 are an error', () => {
    expect(rounded(resolveWeights([0.6, 0.6], where(2)))).toBe(
      'expected criterion weights to sum to at most 1, found 1.2 (judge[0] 0.6 + judge[1] 0.6)',
    );
  });
  test('weights summing to 1 leave nothing for unweighted criteria', () => {
    expect(rounded(resolveWeights([0.5, 0.5, undefined], where(3)))).toBe(
      'explicit weights already sum to 1, leaving nothing for judge[2]; give every criterion a weight or lower the explicit ones',
    );
  });
  test('all zero', () => {
    expect(rounded(resolveWeights([0, 0], where(2)))).toBe(
      'expected at least one criterion weight above 0, found all weights 0',
    );
  });
  test('zero-weight criteria next to unweighted ones stay 0', () => {
    expect(rounded(resolveWeights([0, undefined], where(2)))).toEqual([0, 1]);
  });
  test('nothing at all', () => {
    expect(rounded(resolveWeights([], []))).toBe(
      'expected at least one criterion (a judge check or a deterministic check), found none',
    );
  });
});
