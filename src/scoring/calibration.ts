/**
 * The one place where scores are mapped and rounded (docs/scoring.md#calibration).
 *
 * A dimension's raw 0..1 value maps through a log-normal CDF, `100·Φ((ln raw − ln median)/sigma)`.
 * That curve tops out at 100·Φ(ln(1/median)/sigma) (95.84 at the defaults) when raw reaches 1, so the
 * remaining gap to 100 is closed over the top band [topBandStart, 1] with a smoothstep ramp: the
 * mapping is continuous, monotonic and reaches exactly 100 at raw 1 (no jump from 96 to 100).
 */
import { createRequire } from 'node:module';
import { AxisError } from '../util/errors.js';

// jstat ships no types; require() keeps its typing local instead of declaring the module globally.
const { jStat } = createRequire(import.meta.url)('jstat') as {
  jStat: { normal: { cdf(x: number, mean: number, sd: number): number } };
};

export interface CalibrationParams {
  /** Raw value that maps to 50. */
  median: number;
  /** Spread of the log-normal curve. */
  sigma: number;
  /** Raw value where the ramp closing the gap to 100 begins. */
  topBandStart: number;
}

export const DEFAULT_CALIBRATION: Readonly<CalibrationParams> = Object.freeze({
  median: 0.5,
  sigma: 0.4,
  topBandStart: 0.98,
});

export function validateCalibration(params: CalibrationParams): void {
  const { median, sigma, topBandStart } = params;
  const bad = (field: string, expected: string, found: number): never => {
    throw new AxisError(`calibration.${field}: expected ${expected}, found ${found}`);
  };
  if (!Number.isFinite(median) || median <= 0 || median >= 1)
    bad('median', 'a number between 0 and 1', median);
  if (!Number.isFinite(sigma) || sigma <= 0) bad('sigma', 'a number above 0', sigma);
  if (!Number.isFinite(topBandStart) || topBandStart <= median || topBandStart >= 1)
    bad('topBandStart', `a number between the median (${median}) and 1`, topBandStart);
}

/** Unrounded 0..100 score for a raw 0..1 value. Raw values outside [0, 1] are clamped. */
export function calibrate(raw: number, params: CalibrationParams = DEFAULT_CALIBRATION): number {
  if (!Number.isFinite(raw))
    throw new TypeError(`calibrate: raw value must be a finite number, found ${raw}`);
  if (params !== DEFAULT_CALIBRATION) validateCalibration(params);
  if (raw <= 0) return 0;
  if (raw >= 1) return 100;
  const curve = curveAt(raw, params);
  const ceiling = curveAt(1, params);
  const t = (raw - params.topBandStart) / (1 - params.topBandStart);
  return 100 * (curve + (1 - ceiling) * smoothstep(t));
}

/** Calibrated, rounded 0-100 score for a raw 0..1 value. */
export function mapScore(raw: number, params: CalibrationParams = DEFAULT_CALIBRATION): number {
  return roundScore(calibrate(raw, params));
}

/** Linear 0..1 → 0-100 (sub-dimensions, goal achievement), rounded. */
export function percent(value: number): number {
  if (!Number.isFinite(value)) throw new TypeError(`percent: value must be a finite number, found ${value}`);
  return roundScore(value * 100);
}

/** The rounding rule for every displayed score: nearest integer, halves up, clamped to 0..100. */
export function roundScore(score: number): number {
  if (!Number.isFinite(score))
    throw new TypeError(`roundScore: score must be a finite number, found ${score}`);
  return Math.min(100, Math.max(0, Math.round(score)));
}

function curveAt(raw: number, p: CalibrationParams): number {
  return jStat.normal.cdf((Math.log(raw) - Math.log(p.median)) / p.sigma, 0, 1);
}

function smoothstep(t: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  return t * t * (3 - 2 * t);
}
