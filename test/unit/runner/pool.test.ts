import { describe, expect, it } from 'vitest';
import { parseConcurrency, runPool, type PoolResult, type PoolTask } from '../../../src/runner/pool.js';
import { AxisError } from '../../../src/util/errors.js';

const delay = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new Error('task saw abort'));
    });
  });

describe('runPool', () => {
  it('returns results in input order whatever order tasks finish in', async () => {
    const tasks: PoolTask<number>[] = [50, 10, 30, 0, 20].map((ms, i) => async () => {
      await delay(ms);
      return i * 10;
    });
    const results = await runPool(tasks, { concurrency: 3 });
    expect(results).toEqual([0, 10, 20, 30, 40].map((value) => ({ status: 'ok', value })));
  });

  it('isolates failures: throwing (sync or async) tasks become failed results', async () => {
    const results = await runPool<string>(
      [
        async () => 'a',
        () => {
          throw new Error('sync boom');
        },
        async () => {
          await delay(5);
          throw new Error('async boom');
        },
        async () => 'd',
      ],
      { concurrency: 2 },
    );
    expect(results.map((r) => r.status)).toEqual(['ok', 'failed', 'failed', 'ok']);
    expect((results[1] as Extract<PoolResult<string>, { status: 'failed' }>).message).toBe('sync boom');
    expect((results[2] as Extract<PoolResult<string>, { status: 'failed' }>).message).toBe('async boom');
  });

  it('never runs more than `concurrency` tasks at once, and uses all slots', async () => {
    let running = 0;
    let peak = 0;
    const tasks = Array.from({ length: 20 }, () => async () => {
      running++;
      peak = Math.max(peak, running);
      await delay(5);
      running--;
    });
    await runPool(tasks, { concurrency: 4 });
    expect(peak).toBe(4);
  });

  it('on abort cancels pending tasks at once and signals the running ones', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const settledOrder: string[] = [];
    const tasks = Array.from({ length: 6 }, (_, i) => async ({ signal }: { signal: AbortSignal }) => {
      started.push(i);
      if (i === 0) return 'quick';
      await delay(10_000, signal);
      return 'slow';
    });
    const pending = runPool(tasks, {
      concurrency: 2,
      signal: controller.signal,
      onSettled: (i, r) => settledOrder.push(`${i}:${r.status}`),
    });
    await delay(50);
    controller.abort(new Error('Run cancelled by SIGINT'));
    const results = await pending;
    expect(started).toEqual([0, 1, 2]);
    expect(results[0]).toEqual({ status: 'ok', value: 'quick' });
    expect(results[1]).toMatchObject({ status: 'failed', message: 'task saw abort' });
    expect(results[2]).toMatchObject({ status: 'failed', message: 'task saw abort' });
    for (const r of results.slice(3))
      expect(r).toEqual({ status: 'cancelled', reason: 'Run cancelled by SIGINT' });
    // Pending tasks are reported before the running ones have wound down.
    expect(settledOrder.indexOf('3:cancelled')).toBeLessThan(settledOrder.indexOf('1:failed'));
  });

  it('cancels everything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort('stop');
    let ran = false;
    const results = await runPool([async () => (ran = true)], { concurrency: 1, signal: controller.signal });
    expect(ran).toBe(false);
    expect(results).toEqual([{ status: 'cancelled', reason: 'stop' }]);
  });

  it('handles an empty task list', async () => {
    expect(await runPool([], { concurrency: 3 })).toEqual([]);
  });

  it('rejects an invalid concurrency before running anything', async () => {
    let ran = false;
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await expect(runPool([async () => (ran = true)], { concurrency: bad })).rejects.toThrow(AxisError);
    }
    expect(ran).toBe(false);
  });
});

describe('parseConcurrency', () => {
  it('accepts integers ≥ 1 given as numbers or strings', () => {
    expect(parseConcurrency(15)).toBe(15);
    expect(parseConcurrency(' 4 ')).toBe(4);
  });

  it('names the source, the expectation and what was found', () => {
    expect(() => parseConcurrency('abc', '--concurrency')).toThrow(
      '--concurrency: expected an integer ≥ 1, found "abc"',
    );
    expect(() => parseConcurrency(0, 'settings.concurrency')).toThrow(
      'settings.concurrency: expected an integer ≥ 1, found 0',
    );
    let caught: unknown;
    try {
      parseConcurrency('2.5');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AxisError);
    expect((caught as AxisError).exitCode).toBe(2);
  });
});
