import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../src/util/number.js';

describe('formatCount', () => {
  it('prints exactly what en-US Intl.NumberFormat prints, integers grouped by hand', () => {
    const intl = new Intl.NumberFormat('en-US');
    const values = [0, -0, 7, 12, 123, 999, 1000, 1234, 12_345, 123_456, 1_234_567, 987_654_321];
    const more = [-1, -999, -1000, -1_234_567, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    const others = [1.5, 1234.5678, -0.25, 2 ** 60, 1e21, NaN, Infinity, -Infinity];
    for (const n of [...values, ...more, ...others]) expect(formatCount(n), String(n)).toBe(intl.format(n));
  });
});
