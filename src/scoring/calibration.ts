/**
 * The one place where scores are mapped and rounded (docs/scoring.md#calibration).
 *
 * A dimension's raw 0..1 value maps through the log-normal CDF of the spec, `100·Φ((ln raw − ln median)/sigma)`.
 * The curve tops out at 100·Φ(ln(1/median)/sigma) (95.84 at the defaults) as raw approaches 1, so only an
 * exactly perfect raw scores 100: 0.99 is 96. 95 and above is the top band.
 */
import { AxisError } from '../util/errors.js';
import { jStat } from '../util/jstat.js';

export interface CalibrationParams {
  /** Raw value that maps to 50. */
  median: number;
  /** Spread of the log-normal curve. */
  sigma: number;
}

export const DEFAULT_CALIBRATION: Readonly<CalibrationParams> = Object.freeze({
  median: 0.5,
  sigma: 0.4,
});

export function validateCalibration(params: CalibrationParams): void {
  const { median, sigma } = params;
  const bad = (field: string, expected: string, found: number): never => {
    throw new AxisError(`calibration.${field}: expected ${expected}, found ${found}`);
  };
  if (!Number.isFinite(median) || median <= 0 || median >= 1)
    bad('median', 'a number between 0 and 1', median);
  if (!Number.isFinite(sigma) || sigma <= 0) bad('sigma', 'a number above 0', sigma);
}

/** Unrounded 0..100 score for a raw 0..1 value. Raw values outside [0, 1] are clamped. */
export function calibrate(raw: number, params: CalibrationParams = DEFAULT_CALIBRATION): number {
  if (!Number.isFinite(raw))
    throw new TypeError(`calibrate: raw value must be a finite number, found ${raw}`);
  if (params !== DEFAULT_CALIBRATION) validateCalibration(params);
  if (raw <= 0) return 0;
  if (raw >= 1) return 100;
  return 100 * jStat().normal.cdf((Math.log(raw) - Math.log(params.median)) / params.sigma, 0, 1);
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

/**
 * The rounding rule for every displayed score: nearest integer, clamped to 0..100. A half goes down
 * (97.5 → 97), within float noise (0.755·100 is 75.50000000000001): a tie never reads as the better.
 */
export function roundScore(score: number): number {
  if (!Number.isFinite(score))
    throw new TypeError(`roundScore: score must be a finite number, found ${score}`);
  return Math.min(100, Math.max(0, Math.ceil(score - 0.5 - 1e-9)));
}
