import { describe, expect, it } from 'vitest';
import { thresholdFailures } from '../../../src/compare/thresholds.js';
import { manifest } from './helpers.js';

const pair = (...runs: Parameters<typeof manifest>[0][number]['runs']) =>
  manifest([{ key: 'a', runs }]).results[0]!;

describe('thresholds: reliability', () => {
  it('the value is rounded down and the limit shown as written, so the two never print the same', () => {
    // 2 of 3 runs: 0.667 as stored. Rounded to the nearest it read "67% is below the threshold 67%".
    expect(thresholdFailures(pair(90, 90, 'crash'), { reliability: 0.67 })).toEqual([
      expect.objectContaining({
        metric: 'reliability',
        limit: 0.67,
        message: 'Reliability 66% is below the threshold 67%',
      }),
    ]);
    expect(thresholdFailures(pair(90, 90, 'crash'), { reliability: 0.675 })[0]!.message).toBe(
      'Reliability 66% is below the threshold 67.5%',
    );
    expect(thresholdFailures(pair(90, 'crash'), { reliability: 0.999 })[0]!.message).toBe(
      'Reliability 50% is below the threshold 99.9%',
    );
    expect(thresholdFailures(pair(90, 90, 'crash'), { reliability: 0.6 })).toEqual([]);
  });

  it('the exact share is held to the limit, not the stored 3-decimal value (2/3 is 0.667 rounded up)', () => {
    // 2 of 3 is 0.6666…: short of 0.667 and of 0.6667 although the stored value reads 0.667.
    for (const limit of [0.667, 0.6667])
      expect(thresholdFailures(pair(90, 90, 'crash'), { reliability: limit })).toEqual([
        expect.objectContaining({ metric: 'reliability', value: 0.667, limit }),
      ]);
    // 7 of 9 is 0.7777…, stored as 0.778.
    const sevenOfNine = pair(90, 90, 90, 90, 90, 90, 90, 'crash', 'crash');
    expect(thresholdFailures(sevenOfNine, { reliability: 0.778 })).toHaveLength(1);
    expect(thresholdFailures(sevenOfNine, { reliability: 7 / 9 })).toEqual([]);
    expect(thresholdFailures(pair(90, 90, 'crash'), { reliability: 2 / 3 })).toEqual([]);
  });

  it('a cancelled pair is not blamed: the incomplete run is the reason, as for its score minimums', () => {
    const cancelled = pair('cancelled', 'cancelled');
    expect(cancelled.status).toBe('cancelled');
    expect(thresholdFailures(cancelled, { reliability: 0.5, axis_score: 80 })).toEqual([]);
    // A failed pair (no run completed) is held to it: 0% is a measured reliability.
    expect(thresholdFailures(pair('crash', 'crash'), { reliability: 0.5 })).toHaveLength(1);
  });

  it('no counted run: the limit alone, as written', () => {
    expect(thresholdFailures(pair('unscored'), { reliability: 0.29 })[0]!.message).toBe(
      'Reliability cannot be measured (no run counted), so it cannot be shown to reach 29%',
    );
  });
});
