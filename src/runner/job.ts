/**
 * One job, start to finish: workspace → env → simulator → setup → agent → afterAgent → teardown →
 * artifacts → temp dir removed. Never throws: every failure becomes the job's status and reason, and
 * the temp dir and simulator are cleaned up whatever happened.
 */
import { relative } from 'node:path';
import type { AgentAdapter, AuthResolution, ResolvedSkill } from '../adapters/types.js';
import type { LoadedConfig, McpServer } from '../config/types.js';
import type { Job } from '../plan/plan.js';
import type { LiveLog, ReportStore, Scrubber } from '../report/store.js';
import { runFiles } from '../report/store.js';
import { emptyUsage, type ErrorClass, type TokenUsage, type Transcript } from '../transcript/model.js';
import { captureArtifacts, mergeArtifactPatterns, type ArtifactEntry } from './artifacts.js';
import { buildAgentEnv, isSecretName } from './env.js';
import type { JobRef, RunEvent } from './events.js';
import {
  totalTokens,
  type AgentSnapshot,
  type JobResult,
  type JobStatus,
  type JobTimings,
} from './job-result.js';
import { runLifecyclePhase, type LifecycleVars } from './lifecycle.js';
import { scenarioTimeStop, scenarioTokenStop, stopOf } from './limits.js';
import { abortReasonText } from './process.js';
import { ApiFailureWatch } from './api-failures.js';
import { SIM_MAX_RETRIES, startJobSimulator, type JobSimulator } from './simulate.js';
import { skillsFor, type SkillResolution } from './skills.js';
import type { Tape } from '../sim/tape.js';
import { createWorkspace, removeWorkspace, type Workspace } from './workspace.js';

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
  /** The report store and this job's scrubber (secrets, temp paths), for files the hook writes. */
  store: ReportStore;
  scrub: Scrubber;
  /** The job's simulator (simulate mode): the scoring stage points its judge at it. */
  simulatorUrl?: string;
  /** `-v` lines about this job (judge calls, retries). */
  log?: (message: string) => void;
}

/**
 * Runs after the agent and before teardown. The scoring stage plugs in here (deterministic checks,
 * judges). A throw is recorded as `afterAgentError`; it never changes the job status.
 */
export type AfterAgentHook = (ctx: AfterAgentContext) => Promise<void>;

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
  afterAgent?: AfterAgentHook;
  emit: (event: RunEvent) => void;
  /** A job's token count grew (or shrank, on reconciliation) by `delta`: the run-level budget. */
  onTokens: (delta: number) => void;
  /** Host variables, `process.env` unless a test passes its own. */
  hostEnv?: Readonly<Record<string, string | undefined>>;
}

/** Extra time past the scenario time limit before the runner itself stops the job. */
const BACKSTOP_MS = 10_000;
/** How long a stopped adapter may take to return before the job is given up on. */
const ABANDON_MS = 20_000;

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

