/** `-n, --limit <count>` of `axis reports` and `axis history`: one parser, so both take the same values. */
import { AxisError } from '../util/errors.js';

/** A whole number ≥ 1 written in digits; `fallback` when the flag is absent; exit 2 otherwise. */
export function parseLimit(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1)
    throw new AxisError(
      `-n/--limit: expected a whole number of reports ≥ 1, found ${JSON.stringify(value)}`,
      { exitCode: 2 },
    );
  return n;
}
