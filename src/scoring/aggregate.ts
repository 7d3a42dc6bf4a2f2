/**
 * Severity-weighted averaging of per-interaction values (docs/scoring.md#severity-weighting).
 *
 * Each value v in 0..1 counts with weight 1 + S·(1 − v)², S = SEVERITY (4): a perfect value weighs 1,
 * a total failure weighs 5, small imperfections (0.9 → 1.04) barely more than 1. So one failure among
 * many successes still shows, while a run of uniformly good values keeps its plain mean.
 *
 *   19 × 1.0 and 1 × 0.0:  (19·1·1 + 1·5·0) / (19·1 + 1·5) = 19/24 = 0.792   (plain mean 0.95)
 */

export const SEVERITY = 4;

export function severityWeight(value: number, severity = SEVERITY): number {
  const miss = 1 - value;
  return 1 + severity * miss * miss;
}

/** Severity-weighted mean of 0..1 values; null for no values. Throws on values outside 0..1. */
export function severityWeightedMean(values: readonly number[], severity = SEVERITY): number | null {
  if (!Number.isFinite(severity) || severity < 0)
    throw new RangeError(`severityWeightedMean: severity must be a number ≥ 0, found ${severity}`);
  if (values.length === 0) return null;
  let sum = 0;
  let weights = 0;
  for (const v of values) {
    if (!Number.isFinite(v) || v < 0 || v > 1)
      throw new RangeError(`severityWeightedMean: values must be between 0 and 1, found ${v}`);
    const w = severityWeight(v, severity);
    sum += w * v;
    weights += w;
  }
  return sum / weights;
}

/** Weighted mean of the entries whose value is not null, weights renormalised; null when none remain. */
export function weightedMean(
  entries: ReadonlyArray<{ value: number | null; weight: number }>,
): number | null {
  let sum = 0;
  let weights = 0;
  for (const { value, weight } of entries) {
    if (value === null || weight <= 0) continue;
    sum += value * weight;
    weights += weight;
  }
  return weights > 0 ? sum / weights : null;
}
