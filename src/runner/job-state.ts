/**
 * The mutable state of one job while it runs, and how it becomes a {@link JobResult}. The phases in
 * job.ts and job-phases.ts fill it in; `assemble` reads it.
 */
import { newTag } from '../exec/contain.js';
import { spawnerFailures } from '../exec/spawner.js';
import { setMaxListeners } from 'node:events';
import { relative } from 'node:path';
import type { Job } from '../plan/plan.js';
import type { LiveLog, ReportStore } from '../report/store.js';
import type { Scrubber } from '../report/scrub.js';
import { runFiles } from '../report/locate.js';
import {
  emptyUsage,
  type ErrorClass,
  type JobStatus,
  type TokenUsage,
  type Transcript,
} from '../transcript/model.js';
import type { JobNet } from '../exec/job-net.js';
import type { JobSpace } from '../exec/job-space.js';
import type { JobSandbox } from '../exec/contain.js';
import { maskSecretNames } from '../exec/env.js';
import { shownUrl } from '../config/sources.js';
import type { JobRef } from './events.js';
import {
  totalTokens,
  type AgentSnapshot,
  type ArtifactEntry,
  type JobResult,
  type JobTimings,
} from '../report/job-result.js';
import type { LifecycleVars } from './lifecycle.js';
import { scenarioTokenStop, stopOf } from './limits.js';
import { RawLog } from '../exec/output-cap.js';
import { abortReasonText } from '../exec/process.js';
import type { JobSimulator } from './simulate.js';
import type { Workspace } from '../exec/workspace.js';
import type { JobServices } from './job-types.js';

export type Outcome = { status: JobStatus; reason?: string; errorClass?: ErrorClass };
export type JobPhase = 'workspace' | 'simulator' | 'setup' | 'agent' | 'afterAgent';

export interface JobRun {
  job: Job;
  services: JobServices;
  ref: JobRef;
  files: ReturnType<typeof runFiles>;
  configDir: string;
  /** Tag of the job's lifecycle scripts: what they leave running is killed when the job ends. */
  scopeTag: string | undefined;
  /** `spawnerFailures()` when the job started: its workspace is recycled only if none failed since. */
  spawnerFailuresAtStart: number;
  log: (message: string) => void;
  started: number;
  timings: JobTimings;
  jobController: AbortController;
  /** The pool's signal and the job's own (token limit, backstop): jobController's, following the pool. */
  signal: AbortSignal;
  /** Stops following the pool's signal (runJob, once the job is done). */
  unfollowPool: () => void;
  tokens: TokenMeter;
  ws?: Workspace;
  sim?: JobSimulator;
  scrub: Scrubber;
  debugOut?: LiveLog;
  debugErr?: LiveLog;
  env: Record<string, string>;
  transcript?: Transcript;
  outcome: Outcome;
  phase: JobPhase;
  setupRan: boolean;
  setupNotes: string;
  teardownNotes: string;
  teardownError?: string;
  afterAgentError?: string;
  artifacts: ArtifactEntry[];
  rawLineCount: number;
  /** Raw lines kept for `<agent>.raw.ndjson`, up to the raw log cap. */
  raw: RawLog;
  /** `settings.sandbox: "bwrap"`: the paths the job's processes may write. */
  sandbox?: JobSandbox;
  /** A loopback job's network namespace (job-space.ts), while it exists. */
  net?: JobNet;
  /** The job's private /tmp and network, handed to each process it starts (set once isolation is open). */
  space?: JobSpace;
  /** The result handed to `afterAgent`; whatever the hook added to it is kept. */
  resultDraft?: JobResult;
  /** What `afterAgent` left for after teardown (job.ts `runAfterJob`). */
  afterJob?: () => Promise<void>;
}

export function jobRef(job: Job): JobRef {
  return {
    index: job.index,
    scenarioKey: job.scenario.key,
    scenarioName: job.scenario.name,
    agentName: job.agent.name,
    run: job.run,
    runs: job.runs,
  };
}

/**
 * Aborts the job's controller with the pool's reason when the pool's signal aborts, so the job's one
 * signal stops for either (the first reason wins, as with `AbortSignal.any`, which cost ~40 µs per job
 * in Node 20 and a weak reference per signal). Returns the unlink for when the job is done.
 */
