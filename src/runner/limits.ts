/**
 * Limits as abort reasons. A job or the run is stopped by aborting its controller with a `Stop`, which
 * says which status the stopped jobs get. Adapters read `errorClass` off the reason (adapters/base.ts).
 */
import { timerMs } from '../util/timers.js';
import type { Limits } from '../config/types.js';
import type { ErrorClass } from '../transcript/model.js';
import type { JobStatus } from '../transcript/model.js';

export class Stop extends Error {
  constructor(
    message: string,
    readonly status: Exclude<JobStatus, 'completed'>,
    readonly errorClass: ErrorClass,
  ) {
    super(message);
    this.name = 'Stop';
  }
}

/** `5` → `5m`, `0.5` → `0.5m`; a limit under 0.0005 keeps 3 significant digits rather than read `0m`. */
export function formatMinutes(minutes: number): string {
  const fixed = Number(minutes.toFixed(3));
  return `${fixed === 0 && minutes !== 0 ? Number(minutes.toPrecision(3)) : fixed}m`;
}

export const scenarioTimeStop = (minutes: number) =>
  new Stop(`Scenario time limit reached (${formatMinutes(minutes)})`, 'timeout', 'timeout');

export const scenarioTokenStop = (tokens: number) =>
  new Stop(`Scenario token limit reached (${tokens} tokens)`, 'limit_exceeded', 'limit_exceeded');

export const runTimeStop = (minutes: number) =>
  new Stop(`Overall time limit reached (${formatMinutes(minutes)})`, 'limit_exceeded', 'limit_exceeded');

export const runTokenStop = (tokens: number) =>
  new Stop(`Overall token limit reached (${tokens} tokens)`, 'limit_exceeded', 'limit_exceeded');

/** `settings.limits.api_failures`: the agent's provider calls kept failing for that long. */
export const apiFailureStop = (cause: string, minutes: number, errorClass: ErrorClass) =>
  new Stop(
    `${cause}: stopped after ${formatMinutes(minutes)} of failing provider calls (settings.limits.api_failures)`,
    'failed',
    errorClass,
  );

export function stopOf(reason: unknown): Stop | undefined {
  return reason instanceof Stop ? reason : undefined;
}

/**
 * The run's own limits (`settings.limits.run`): a wall-clock timer and a token budget summed over every
 * job's live usage. Either one aborts `controller` with a Stop.
 */
export class RunLimits {
  private used = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `judging` (optional) is stopped by the time limit only: judges' tokens are not the agents'. */
  constructor(
    private readonly limits: Limits,
    private readonly controller: AbortController,
    private readonly judging?: AbortController,
  ) {}

  start(): void {
    const minutes = this.limits.time_minutes;
    if (minutes !== undefined && minutes > 0) {
      this.timer = setTimeout(
        () => {
          const stop = runTimeStop(minutes);
          this.stop(stop);
          if (this.judging && !this.judging.signal.aborted) this.judging.abort(stop);
        },
        timerMs(minutes * 60_000),
      );
      this.timer.unref?.();
    }
  }

  /** Adds tokens (a job's growth since its last report); may abort the run. */
  addTokens(delta: number): void {
    if (!Number.isFinite(delta) || delta === 0) return;
    this.used += delta;
    const max = this.limits.tokens;
    if (max !== undefined && this.used > max) this.stop(runTokenStop(max));
  }

  get tokensUsed(): number {
    return this.used;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private stop(reason: Stop): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