export async function runJob(job: Job, services: JobServices, poolSignal: AbortSignal): Promise<JobResult> {
  const { loaded, store, emit } = services;
  const { scenario, agent } = job;
  const ref = jobRef(job);
  const configDir = loaded.configDir;
  const files = runFiles(scenario.key, agent.name, job.run, job.runs);
  const log = (message: string): void => emit({ type: 'log', level: 'verbose', message, job: ref });
  const started = Date.now();
  const timings: JobTimings = { setupMs: 0, agentMs: 0, afterAgentMs: 0, teardownMs: 0 };
  const jobController = new AbortController();
  const signal = AbortSignal.any([poolSignal, jobController.signal]);
  const tokenLimit = scenario.limits.tokens;
  const tokens = new TokenMeter(
    tokenLimit,
    services.onTokens,
    (usage, total) => emit({ type: 'job_tokens', job: ref, usage, total }),
    () => {
      if (!jobController.signal.aborted && tokenLimit !== undefined)
        jobController.abort(scenarioTokenStop(tokenLimit));
    },
  );

  let ws: Workspace | undefined;
  let sim: JobSimulator | undefined;
  let scrub: Scrubber = store.scrubber();
  let debugOut: LiveLog | undefined;
  let debugErr: LiveLog | undefined;
  let env: Record<string, string> = {};
  let transcript: Transcript | undefined;
  let outcome: { status: JobStatus; reason?: string; errorClass?: ErrorClass } = { status: 'completed' };
  let setupNotes = '';
  let teardownNotes = '';
  let teardownError: string | undefined;
  let afterAgentError: string | undefined;
  let artifacts: ArtifactEntry[] = [];
  let setupRan = false;
  let rawLineCount = 0;
  const rawLines: string[] = [];
  let phase: 'workspace' | 'simulator' | 'setup' | 'agent' | 'afterAgent' = 'workspace';

  emit({ type: 'job_started', job: ref });
  const fail = (status: JobStatus, errorClass: ErrorClass, reason: string) => {
    outcome = { status, errorClass, reason };
  };
  /** Status for a job whose signal fired: the Stop's own status, else cancelled. */
  const stoppedOutcome = () => {
    const stop = stopOf(signal.reason);
    return stop
      ? { status: stop.status, errorClass: stop.errorClass, reason: stop.message }
      : {
          status: 'cancelled' as const,
          errorClass: 'cancelled' as const,
          reason: abortReasonText(signal.reason),
        };
  };

  let resultDraft: JobResult | undefined;
  try {
    const adapter = services.adapters.get(agent.agent);
    if (!adapter) throw new Error(`no adapter loaded for "${agent.agent}"`);
    if (signal.aborted) {
      outcome = stoppedOutcome();
    } else {
      ws = await createWorkspace();
      const wsPaths: [string, string][] = [
        [ws.work, '<workspace>'],
        [ws.home, '<home>'],
        [ws.tmp, '<tmp>'],
        [ws.root, '<job>'],
      ];
      scrub = store.scrubber(wsPaths);
      log(`workspace ${ws.root}`);
      if (services.debug) {
        debugOut = await store.openLog(files.debug, scrub, 'lines');
        debugErr = await store.openLog(files.debugStderr, scrub, 'text');
      }

      phase = 'simulator';
      if (services.simulate) {
        sim = await startJobSimulator(scenario.tape, adapter, services.tapes?.get(scenario.tape));
        log(`simulator ${sim.sim.url} (tape ${relative(configDir, scenario.tape)})`);
      }

      phase = 'setup';
      const hostEnv = services.hostEnv ?? process.env;
      env = buildAgentEnv({
        home: ws.home,
        tmpDir: ws.tmp,
        hostEnv,
        // Against the simulator the host's own provider variables stay out: the simulator's replace them.
        passthrough: [...loaded.config.env.pass, ...(sim ? [] : adapter.providerEnv)],
        values: { ...loaded.config.env.values, ...agent.env, ...sim?.env },
      });
      emit({ type: 'job_setup', job: ref });
      const vars: LifecycleVars = {
        home: ws.home,
        runIndex: job.run,
        scenario: scenario.key,
        agent: agent.name,
        variant: scenario.variant,
        model: agent.model,
      };
      setupRan = true;
      const setup = await runLifecyclePhase({
        phase: 'setup',
        actions: scenario.setup,
        cwd: ws.work,
        configDir,
        workspace: ws.work,
        env,
        vars,
        signal,
        log,
      });
      setupNotes = setup.notes;
      timings.setupMs = Date.now() - started;

      if (!setup.ok) {
        outcome = signal.aborted
          ? stoppedOutcome()
          : {
              status: 'failed',
              errorClass: 'setup_failed',
              reason: setup.failure?.message ?? 'setup failed',
            };
      } else {
        phase = 'agent';
        emit({ type: 'job_running', job: ref });
        const agentStarted = Date.now();
        const api = new ApiFailureWatch({
          adapter: agent.agent,
          limitMinutes: loaded.config.settings.limits.api_failures,
          onRetry: (retry) => {
            emit({ type: 'job_retry', job: ref, retry });
            log(`provider call failed (attempt ${retry.attempt}): ${retry.cause}`);
          },
          onLimit: (stop) => {
            if (!jobController.signal.aborted) jobController.abort(stop);
          },
        });
        transcript = await runAdapter(adapter, {
          job,
          ws,
          env,
          signal,
          jobController,
          auth: services.auth.get(agent.name),
          // Top-level servers, then the scenario's (which win on a name clash).
          mcpServers: { ...loaded.config.mcp_servers, ...scenario.mcp_servers },
          skills: skillsFor([loaded.config.skills, agent.skills, scenario.skills], services.skills),
          maxRetries: sim ? SIM_MAX_RETRIES : undefined,
          onRawLine: (line) => {
            rawLineCount++;
            rawLines.push(line);
            debugOut?.write(line);
            api.stdout(line);
          },
          onStderr: (chunk) => {
            debugErr?.write(chunk);
            api.stderr(chunk);
          },
          onSpawn: (command, args) => log(`spawn: ${scrub.text([command, ...args].join(' '))}`),
          onUsage: (usage) => {
            tokens.update(usage);
          },
        });
        timings.agentMs = Date.now() - agentStarted;
        api.dispose();
        tokens.update(transcript.usage);
        outcome = withApiCause(classify(transcript, signal, scenario.limits), api.activeCause);
        log(
          `agent ended: exit ${transcript.exitCode ?? transcript.signal ?? 'none'}, ${rawLineCount} raw line(s), ` +
            `${outcome.status}${outcome.reason ? ` (${outcome.reason.split('\n')[0]})` : ''}`,
        );

        if (services.afterAgent) {
          phase = 'afterAgent';
          emit({ type: 'job_judging', job: ref });
          const hookStarted = Date.now();
          resultDraft = assemble();
          try {
            await services.afterAgent({
              job,
              result: resultDraft,
              workDir: ws.work,
              homeDir: ws.home,
              env,
              configDir,
              signal,
              store,
              scrub,
              log,
              ...(sim ? { simulatorUrl: sim.sim.url } : {}),
            });
          } catch (err) {
            afterAgentError = errorText(err);
            log(`afterAgent failed: ${afterAgentError}`);
          }
          timings.afterAgentMs = Date.now() - hookStarted;
        }
      }
    }
  } catch (err) {
    const message = errorText(err);
    if (phase === 'agent') fail('failed', 'crash', `Adapter "${agent.agent}" failed: ${message}`);
    else if (phase === 'afterAgent') afterAgentError = message;
    else if (signal.aborted) outcome = stoppedOutcome();
    else
      fail(
        'failed',
        'setup_failed',
        phase === 'simulator'
          ? `Cannot start the simulator: ${message}`
          : `Cannot prepare the job: ${message}`,
      );
  } finally {
    const teardownStarted = Date.now();
    if (ws) {
      if (setupRan && scenario.teardown.length > 0) {
        emit({ type: 'job_teardown', job: ref });
        // Teardown is cleanup: it runs even after a failure or Ctrl-C (its own timeout still applies).
        const teardown = await runLifecyclePhase({
          phase: 'teardown',
          actions: scenario.teardown,
          cwd: ws.work,
          configDir,
          workspace: ws.work,
          env,
          vars: {
            home: ws.home,
            runIndex: job.run,
            scenario: scenario.key,
            agent: agent.name,
            variant: scenario.variant,
            model: agent.model,
          },
          log,
        }).catch((err: unknown) => ({ ok: false, notes: '', failure: { message: errorText(err) } }));
        teardownNotes = teardown.notes;
        if (!teardown.ok) {
          teardownError = teardown.failure?.message ?? 'teardown failed';
          log(teardownError);
        }
      }
      const patterns = mergeArtifactPatterns(loaded.config.artifacts, scenario.artifacts);
      if (patterns.length > 0) {
        try {
          artifacts = await captureArtifacts({
            workDir: ws.work,
            patterns,
            destDir: store.abs(files.artifactsDir),
          });
          await store.scrubArtifacts(
            artifacts.filter((a) => !a.skipped).map((a) => `${files.artifactsDir}/${a.path}`),
            scrub,
          );
          log(`artifacts: ${artifacts.filter((a) => !a.skipped).length} file(s)`);
        } catch (err) {
          log(`artifact capture failed: ${errorText(err)}`);
        }
      }
    }
    await sim?.close();
    await debugOut?.close();
    await debugErr?.close();
    if (ws) await removeWorkspace(ws, log);
    timings.teardownMs = Date.now() - teardownStarted;
  }

  const result = assemble();
  // Whatever afterAgent added (e.g. `score`) is kept.
  if (resultDraft) {
    for (const [key, value] of Object.entries(resultDraft)) {
      if (!(key in result)) (result as unknown as Record<string, unknown>)[key] = value;
    }
  }
  try {
    await store.writeLines(files.raw, rawLines, scrub);
    await store.writeJson(files.detail, { reportId: store.id, ...result }, scrub);
  } catch (err) {
    emit({
      type: 'log',
      level: 'warn',
      message: `Could not write ${files.detail}: ${errorText(err)}`,
      job: ref,
    });
  }
  return scrub.value(result);

  function assemble(): JobResult {
    const ended = Date.now();
    const base = transcript ?? emptyTranscript(agent.name, started, outcome);
    const t: Transcript = { ...base };
    if (outcome.status !== 'completed' && outcome.errorClass && !t.error) {
      t.error = { class: outcome.errorClass, message: outcome.reason ?? outcome.status };
    }
    return {
      ...identity(job, configDir),
      status: outcome.status,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.errorClass && outcome.status !== 'completed' ? { errorClass: outcome.errorClass } : {}),
      startedAt: new Date(started).toISOString(),
      endedAt: new Date(ended).toISOString(),
      durationMs: ended - started,
      timings: { ...timings },
      transcript: t,
      rawLineCount,
      ...(setupNotes ? { setupNotes } : {}),
      ...(teardownNotes ? { teardownNotes } : {}),
      ...(teardownError ? { teardownError } : {}),
      ...(afterAgentError ? { afterAgentError } : {}),
      artifacts,
      ...(sim ? { simulator: sim.record(configDir) } : {}),
      files: {
        detail: files.detail,
        raw: files.raw,
        ...(artifacts.some((a) => !a.skipped) ? { artifactsDir: files.artifactsDir } : {}),
        ...(services.debug ? { debug: files.debug, debugStderr: files.debugStderr } : {}),
      },
    };
  }
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
function identity(job: Job, configDir: string): Identity {
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

/**
 * The result of a job that never started (cancelled before its turn, or an internal failure), written
 * to the store like any other so every planned run has a detail file.
 */
export async function unstartedJobResult(
  job: Job,
  store: ReportStore,
  configDir: string,
  outcome: { status: JobStatus; errorClass: ErrorClass; reason: string },
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
    files: { detail: files.detail, raw: files.raw },
  };
  const scrub = store.scrubber();
  await store.writeJson(files.detail, { reportId: store.id, ...result }, scrub).catch(() => {});
  await store.writeLines(files.raw, [], scrub).catch(() => {});
  return scrub.value(result);
}

