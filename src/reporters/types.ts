/**
 * The one contract every output of `axis run` implements (terminal, json, junit, github). Hooks are
 * optional and follow the run: begin → per job start / progress / end → end. Modelled on Playwright's
 * ReporterV2: reporters never write to process streams directly but to the injected Screen.
 */
import type { Comparison } from '../compare/compare.js';
import type { RunVerdict } from '../compare/verdict-types.js';
import type { ReportManifest } from '../report/manifest.js';
import type { StoreFailure } from '../report/store.js';
import type { JobRef, RunEvent } from '../runner/events.js';
import type { JobResult } from '../report/job-result.js';

/** Where a reporter writes, and what the terminal can do. */
export interface Screen {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number; rows?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number; rows?: number };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** What the run starts with: the runner's `run_started` event, plus when. */
export type RunBegin = Omit<Extract<RunEvent, { type: 'run_started' }>, 'type'> & {
  /** ms since epoch. */
  startedAt: number;
};

/** Progress of one job between start and end. */
export type JobProgress = Extract<
  RunEvent,
  { type: 'job_setup' | 'job_running' | 'job_judging' | 'job_teardown' | 'job_tokens' | 'job_retry' }
>;

export interface RunEnd {
  manifest: ReportManifest;
  /** Absolute report directory. */
  reportDir: string;
  /** The report directory as shown to people (relative to the cwd when inside it). */
  reportRel: string;
  afterAllError?: string;
  /** Parts of the report that could not be written (disk full, …); the run then fails. */
  lost?: readonly StoreFailure[];
  /** No report.json on disk (its writes failed): there is no report to view. */
  reportMissing?: boolean;
  /** `--compare-baseline`: the comparison with the baseline. */
  comparison?: Comparison;
  /** `--shard` runs: the blob written, as shown to people. */
  blob?: string;
  /** ` -c <config>` when the user passed one, for the "view it" hint. */
  configArg: string;
}

/** How far a failed run got: whether its jobs were announced, and the gate's verdict if it was judged. */
export interface RunFailure {
  begun: boolean;
  verdict?: RunVerdict;
}

export interface Reporter {
  readonly name: string;
  /** True when the reporter writes a document to stdout (the terminal output then moves to stderr). */
  printsToStdout?(): boolean;
  onBegin?(run: RunBegin): void;
  onJobStart?(job: JobRef): void;
  onJobProgress?(event: JobProgress): void;
  onJobEnd?(job: JobRef, result: JobResult): void;
  /** `-v` and warning lines. */
  onLog?(level: 'verbose' | 'warn', message: string, job?: JobRef): void;
  /** The report is written. `verdict` is the CI gate's, when one was computed. */
  onEnd?(end: RunEnd, verdict?: RunVerdict): void | Promise<void>;
  /** The command failed (config error, Ctrl-C before any job, a failed write); `run`: how far it got. */
  onError?(error: unknown, exitCode: number, run?: RunFailure): void;
  /** Write at once whatever output is held back (before a message written around the reporters). */
  flush?(): void;
  /** Stop timers, restore the cursor. Called once, whatever happened. */
  dispose?(): void;
}
