import { AxisError } from '../util/errors.js';
import { abortReasonText } from '../exec/process.js';

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
  return new Pool(tasks, opts, parseConcurrency(opts.concurrency)).run();
}

/** A started task's place in the pool. */
interface Place {
  /** It gave its place away (its release was granted). */
  released: boolean;
  ended: boolean;
  /** Lets its worker start the next task. */
  free: () => void;
}

/** One {@link runPool} call. */
class Pool<T> {
  private readonly results: PoolResult<T>[];
  private readonly controller = new AbortController();
  private readonly group: ReleaseGroup;
  private readonly running: Promise<void>[] = [];
  private next = 0;
  /** Released tasks still running. */
  private released = 0;
  /** Tasks waiting for a released one to end before they may release. */
  private readonly waiting: Array<() => void> = [];
  /** Started tasks that have not released (nor ended): the ones that could still join a group. */
  private holding = 0;

  constructor(
    private readonly tasks: readonly PoolTask<T>[],
    private readonly opts: PoolOptions<T>,
    private readonly concurrency: number,
  ) {
    this.results = new Array<PoolResult<T>>(tasks.length);
    const { signal } = this.controller;
    // On abort every task not started yet is cancelled at once, so callers can report it immediately.
    signal.addEventListener('abort', () => this.cancelPending(), { once: true });
    this.group = releaseGroup(opts.groups, concurrency);
    signal.addEventListener('abort', () => this.group.go(), { once: true });
  }

  async run(): Promise<PoolResult<T>[]> {
    const { opts } = this;
    const forward = (): void => this.controller.abort(opts.signal?.reason);
    if (opts.signal?.aborted) forward();
    else opts.signal?.addEventListener('abort', forward, { once: true });
    try {
      const workers = Math.min(this.concurrency, this.tasks.length);
      await Promise.all(Array.from({ length: workers }, () => this.worker()));
      await Promise.all(this.running);
    } finally {
      opts.signal?.removeEventListener('abort', forward);
    }
    return this.results;
  }

  private settle(index: number, result: PoolResult<T>): void {
    this.results[index] = result;
    try {
      this.opts.onSettled?.(index, result);
    } catch {
      // a reporting callback must not break the pool
    }
  }

  private cancelPending(): void {
    const reason = abortReasonText(this.controller.signal.reason);
    while (this.next < this.tasks.length) this.settle(this.next++, { status: 'cancelled', reason });
  }

  /** A group stops waiting when nobody could join it, or when the released places are all taken. */
  private groupComplete(): boolean {
    return (
      (this.holding === 0 && this.next >= this.tasks.length) ||
      this.released >= this.concurrency ||
      this.controller.signal.aborted
    );
  }

  private async worker(): Promise<void> {
    while (this.next < this.tasks.length) {
      const index = this.next++;
      try {
        this.opts.onStart?.(index);
      } catch {
        // see settle
      }
      await this.start(index);
    }
  }

  /** Starts a task; resolves when it ends or gives its place away, whichever comes first. */
  private start(index: number): Promise<void> {
    let place!: Place;
    const placeFree = new Promise<void>((free) => (place = { released: false, ended: false, free }));
    this.holding++;
    let releasing: Promise<void> | undefined;
    const release = (): Promise<void> =>
      (releasing ??= new Promise<void>((resolve) => this.requestRelease(place, resolve)));
    this.running.push(this.runTask(index, place, release));
    return placeFree;
  }

  private requestRelease(place: Place, resolve: () => void): void {
    const grant = (): void => {
      // A task that ended before its turn (it did not wait for it) takes no place: the next one does.
      if (place.ended) {
        resolve();
        return this.waiting.shift()?.();
      }
      this.released++;
      this.holding--;
      place.released = true;
      if (!this.opts.groups) {
        resolve();
        return place.free();
      }
      place.free();
      this.group.join(resolve, this.groupComplete());
    };
    if (this.released < this.concurrency) grant();
    else this.waiting.push(grant);
  }

  private async runTask(index: number, place: Place, release: () => Promise<void>): Promise<void> {
    try {
      const value = await this.tasks[index]!({ signal: this.controller.signal, index, release });
      this.settle(index, { status: 'ok', value });
    } catch (error) {
      this.settle(index, {
        status: 'failed',
        error,
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      place.ended = true;
      if (place.released) this.releasedEnded();
      else {
        this.holding--;
        if (this.groupComplete()) this.group.go();
      }
      place.free();
    }
  }

  private releasedEnded(): void {
    this.released--;
    const nextWaiting = this.waiting.shift();
    if (nextWaiting) nextWaiting();
  }
}

type ReleaseGroup = ReturnType<typeof releaseGroup>;

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
