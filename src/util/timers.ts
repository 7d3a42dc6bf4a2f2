/**
 * Node stores timer delays in a signed 32-bit int: anything above 2^31-1 ms (24.8 days) fires after 1 ms
 * instead. Validation keeps configured durations far below that; this clamp covers values computed or
 * passed through the library API.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as a safe setTimeout delay: NaN and negatives are 0, everything too long waits as long as it can. */
export function timerMs(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}
