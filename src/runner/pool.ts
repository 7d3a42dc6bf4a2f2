import { AxisError } from '../util/errors.js';
import { abortReasonText } from './process.js';

export interface PoolTaskContext {
  /** Aborted when the pool is aborted; tasks should stop their work (e.g. pass it to spawnAgentProcess). */
  signal: AbortSignal;
  index: number;
  /**
   * Gives the task's place to the next task while this one goes on (its result still counts when it
   * ends). At most `concurrency` released tasks are unfinished at once: past that, the promise resolves
   * (and the place is given) only when one of them ends. With the pool's `groups`, the place is given as
   * before and the promise resolves when the task's group goes on. Calling it again does nothing.
   */
  release: () => Promise<void>;
}

export type PoolTask<T> = (ctx: PoolTaskContext) => Promise<T> | T;

export type PoolResult<T> =
  | { status: 'ok'; value: T }
  | { status: 'failed'; error: unknown; message: string }
  | { status: 'cancelled'; reason: string };

export interface PoolOptions<T> {
  /** Maximum tasks running at once; an integer ≥ 1. */
  concurrency: number;
  /**
   * Released tasks go on in groups (see {@link ReleaseGroups}); without it each goes on as soon as its
   * release is granted.
   */
  groups?: ReleaseGroups;
  signal?: AbortSignal;
  onStart?: (index: number) => void;
  onSettled?: (index: number, result: PoolResult<T>) => void;
}

/**
 * Released tasks wait for each other and go on together: when `size` of them wait (at most
 * `concurrency`), when no task that could still release is running or left to start, when all
 * `concurrency` released places are taken, when the pool is aborted, or `waitMs` after the first one
 * began to wait. Their places are given to the next tasks at
 * once either way. What the grouped tasks then do (the judges' questions of finished jobs) runs back to
 * back and reaches a server in bursts: less CPU per task, on both sides, than one at a time
 * (docs/performance.md, "Judging in groups").
 */
export interface ReleaseGroups {
  size: number;
  waitMs: number;
}

/**
 * Checks a concurrency value (number or CLI string). Returns the integer or throws an AxisError
 * (exit 2) naming `source`, the expectation and what was found.
 */
export function parseConcurrency(value: unknown, source = 'concurrency'): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1) return n;
  const found = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new AxisError(`${source}: expected an integer ≥ 1, found ${found}`, { exitCode: 2 });
}

/**
 * Runs `tasks` with at most `concurrency` at a time, plus at most `concurrency` more that gave their
 * place away (`release`) and are finishing. Results come back in input order; the pool resolves when
 * every task has ended. A task that throws becomes a `failed` result; the pool itself only rejects for
 * an invalid `concurrency`. When the signal aborts, tasks not started yet become `cancelled` and running
 * ones see the abort on their own signal (their result is whatever they then return or throw).
 */
export async function runPool<T>(
  tasks: readonly PoolTask<T>[],
  opts: PoolOptions<T>,
): Promise<PoolResult<T>[]> {
  const concurrency = parseConcurrency(opts.concurrency);
  const results = new Array<PoolResult<T>>(tasks.length);
  const controller = new AbortController();
  const forward = (): void => controller.abort(opts.signal?.reason);

  const settle = (index: number, result: PoolResult<T>): void => {
    results[index] = result;
    try {
      opts.onSettled?.(index, result);
    } catch {
      // a reporting callback must not break the pool
    }
  };

  let next = 0;
  // On abort every task not started yet is cancelled at once, so callers can report it immediately.
  const cancelPending = (): void => {
    const reason = abortReasonText(controller.signal.reason);
    while (next < tasks.length) settle(next++, { status: 'cancelled', reason });
  };
  controller.signal.addEventListener('abort', cancelPending, { once: true });

  // Released tasks still running, and those waiting for one of them to end before they may release.
  let released = 0;
  const waiting: Array<() => void> = [];
  const releasedEnded = (): void => {
    released--;
    const nextWaiting = waiting.shift();
    if (nextWaiting) nextWaiting();
  };
  // Started tasks that have not released (nor ended): the ones that could still join a group.
  let holding = 0;
  const group = releaseGroup(opts.groups, concurrency);
  // A group stops waiting when nobody could join it, or when the released places are all taken.
  const groupComplete = (): boolean =>
    (holding === 0 && next >= tasks.length) || released >= concurrency || controller.signal.aborted;
  controller.signal.addEventListener('abort', () => group.go(), { once: true });
  const running: Promise<void>[] = [];

  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      try {
        opts.onStart?.(index);
      } catch {
        // see above
      }
      // The worker moves on when the task ends or gives its place away, whichever comes first.
      let freePlace!: () => void;
      const placeFree = new Promise<void>((resolve) => (freePlace = resolve));
      let releasing: Promise<void> | undefined;
      let isReleased = false;
      let ended = false;
      holding++;
      const release = (): Promise<void> =>
        (releasing ??= new Promise<void>((resolve) => {
          const grant = (): void => {
            // A task that ended before its turn (it did not wait for it) takes no place: the next one does.
            if (ended) {
              resolve();
              return waiting.shift()?.();
            }
            released++;
            holding--;
            isReleased = true;
            if (!opts.groups) {
              resolve();
              return freePlace();
            }
            freePlace();
            group.join(resolve, groupComplete());
          };
          if (released < concurrency) grant();
          else waiting.push(grant);
        }));
      const task = (async () => {
        try {
          const value = await tasks[index]!({ signal: controller.signal, index, release });
          settle(index, { status: 'ok', value });
        } catch (error) {
          settle(index, {
            status: 'failed',
            error,
            message: error instanceof Error ? error.message : String(error),
          });
        } finally {
          ended = true;
          if (isReleased) releasedEnded();
          else {
            holding--;
            if (groupComplete()) group.go();
          }
          freePlace();
        }
      })();
      running.push(task);
      await placeFree;
    }
  };

  if (opts.signal?.aborted) forward();
  else opts.signal?.addEventListener('abort', forward, { once: true });
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
    await Promise.all(running);
  } finally {
    opts.signal?.removeEventListener('abort', forward);
  }
  return results;
}

/** The released tasks waiting for their group ({@link ReleaseGroups}); `go` lets them all go on. */
function releaseGroup(groups: ReleaseGroups | undefined, concurrency: number) {
  const size = Math.max(1, Math.min(groups?.size ?? 1, concurrency));
  let members: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  const go = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const group = members;
    members = [];
    for (const resume of group) resume();
  };
  return {
    go,
    /** `complete`: nobody else could join now. */
    join(resume: () => void, complete: boolean): void {
      members.push(resume);
      if (complete || members.length >= size) go();
      // Not unref'd: until it fires, the members' work is what the process is waiting for.
      else timer ??= setTimeout(go, groups?.waitMs ?? 0);
    },
  };
}
