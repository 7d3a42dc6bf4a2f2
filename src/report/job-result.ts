/**
 * What one job (scenario × agent × run) produces. Everything scoring and reports need is here, so a
 * later stage never has to re-run anything: identity, prompt and criteria, the transcript, notes,
 * artifacts, simulator events, timings, status and reason.
 */
import type { Criterion, Limits, ResolvedAgent } from '../config/types.js';
import type { CheckOutcome } from '../scoring/checks/types.js';
import type { RunScore } from '../scoring/types.js';
import type { SimEvent } from '../sim/types.js';
import type { ErrorClass, JobStatus, TokenUsage, Transcript } from '../transcript/model.js';

/** A file the agent left in its workspace that matched an artifact pattern (runner/artifacts.ts). */
export interface ArtifactEntry {
  /** Forward-slash path relative to the workspace. */
  path: string;
  size: number;
  mimeType: string;
  /** Why the file was not captured (size caps, symlink leaving the workspace…). */
  skipped?: string;
}

/** The agent entry as stored: explicit env values whose names look secret are replaced by `[REDACTED]`. */
export type AgentSnapshot = Omit<ResolvedAgent, 'module'> & { module?: string };

export interface JobTimings {
  /** Workspace, simulator and setup scripts. */
  setupMs: number;
  /** The agent process. */
  agentMs: number;
  /** `afterAgent` (deterministic checks and judges, once scoring exists). */
  afterAgentMs: number;
  /** Teardown scripts, artifact capture and temp dir removal. */
  teardownMs: number;
}

export interface SimulatorRecord {
  /** Model requests the simulator answered. */
  requests: number;
  /** Divergence, tools the agent did not offer, exhausted tape, injected faults… */
  events: SimEvent[];
  /** Project-relative path of the tape. */
  tape: string;
}

/** Where a run's files are, relative to the report directory. Only files that were written are listed. */
export interface RunFiles {
  /** Absent only when it could not be written (then it is in `missing`). */
  detail?: string;
  /** The agent's raw stdout lines; absent when it printed none (or the file is in `missing`). */
  raw?: string;
  /** Present when artifact patterns matched something. */
  artifactsDir?: string;
  /** `--debug` only. */
  debug?: string;
  debugStderr?: string;
  /** Files of this run that could not be written (disk full, …); nothing else here names them. */
  missing?: string[];
}

export interface JobResult {
  /** Position in the plan. */
  index: number;
  scenarioKey: string;
  scenarioBaseKey: string;
  scenarioName: string;
  variant?: string;
  /** Project-relative path of the scenario file (absent for inline scenarios). */
  scenarioFile?: string;
  agentName: string;
  agent: AgentSnapshot;
  /** 1-based. */
  run: number;
  runs: number;
  prompt: string;
  criteria: Criterion[];
  limits: Limits & { time_minutes: number };
  status: JobStatus;
  /** One readable sentence for every status but `completed`. */
  reason?: string;
  errorClass?: ErrorClass;
  /** ISO times. */
  startedAt: string;
  endedAt: string;
  durationMs: number;
  timings: JobTimings;
  /** Paths inside it are rewritten to `<workspace>`, `<home>`, `<tmp>`. */
  transcript: Transcript;
  /** Raw stdout lines (or protocol messages) the agent produced. */
  rawLineCount: number;
  setupNotes?: string;
  teardownNotes?: string;
  /** The teardown failed (the job status is not changed by it). */
  teardownError?: string;
  /** `afterAgent` threw (the job status is not changed by it). */
  afterAgentError?: string;
  artifacts: ArtifactEntry[];
  simulator?: SimulatorRecord;
  /** The agent (and judge) ran against the model simulator: tokens are the tape's, there is no real cost. */
  simulated?: true;
  files?: RunFiles;
  /** Deterministic check outcomes, run in the workspace before teardown (also with --no-score). */
  checks?: CheckOutcome[];
  /** Filled by the scoring stage (src/runner/scoring-stage.ts); absent with --no-score. */
  score?: RunScore;
}

/**
 * input + output + cache reads: every token the model processed, once. Cache writes are not added: they
 * are part of `input` (`cacheWriteInput` says how many, docs/transcript.md#tokens).
 */
export function totalTokens(u: TokenUsage): number {
  return u.input + u.output + u.cacheReadInput;
}