export function followPool(pool: AbortSignal, job: AbortController): () => void {
  if (pool.aborted) {
    job.abort(pool.reason);
    return () => {};
  }
  const onAbort = (): void => {
    if (!job.signal.aborted) job.abort(pool.reason);
  };
  // One listener per job in flight: at a concurrency above 10, Node would warn of a leak.
  setMaxListeners(0, pool);
  pool.addEventListener('abort', onAbort, { once: true });
  return () => pool.removeEventListener('abort', onAbort);
}

export function newJobRun(job: Job, services: JobServices, poolSignal: AbortSignal): JobRun {
  const { scenario, agent } = job;
  const ref = jobRef(job);
  const jobController = new AbortController();
  const tokenLimit = scenario.limits.tokens;
  const emit = services.emit;
  const tokens = new TokenMeter(
    tokenLimit,
    services.onTokens,
    (usage, total) => emit({ type: 'job_tokens', job: ref, usage, total }),
    () => {
      if (!jobController.signal.aborted && tokenLimit !== undefined)
        jobController.abort(scenarioTokenStop(tokenLimit));
    },
  );
  return {
    job,
    services,
    ref,
    files: runFiles(scenario.key, agent.name, job.run, job.runs),
    configDir: services.loaded.configDir,
    scopeTag: newTag(),
    spawnerFailuresAtStart: spawnerFailures(),
    log: (message) => emit({ type: 'log', level: 'verbose', message, job: ref }),
    started: Date.now(),
    timings: { setupMs: 0, agentMs: 0, afterAgentMs: 0, teardownMs: 0 },
    jobController,
    signal: jobController.signal,
    unfollowPool: followPool(poolSignal, jobController),
    tokens,
    scrub: services.store.scrubber(),
    env: {},
    outcome: { status: 'completed' },
    phase: 'workspace',
    setupRan: false,
    setupNotes: '',
    teardownNotes: '',
    artifacts: [],
    rawLineCount: 0,
    raw: new RawLog(),
  };
}

/** Status for a job whose signal fired: the Stop's own status, else cancelled. */
export function stoppedOutcome(signal: AbortSignal): Outcome {
  const stop = stopOf(signal.reason);
  return stop
    ? { status: stop.status, errorClass: stop.errorClass, reason: stop.message }
    : { status: 'cancelled', errorClass: 'cancelled', reason: abortReasonText(signal.reason) };
}

export function lifecycleVars(run: JobRun): LifecycleVars {
  const { job } = run;
  return {
    home: run.ws?.home,
    runIndex: job.run,
    scenario: job.scenario.key,
    agent: job.agent.name,
    adapter: job.agent.agent,
    variant: job.scenario.variant,
    model: job.agent.model,
  };
}

/** The job's result from its state so far. */
export function assemble(run: JobRun): JobResult {
  const { job, outcome, files, services } = run;
  const ended = Date.now();
  const base = run.transcript ?? emptyTranscript(job.agent.name, run.started, outcome);
  const t: Transcript = { ...base };
  // Against the simulator the tokens are a tape's, so a cost the CLI works out from them is not real.
  if (services.simulate) delete t.costUsd;
  if (outcome.status !== 'completed' && outcome.errorClass && !t.error) {
    t.error = { class: outcome.errorClass, message: outcome.reason ?? outcome.status };
  }
  const captured = run.artifacts.some((a) => !a.skipped);
  return {
    ...identity(job, run.configDir),
    status: outcome.status,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    ...(outcome.errorClass && outcome.status !== 'completed' ? { errorClass: outcome.errorClass } : {}),
    startedAt: new Date(run.started).toISOString(),
    endedAt: new Date(ended).toISOString(),
    durationMs: ended - run.started,
    timings: { ...run.timings },
    transcript: t,
    rawLineCount: run.rawLineCount,
    ...(run.setupNotes ? { setupNotes: run.setupNotes } : {}),
    ...(run.teardownNotes ? { teardownNotes: run.teardownNotes } : {}),
    ...(run.teardownError ? { teardownError: run.teardownError } : {}),
    ...(run.afterAgentError ? { afterAgentError: run.afterAgentError } : {}),
    artifacts: run.artifacts,
    ...(run.sim ? { simulator: run.sim.record(run.configDir) } : {}),
    ...(services.simulate ? { simulated: true as const } : {}),
    files: {
      detail: files.detail,
      ...(run.rawLineCount > 0 ? { raw: files.raw } : {}),
      ...(captured ? { artifactsDir: files.artifactsDir } : {}),
      ...(services.debug ? { debug: files.debug, debugStderr: files.debugStderr } : {}),
    },
  };
}

