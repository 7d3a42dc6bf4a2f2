/** Typed progress events `run()` streams to `onEvent` (the CLI renders them; a UI could too). */
import type { ReportManifest } from '../report/manifest.js';
import type { TokenUsage } from '../transcript/model.js';
import type { ApiRetryInfo } from './api-failures.js';
import type { JobResult } from '../report/job-result.js';

/** Which job an event is about. */
export interface JobRef {
  index: number;
  scenarioKey: string;
  scenarioName: string;
  agentName: string;
  run: number;
  runs: number;
}

export type RunEvent =
  | {
      type: 'run_started';
      reportId: string;
      /** Absolute report directory. */
      reportDir: string;
      jobs: JobRef[];
      scenarios: number;
      agents: number;
      concurrency: number;
      simulate: boolean;
    }
  | { type: 'job_queued'; job: JobRef }
  | { type: 'job_started'; job: JobRef }
  | { type: 'job_setup'; job: JobRef }
  | { type: 'job_running'; job: JobRef }
  | { type: 'job_tokens'; job: JobRef; usage: TokenUsage; total: number }
  /** The agent ended and the checks run; sent again after teardown when the judges start. */
  | { type: 'job_judging'; job: JobRef }
  /** A provider call of the agent failed and the CLI retries it (`api_retry`, "Reconnecting…"). */
  | { type: 'job_retry'; job: JobRef; retry: ApiRetryInfo }
  | { type: 'job_teardown'; job: JobRef }
  | { type: 'job_finished'; job: JobRef; result: JobResult }
  /** `-v` lines: workspace paths, setup output, steps. `job` is absent for run-level lines. */
  | { type: 'log'; level: 'verbose' | 'warn'; message: string; job?: JobRef }
  | { type: 'run_finished'; manifest: ReportManifest; reportDir: string; incomplete: boolean };

export type RunEventType = RunEvent['type'];
