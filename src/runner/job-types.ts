/**
 * What a job is handed and what it hands on: the services every job of a run shares, and the
 * `afterAgent` hook the scoring stage plugs in. Apart from job.ts so the job's steps can name them.
 */
import type { AgentAdapter, AuthResolution } from '../adapters/types.js';
import type { LoadedConfig, McpServer } from '../config/types.js';
import type { JobSpace } from '../exec/job-space.js';
import type { Job } from '../plan/plan.js';
import type { JobResult } from '../report/job-result.js';
import type { ReportStore } from '../report/store.js';
import type { Scrubber } from '../report/scrub.js';
import type { Tape } from '../sim/tape.js';
import type { RunEvent } from './events.js';
import type { SkillResolution } from './skills.js';

/** What `afterAgent` sees: the finished agent run, before teardown, with the workspace still there. */
export interface AfterAgentContext {
  job: Job;
  /** The result so far (status, transcript, setup notes). The hook may add to it, e.g. `score`. */
  result: JobResult;
  workDir: string;
  homeDir: string;
  /** The job environment (what setup scripts saw). */
  env: Readonly<Record<string, string>>;
  configDir: string;
  signal: AbortSignal;
  /**
   * What stops the judging of this (finished) run: Ctrl-C and the run's time limit, not its token limit,
   * which counts the agents' tokens. Absent: `signal`.
   */
  judgeSignal?: AbortSignal;
  /** The report store and this job's scrubber (secrets, temp paths), for files the hook writes. */
  store: ReportStore;
  scrub: Scrubber;
  /** The job's simulator (simulate mode): the scoring stage points its judge at it. */
  simulatorUrl?: string;
  /** `-v` lines about this job (judge calls, retries). */
  log?: (message: string) => void;
  /** The job's private /tmp (job-space.ts): `run` checks the hook starts get it too. */
  space?: JobSpace;
}

/**
 * Runs after the agent and before teardown. The scoring stage plugs in here (deterministic checks,
 * judges). A throw is recorded as `afterAgentError`; it never changes the job status. It may return
 * what is left to do that needs neither the workspace nor the job's place in the pool (the judges):
 * that runs after teardown, once the job's place is given to the next job (docs/running.md).
 */
export type AfterAgentHook = (ctx: AfterAgentContext) => Promise<void | AfterJobStep>;

/** The part of `afterAgent` left for after teardown; same rules (a throw is `afterAgentError`). */
export type AfterJobStep = () => Promise<void>;

/** Shared by every job of a run. */
export interface JobServices {
  loaded: LoadedConfig;
  store: ReportStore;
  adapters: ReadonlyMap<string, AgentAdapter>;
  /** By agent name; absent when preflight was skipped (simulate) or the adapter needs none. */
  auth: ReadonlyMap<string, AuthResolution>;
  simulate: boolean;
  debug: boolean;
  /** Skill sources resolved once for the run. */
  skills: SkillResolution;
  /** Simulate mode: tapes loaded once for the run, by absolute path. */
  tapes?: ReadonlyMap<string, Tape>;
  /** Each scenario's MCP servers (the config's, then its own), `${NAME}` resolved, by scenario key. */
  mcpServers: ReadonlyMap<string, Record<string, McpServer>>;
  afterAgent?: AfterAgentHook;
  emit: (event: RunEvent) => void;
  /** A job's token count grew (or shrank, on reconciliation) by `delta`: the run-level budget. */
  onTokens: (delta: number) => void;
  /** Passed on as AfterAgentContext.judgeSignal. */
  judgeSignal?: AbortSignal;
  /** Host variables, `process.env` unless a test passes its own. */
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** `settings.sandbox`: `bwrap` runs every job process under bubblewrap. */
  sandbox?: 'none' | 'bwrap';
}
