/** What a deterministic check produces: pass/fail with its evidence (the criterion's rationale). */
import type { Check } from '../../config/types.js';
import type { JobSpace } from '../../exec/job-space.js';

export interface CheckOutcome {
  /** Position among the scenario's `checks`. */
  index: number;
  label: string;
  weight: number;
  kind: Check['kind'];
  passed: boolean;
  /** 10 when passed, else 0 (the 0-10 criterion scale). */
  score: 10 | 0;
  /** Evidence: exit code and output tail, file excerpt, HTTP status. */
  rationale: string;
  durationMs: number;
}

export interface CheckVerdict {
  passed: boolean;
  evidence: string;
}

export interface CheckContext {
  /** The job's workspace (`work/`), still present: checks run before teardown. */
  workDir: string;
  /** The job environment, for `run` checks. */
  env: Readonly<Record<string, string>>;
  /** The agent's final answer, for `result_matches`. */
  finalAnswer: string | null;
  signal?: AbortSignal;
  /** Limit of a `run` check; default 180 s. */
  runTimeoutMs?: number;
  /** Limit of an `http` check; default 30 s. */
  httpTimeoutMs?: number;
  /** Time for all the checks together (the scenario's time limit); none when absent. */
  budgetMs?: number;
  /** The job's private /tmp (job-space.ts), for `run` checks. */
  space?: JobSpace;
}
