import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CALIBRATION,
  calibrate,
  mapScore,
  percent,
  roundScore,
  validateCalibration,
} from '../../../src/scoring/calibration.js';

/** Independent Φ: 0.5 + ∫₀ᶻ φ(t) dt by Simpson's rule (no shared code with the module under test). */
function phi(z: number): number {
  const n = 10_000;
  const h = z / n;
  const pdf = (t: number) => Math.exp((-t * t) / 2) / Math.sqrt(2 * Math.PI);
  let s = pdf(0) + pdf(z);
  for (let i = 1; i < n; i++) s += (i % 2 === 1 ? 4 : 2) * pdf(i * h);
  return 0.5 + (s * h) / 3;
}
const z = (raw: number) => (Math.log(raw) - Math.log(0.5)) / 0.4;

describe('calibration: the spec formula', () => {
  it('follows 100·Φ((ln raw − ln 0.5)/0.4) everywhere below 1', () => {
    for (const raw of [0.2, 0.3, 0.5, 0.8, 0.95, 0.98, 0.985, 0.99, 0.999])
      expect(calibrate(raw), `raw ${raw}`).toBeCloseTo(100 * phi(z(raw)), 6);
    expect([0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95].map((r) => mapScore(r))).toEqual([
      1, 10, 29, 50, 68, 80, 88, 93, 95,
    ]);
  });

  it('gives 100 only for an exactly perfect raw: 0.99 and 0.999 are 96 (no ramp to 100)', () => {
    expect(mapScore(0.99)).toBe(96);
    expect(mapScore(0.999)).toBe(96);
    expect(mapScore(1 - 1e-9)).toBe(96);
    expect(calibrate(1)).toBe(100);
    // The curve's ceiling below 1: Φ(ln 2 / 0.4).
    expect(calibrate(1 - 1e-12)).toBeCloseTo(100 * phi(Math.log(2) / 0.4), 4);
  });

  it('maps 0.985 to 95: the formula gives 95.497 (the spec table rounds it to 96, see docs)', () => {
    expect(calibrate(0.985)).toBeCloseTo(95.497, 3);
    expect(mapScore(0.985)).toBe(95);
  });
});

describe('calibration: shape', () => {
  it('is monotonic over 0..1', () => {
    let prev = -1;
    const drops: number[] = [];
    for (let i = 0; i <= 100_000; i++) {
      const s = calibrate(i / 100_000);
      if (s < prev) drops.push(i / 100_000);
      prev = s;
    }
    expect(drops).toEqual([]);
  });

  it('clamps out-of-range raw values and rejects non-numbers', () => {
    expect(calibrate(-0.5)).toBe(0);
    expect(calibrate(0)).toBe(0);
    expect(calibrate(1.5)).toBe(100);
    expect(() => calibrate(Number.NaN)).toThrow(/finite/);
  });

  it('accepts other parameters and rejects bad ones', () => {
    const p = { median: 0.6, sigma: 0.5 };
    expect(calibrate(0.6, p)).toBeCloseTo(50, 9);
    expect(calibrate(1, p)).toBe(100);
    expect(() => validateCalibration({ ...DEFAULT_CALIBRATION, median: 0 })).toThrow('calibration.median');
    expect(() => validateCalibration({ ...DEFAULT_CALIBRATION, sigma: -1 })).toThrow('calibration.sigma');
  });
});

describe('rounding', () => {
  it('rounds to the nearest integer, halves down (a tie never flatters), within 0..100', () => {
    expect([roundScore(77.5), roundScore(77.51), roundScore(77.49), roundScore(-3), roundScore(101)]).toEqual(
      [77, 78, 77, 0, 100],
    );
    expect([roundScore(99.5), roundScore(0.5), roundScore(100.4)]).toEqual([99, 0, 100]);
    // 0.755·100 is 75.50000000000001 in floating point: still a half.
    expect(percent(0.755)).toBe(75);
    expect(percent(0.7551)).toBe(76);
    expect(percent(1 / 6)).toBe(17);
    expect(() => roundScore(Number.NaN)).toThrow();
  });
});