/** Live token accounting for one job: feeds the run budget and enforces the scenario's token limit. */
class TokenMeter {
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

interface AdapterCall {
  job: Job;
  ws: Workspace;
  env: Record<string, string>;
  signal: AbortSignal;
  jobController: AbortController;
  auth?: AuthResolution;
  mcpServers: Record<string, McpServer>;
  skills: ResolvedSkill[];
  maxRetries?: number;
  onRawLine: (line: string) => void;
  onStderr: (chunk: string) => void;
  onSpawn: (command: string, args: readonly string[]) => void;
  onUsage: (usage: TokenUsage) => void;
}

/**
 * Calls the adapter with the scenario's time limit. The runner keeps its own clock as a backstop: past
 * the limit plus a grace period it stops the job itself, and an adapter that does not return soon after
 * being stopped is given up on (its process group was already signalled by the process core).
 */
async function runAdapter(adapter: AgentAdapter, call: AdapterCall): Promise<Transcript> {
  const { job, ws, signal } = call;
  const minutes = job.scenario.limits.time_minutes;
  const timeoutMs = Math.round(minutes * 60_000);
  const backstop = setTimeout(() => {
    if (!call.jobController.signal.aborted) call.jobController.abort(scenarioTimeStop(minutes));
  }, timeoutMs + BACKSTOP_MS);
  const started = Date.now();
  let abandonTimer: NodeJS.Timeout | undefined;
  let disarm = (): void => {};
  const abandoned = new Promise<Transcript>((resolve) => {
    const arm = () => {
      abandonTimer = setTimeout(() => {
        resolve(
          emptyTranscript(job.agent.name, started, {
            status: 'failed',
            errorClass: 'crash',
            reason: `Adapter "${adapter.name}" did not return within ${ABANDON_MS / 1000}s after being stopped (${abortReasonText(signal.reason)})`,
          }),
        );
      }, ABANDON_MS);
    };
    if (signal.aborted) arm();
    else signal.addEventListener('abort', arm, { once: true });
    disarm = () => signal.removeEventListener('abort', arm);
  });
  try {
    const running = adapter.run({
      agent: job.agent,
      prompt: job.scenario.prompt,
      workDir: ws.work,
      homeDir: ws.home,
      tmpDir: ws.tmp,
      env: call.env,
      mcpServers: call.mcpServers,
      skills: call.skills,
      timeoutMs,
      signal,
      onRawLine: call.onRawLine,
      onUsage: call.onUsage,
      onStderr: call.onStderr,
      onSpawn: call.onSpawn,
      ...(call.auth ? { auth: call.auth } : {}),
      ...(call.maxRetries !== undefined ? { maxRetries: call.maxRetries } : {}),
    });
    return await Promise.race([running, abandoned]);
  } finally {
    clearTimeout(backstop);
    disarm();
    if (abandonTimer) clearTimeout(abandonTimer);
  }
}

/**
 * A job that did not complete while its provider calls kept failing says so: "Scenario time limit reached
 * (5m) while the agent was retrying: API rejected the key (401) after 10 retries".
 */
export function withApiCause<T extends { status: JobStatus; reason?: string }>(
  outcome: T,
  cause?: string,
): T {
  if (!cause || outcome.status === 'completed' || outcome.reason?.includes(cause)) return outcome;
  const base = outcome.reason ?? outcome.status;
  return { ...outcome, reason: `${base} while the agent was retrying: ${cause}` };
}

/** The job's status from the transcript and from whatever stopped it. */
export function classify(
  transcript: Transcript,
  signal: AbortSignal,
  limits: { time_minutes: number; tokens?: number },
): { status: JobStatus; reason?: string; errorClass?: ErrorClass } {
  if (signal.aborted) {
    const stop = stopOf(signal.reason);
    if (stop) return { status: stop.status, errorClass: stop.errorClass, reason: stop.message };
    return { status: 'cancelled', errorClass: 'cancelled', reason: abortReasonText(signal.reason) };
  }
  const err = transcript.error;
  if (err?.class === 'timeout') {
    const stop = scenarioTimeStop(limits.time_minutes);
    return { status: 'timeout', errorClass: 'timeout', reason: stop.message };
  }
  if (err) return { status: 'failed', errorClass: err.class, reason: err.message };
  if (transcript.exitCode !== null && transcript.exitCode !== 0) {
    return { status: 'failed', errorClass: 'crash', reason: `Agent exited with code ${transcript.exitCode}` };
  }
  // Usage known only at the end (no live counts) can still be over the limit.
  if (limits.tokens !== undefined && totalTokens(transcript.usage) > limits.tokens) {
    const stop = scenarioTokenStop(limits.tokens);
    return { status: stop.status, errorClass: stop.errorClass, reason: stop.message };
  }
  return { status: 'completed' };
}

function emptyTranscript(
  agent: string,
  startedAt: number,
  outcome: { status: JobStatus; reason?: string; errorClass?: ErrorClass },
): Transcript {
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
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(agent.env)) env[k] = isSecretName(k) ? '[REDACTED]' : v;
  const out: AgentSnapshot = { ...agent, env };
  if (agent.module) out.module = projectPath(configDir, agent.module);
  return out;
}

function projectPath(configDir: string, abs: string): string {
  const rel = relative(configDir, abs).split('\\').join('/');
  return rel || '.';
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
