import { describe, expect, test } from 'vitest';
import { RunLimits } from '../../../src/runner/limits.js';
import { MAX_TIMER_MS, timerMs } from '../../../src/util/timers.js';

describe('timer delays', () => {
  test('are clamped to what setTimeout can hold, never wrapped to 1 ms', () => {
    expect(timerMs(1_000)).toBe(1_000);
    expect(timerMs(2 ** 31)).toBe(MAX_TIMER_MS);
    expect(timerMs(Number.MAX_SAFE_INTEGER)).toBe(MAX_TIMER_MS);
    expect(timerMs(Infinity)).toBe(MAX_TIMER_MS);
    expect(timerMs(-5)).toBe(0);
    expect(timerMs(Number.NaN)).toBe(0);
  });

  test('a run limit longer than a timer can hold does not fire at once', async () => {
    const controller = new AbortController();
    const limits = new RunLimits({ time_minutes: 1e9 }, controller);
    limits.start();
    await new Promise((r) => setTimeout(r, 50));
    limits.dispose();
    expect(controller.signal.aborted).toBe(false);
  });
});