/** The final result: assembled, plus whatever `afterAgent` added to its draft (e.g. `score`). */
export function finalResult(run: JobRun): JobResult {
  const result = assemble(run);
  if (run.resultDraft) {
    for (const [key, value] of Object.entries(run.resultDraft)) {
      if (!(key in result)) (result as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return result;
}

type Identity = Pick<
  JobResult,
  | 'index'
  | 'scenarioKey'
  | 'scenarioBaseKey'
  | 'scenarioName'
  | 'variant'
  | 'scenarioFile'
  | 'agentName'
  | 'agent'
  | 'run'
  | 'runs'
  | 'prompt'
  | 'criteria'
  | 'limits'
>;

/** The fields that say which job a result belongs to and what it was asked. */
export function identity(job: Job, configDir: string): Identity {
  const { scenario, agent } = job;
  return {
    index: job.index,
    scenarioKey: scenario.key,
    scenarioBaseKey: scenario.baseKey,
    scenarioName: scenario.name,
    ...(scenario.variant ? { variant: scenario.variant } : {}),
    ...(scenario.file ? { scenarioFile: projectPath(configDir, scenario.file) } : {}),
    agentName: agent.name,
    agent: snapshotAgent(agent, configDir),
    run: job.run,
    runs: job.runs,
    prompt: scenario.prompt,
    criteria: scenario.criteria,
    limits: scenario.limits,
  };
}

/** Live token accounting for one job: feeds the run budget and enforces the scenario's token limit. */
export class TokenMeter {
  private last = 0;
  constructor(
    private readonly limit: number | undefined,
    private readonly onDelta: (delta: number) => void,
    private readonly onChange: (usage: TokenUsage, total: number) => void,
    private readonly stop: () => void,
  ) {}
  update(usage: TokenUsage): void {
    const total = totalTokens(usage);
    if (total === this.last) return;
    this.onDelta(total - this.last);
    this.last = total;
    this.onChange(usage, total);
    if (this.limit !== undefined && total > this.limit) this.stop();
  }
}

export function emptyTranscript(agent: string, startedAt: number, outcome: Outcome): Transcript {
  const now = Date.now();
  const t: Transcript = {
    agent,
    events: [],
    result: null,
    usage: emptyUsage(),
    exitCode: null,
    startedAt,
    endedAt: now,
    durationMs: 0,
  };
  if (outcome.status !== 'completed') {
    t.error = { class: outcome.errorClass ?? 'crash', message: outcome.reason ?? outcome.status };
  }
  return t;
}

function snapshotAgent(agent: Job['agent'], configDir: string): AgentSnapshot {
  // A skill source's URL credentials are shown masked, as in every message about a source.
  const out: AgentSnapshot = {
    ...agent,
    env: maskSecretNames(agent.env),
    skills: agent.skills.map(shownUrl),
  };
  if (agent.module) out.module = projectPath(configDir, agent.module);
  return out;
}

function projectPath(configDir: string, abs: string): string {
  const rel = relative(configDir, abs).split('\\').join('/');
  return rel || '.';
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The result of a job that never started (cancelled before its turn, or an internal failure), written
 * to the store like any other so every planned run has a detail file.
 */
export async function unstartedJobResult(
  job: Job,
  store: ReportStore,
  configDir: string,
  outcome: { status: JobStatus; errorClass: ErrorClass; reason: string },
  simulate: boolean,
): Promise<JobResult> {
  const now = Date.now();
  const files = runFiles(job.scenario.key, job.agent.name, job.run, job.runs);
  const result: JobResult = {
    ...identity(job, configDir),
    ...outcome,
    startedAt: new Date(now).toISOString(),
    endedAt: new Date(now).toISOString(),
    durationMs: 0,
    timings: { setupMs: 0, agentMs: 0, afterAgentMs: 0, teardownMs: 0 },
    transcript: emptyTranscript(job.agent.name, now, outcome),
    rawLineCount: 0,
    artifacts: [],
    // A job of a simulator run, as its started siblings: its cost reads `simulated`, never unknown.
    ...(simulate ? { simulated: true as const } : {}),
    files: { detail: files.detail },
  };
  return store.writeRun(files, undefined, result, store.scrubber());
}
