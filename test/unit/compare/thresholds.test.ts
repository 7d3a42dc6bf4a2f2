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

  it('no counted run: the limit alone, as written', () => {
    expect(thresholdFailures(pair('unscored'), { reliability: 0.29 })[0]!.message).toBe(
      'Reliability cannot be measured (no run counted), so it cannot be shown to reach 29%',
    );
  });
});
