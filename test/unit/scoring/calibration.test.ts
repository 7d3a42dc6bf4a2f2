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
const smoothstep = (t: number) => t * t * (3 - 2 * t);
/** The gap the log-normal curve leaves at raw 1: 1 − Φ(ln 2 / 0.4) ≈ 0.0416. */
const gap = 1 - phi(Math.log(2) / 0.4);

describe('calibration: the spec table', () => {
  it.each([
    [0.5, 50],
    [0.8, 88],
    [0.985, 96],
  ])('raw %d → %d', (raw, score) => {
    expect(mapScore(raw)).toBe(score);
  });

  it('follows 100·Φ((ln raw − ln 0.5)/0.4) below the top band', () => {
    expect(calibrate(0.5)).toBeCloseTo(100 * 0.5, 9);
    expect(calibrate(0.8)).toBeCloseTo(100 * phi(Math.log(0.8 / 0.5) / 0.4), 6);
    expect(calibrate(0.3)).toBeCloseTo(100 * phi(z(0.3)), 6);
    expect(calibrate(0.2)).toBeCloseTo(100 * phi(z(0.2)), 6);
    expect([0.2, 0.3, 0.4, 0.6, 0.7, 0.9, 0.95].map((r) => mapScore(r))).toEqual([1, 10, 29, 68, 80, 93, 95]);
  });

  it('closes the gap to 100 over the top band [0.98, 1] with a smoothstep', () => {
    // 0.985: t = (0.985 − 0.98)/0.02 = 0.25, smoothstep = 0.25²·(3 − 0.5) = 0.15625
    expect(calibrate(0.985)).toBeCloseTo(100 * (phi(z(0.985)) + gap * 0.15625), 6);
    // 0.99: t = 0.5 → smoothstep 0.5
    expect(calibrate(0.99)).toBeCloseTo(100 * (phi(z(0.99)) + gap * 0.5), 6);
    expect(calibrate(0.995)).toBeCloseTo(100 * (phi(z(0.995)) + gap * smoothstep(0.75)), 6);
    expect(calibrate(0.98)).toBeCloseTo(100 * phi(z(0.98)), 6);
    expect(calibrate(1)).toBe(100);
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

  it('is continuous at the top end: no jump from 96 to 100 (upstream §14.9)', () => {
    expect(calibrate(1 - 1e-9)).toBeCloseTo(100, 3);
    expect(mapScore(0.999)).toBeGreaterThanOrEqual(99);
    // Largest step between neighbouring raw values 1e-5 apart over the top band stays tiny.
    let maxStep = 0;
    for (let r = 0.97; r < 1; r += 1e-5)
      maxStep = Math.max(maxStep, calibrate(Math.min(1, r + 1e-5)) - calibrate(r));
    expect(maxStep).toBeLessThan(0.01);
    // Continuous where the band starts, too.
    expect(calibrate(0.98 + 1e-9) - calibrate(0.98 - 1e-9)).toBeLessThan(1e-5);
  });

  it('clamps out-of-range raw values and rejects non-numbers', () => {
    expect(calibrate(-0.5)).toBe(0);
    expect(calibrate(0)).toBe(0);
    expect(calibrate(1.5)).toBe(100);
    expect(() => calibrate(Number.NaN)).toThrow(/finite/);
  });

  it('accepts other parameters and rejects bad ones', () => {
    const p = { median: 0.6, sigma: 0.5, topBandStart: 0.95 };
    expect(calibrate(0.6, p)).toBeCloseTo(50, 9);
    expect(calibrate(1, p)).toBe(100);
    expect(() => validateCalibration({ ...DEFAULT_CALIBRATION, median: 0 })).toThrow('calibration.median');
    expect(() => validateCalibration({ ...DEFAULT_CALIBRATION, sigma: -1 })).toThrow('calibration.sigma');
    expect(() => calibrate(0.5, { ...DEFAULT_CALIBRATION, topBandStart: 0.4 })).toThrow(
      'calibration.topBandStart',
    );
  });
});

describe('rounding', () => {
  it('rounds to the nearest integer, halves up, within 0..100', () => {
    expect([roundScore(77.5), roundScore(77.49), roundScore(-3), roundScore(101)]).toEqual([78, 77, 0, 100]);
    expect(percent(0.755)).toBe(76);
    expect(percent(1 / 6)).toBe(17);
    expect(() => roundScore(Number.NaN)).toThrow();
  });
});
