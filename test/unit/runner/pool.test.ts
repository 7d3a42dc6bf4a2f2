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

  it('a task that releases its place lets the next one start while it finishes', async () => {
    let holding = 0; // started, not released
    let finishing = 0; // released, not ended
    let peakHolding = 0;
    let peakFinishing = 0;
    const order: string[] = [];
    const tasks: PoolTask<number>[] = Array.from({ length: 8 }, (_, i) => async ({ release }) => {
      // Counted a turn later: a place given at once starts this task before the giver's count drops.
      await new Promise((r) => setImmediate(r));
      holding++;
      peakHolding = Math.max(peakHolding, holding);
      order.push(`start ${i}`);
      await delay(10);
      const granted = release();
      // Counted as the place is given (the next task starts right after).
      void granted.then(() => {
        holding--;
        finishing++;
        peakFinishing = Math.max(peakFinishing, finishing);
        order.push(`released ${i}`);
      });
      await granted;
      await release(); // a second call changes nothing
      await delay(40);
      finishing--;
      order.push(`end ${i}`);
      return i;
    });
    const results = await runPool(tasks, { concurrency: 2 });
    expect(results).toEqual(Array.from({ length: 8 }, (_, i) => ({ status: 'ok', value: i })));
    expect(peakHolding).toBe(2);
    expect(peakFinishing).toBe(2);
    // Task 2 starts once task 0 has released, before task 0 has ended.
    expect(order.indexOf('start 2')).toBeGreaterThan(order.indexOf('released 0'));
    expect(order.indexOf('start 2')).toBeLessThan(order.indexOf('end 0'));
    // The pool ends with its last task.
    expect(order.at(-1)).toMatch(/^end /);
    expect(finishing).toBe(0);
  });

  it('past `concurrency` released tasks, a release waits for one of them to end', async () => {
    const order: string[] = [];
    const tasks: PoolTask<void>[] = Array.from({ length: 3 }, (_, i) => async ({ release }) => {
      await release();
      order.push(`released ${i}`);
      await delay(30);
      order.push(`end ${i}`);
    });
    await runPool(tasks, { concurrency: 1 });
    expect(order).toEqual(['released 0', 'end 0', 'released 1', 'end 1', 'released 2', 'end 2']);
  });

  it('a task that ends before its release is granted takes no place from the others', async () => {
    const order: string[] = [];
    const tasks: PoolTask<void>[] = [
      async ({ release }) => {
        await release();
        await delay(30);
        order.push('end 0');
      },
      async ({ release }) => {
        void release(); // not awaited: ends at once, its turn comes later
        order.push('end 1');
      },
      async ({ release }) => {
        await release();
        order.push('released 2');
        await delay(5);
      },
      async ({ release }) => {
        await release();
        order.push('released 3');
      },
    ];
    const results = await runPool(tasks, { concurrency: 1 });
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    expect(order).toEqual(['end 1', 'end 0', 'released 2', 'released 3']);
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

describe('runPool groups of released tasks', () => {
  /** Tasks that release after `releaseAfter[i]` ms, then note when they go on, then end. */
  function releasing(releaseAfter: number[], log: string[], t0: () => number): PoolTask<void>[] {
    return releaseAfter.map((ms, i) => async ({ release }) => {
      log.push(`start ${i}`);
      await delay(ms);
      log.push(`release ${i}`);
      await release();
      log.push(`go ${i} @${Math.round(t0() / 10) * 10}`);
    });
  }

  it('released tasks go on together once `size` of them wait, their places given at once', async () => {
    const log: string[] = [];
    const started = performance.now();
    const tasks = releasing([0, 0, 0, 200], log, () => performance.now() - started);
    await runPool(tasks, { concurrency: 4, groups: { size: 3, waitMs: 10_000 } });
    const goes = log.filter((l) => l.startsWith('go'));
    // Tasks 0-2 release at once and go on as a group of three, long before task 3 releases.
    expect(goes.slice(0, 3).map((l) => l.split(' @')[0])).toEqual(['go 0', 'go 1', 'go 2']);
    expect(log.findIndex((l) => l.startsWith('go 0'))).toBeGreaterThan(log.indexOf('release 2'));
    expect(Number(goes[0]!.split('@')[1])).toBeLessThan(2_000);
    // Task 3 is the last that could join anything: it goes on at once, not after waitMs.
    expect(goes[3]).toMatch(/^go 3 @/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a released task waits at most `waitMs` for others while some still hold their places', async () => {
    const log: string[] = [];
    const started = performance.now();
    const tasks = releasing([0, 1_000], log, () => performance.now() - started);
    await runPool(tasks, { concurrency: 2, groups: { size: 2, waitMs: 60 } });
    const at = (i: number) => Number(log.find((l) => l.startsWith(`go ${i}`))!.split('@')[1]);
    expect(at(0)).toBeGreaterThanOrEqual(50);
    expect(at(0)).toBeLessThan(800);
    expect(at(1)).toBeGreaterThanOrEqual(990);
  });

  it('waits for nobody when nothing else could join: a single task, or the last one', async () => {
    const started = performance.now();
    const order: string[] = [];
    await runPool(
      [
        async ({ release }) => {
          await release();
          order.push('go 0');
        },
      ],
      { concurrency: 4, groups: { size: 4, waitMs: 10_000 } },
    );
    // The other task ends without releasing: the one waiting is then alone and goes on.
    await runPool(
      [
        async ({ release }) => {
          await release();
          order.push('go 1');
        },
        async () => {
          await delay(30);
          order.push('end 2');
        },
      ],
      { concurrency: 4, groups: { size: 4, waitMs: 10_000 } },
    );
    expect(order).toEqual(['go 0', 'end 2', 'go 1']);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('the next tasks start while a group waits, and a full set of released places lets it go', async () => {
    const log: string[] = [];
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const task =
      (i: number, releaseAfter: number, runAfter: number): PoolTask<void> =>
      async ({ release }) => {
        log.push(`start ${i}`);
        await delay(releaseAfter);
        await release();
        log.push(`go ${i} @${ms()}`);
        await delay(runAfter);
      };
    await runPool(
      [
        task(0, 0, 1_200),
        task(1, 0, 1_200),
        task(2, 0, 0),
        // Released while 0 and 1 still run: the three released places are taken, so it goes on at once.
        task(3, 20, 0),
        // Holds its place without releasing: without the rule above, 3 would wait for it.
        async () => {
          log.push('start 4');
          await delay(1_500);
        },
      ],
      { concurrency: 3, groups: { size: 3, waitMs: 10_000 } },
    );
    expect(log.indexOf('start 3')).toBeLessThan(log.findIndex((l) => l.startsWith('go 0')));
    const go3 = Number(log.find((l) => l.startsWith('go 3'))!.split('@')[1]);
    expect(go3).toBeLessThan(1_000);
  });

  it('on abort the waiting group goes on at once', async () => {
    const controller = new AbortController();
    const log: string[] = [];
    const started = performance.now();
    const run = runPool(
      [
        async ({ release }) => {
          await release();
          log.push('go 0');
        },
        async ({ signal }) => {
          await delay(10_000, signal).catch(() => log.push('saw abort'));
        },
      ],
      { concurrency: 2, groups: { size: 2, waitMs: 10_000 }, signal: controller.signal },
    );
    await delay(30);
    expect(log).toEqual([]);
    controller.abort(new Error('stop'));
    await run;
    expect(log).toContain('go 0');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('random mixes of tasks: every task ends once, places and released places stay within concurrency, no group waits past waitMs', async () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 25; round++) {
      const concurrency = 1 + rand(4);
      const waitMs = 20;
      let placesUsed = 0;
      let releasedNow = 0;
      let maxPlaces = 0;
      let maxReleased = 0;
      let longestWait = 0;
      const ended: number[] = [];
      const tasks: PoolTask<number>[] = Array.from({ length: 1 + rand(12) }, (_, i) => {
        const kind = rand(3); // 0: never releases, 1: releases and waits, 2: releases without waiting
        const before = rand(15);
        const after = rand(15);
        return async ({ release }) => {
          placesUsed++;
          maxPlaces = Math.max(maxPlaces, placesUsed);
          await delay(before);
          if (kind === 0) {
            placesUsed--;
            ended.push(i);
            return i;
          }
          const asked = performance.now();
          const granted = release();
          placesUsed--;
          if (kind === 2) {
            ended.push(i);
            return i;
          }
          await granted;
          longestWait = Math.max(longestWait, performance.now() - asked);
          releasedNow++;
          maxReleased = Math.max(maxReleased, releasedNow);
          await delay(after);
          releasedNow--;
          ended.push(i);
          return i;
        };
      });
      const results = await runPool(tasks, { concurrency, groups: { size: concurrency, waitMs } });
      expect(results.map((r) => (r.status === 'ok' ? r.value : -1))).toEqual(tasks.map((_, i) => i));
      expect([...ended].sort((a, b) => a - b)).toEqual(tasks.map((_, i) => i));
      expect(maxPlaces).toBeLessThanOrEqual(concurrency);
      expect(maxReleased).toBeLessThanOrEqual(concurrency);
      // A release waits for its group (at most waitMs) or for a released place (at most one task's run).
      expect(longestWait).toBeLessThan(2_000);
    }
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
