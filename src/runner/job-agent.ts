/** The agent phase of a job: the adapter call under the scenario's limits, and the status it earns. */
import { jobMcpServers } from './mcp-refs.js';
import type { AgentAdapter, AuthResolution, ResolvedSkill } from '../adapters/types.js';
import type { McpServer } from '../config/types.js';
import type { Job } from '../plan/plan.js';
import type { ErrorClass, Transcript } from '../transcript/model.js';
import type { TokenUsage } from '../transcript/model.js';
import { totalTokens } from '../report/job-result.js';
import type { JobStatus } from '../transcript/model.js';
import { emptyTranscript, type JobRun } from './job-state.js';
import { scenarioTimeStop, scenarioTokenStop, stopOf } from './limits.js';
import { capTranscript, outputCutReason } from '../exec/output-cap.js';
import { abortReasonText } from '../exec/process.js';
import { ApiFailureWatch } from './api-failures.js';
import { agentSpace, type JobSpace } from '../exec/job-space.js';
import { SIM_MAX_RETRIES } from './simulate.js';
import { skillsFor } from './skills.js';
import { timerMs } from '../util/timers.js';
import type { Workspace } from '../exec/workspace.js';
import { useSpare } from '../exec/workspace-pool.js';

/** Extra time past the scenario time limit before the runner itself stops the job. */
const BACKSTOP_MS = 10_000;
/** How long a stopped adapter may take to return before the job is given up on. */
const ABANDON_MS = 20_000;

/** Runs the agent in the prepared workspace and classifies how it ended. */
export async function runAgentPhase(run: JobRun, adapter: AgentAdapter, ws: Workspace): Promise<void> {
  const { job, services, signal } = run;
  const { loaded } = services;
  run.phase = 'agent';
  services.emit({ type: 'job_running', job: run.ref });
  const agentStarted = Date.now();
  const api = new ApiFailureWatch({
    adapter: job.agent.agent,
    limitMinutes: loaded.config.settings.limits.api_failures,
    onRetry: (retry) => {
      services.emit({ type: 'job_retry', job: run.ref, retry });
      run.log(`provider call failed (attempt ${retry.attempt}): ${retry.cause}`);
    },
    onLimit: (stop) => {
      if (!run.jobController.signal.aborted) run.jobController.abort(stop);
    },
  });
  let linesCut = 0;
  const transcript = await runAdapter(adapter, {
    job,
    ws,
    env: run.env,
    signal,
    jobController: run.jobController,
    auth: services.auth.get(job.agent.name),
    mcpServers: jobMcpServers(services.mcpServers, job.scenario.key),
    skills: skillsFor([loaded.config.skills, job.agent.skills, job.scenario.skills], services.skills),
    maxRetries: run.sim ? SIM_MAX_RETRIES : undefined,
    space: agentSpace(run.space),
    onRawLine: (line, utf8, cut) => {
      if (cut) linesCut++;
      run.rawLineCount++;
      run.raw.push(line, utf8);
      run.debugOut?.write(line);
      api.stdout(line);
    },
    onStderr: (chunk) => {
      run.debugErr?.write(chunk);
      api.stderr(chunk);
    },
    onSpawn: (command, args) => run.log(`spawn: ${run.scrub.text([command, ...args].join(' '))}`),
    onUsage: (usage) => run.tokens.update(usage),
  }).finally(() => api.dispose());
  run.transcript = transcript;
  run.timings.agentMs = Date.now() - agentStarted;
  run.tokens.update(transcript.usage);
  const cut = outputCutReason({ ...capTranscript(transcript, run.raw.dropped), linesCut });
  let outcome = withApiCause(classify(transcript, signal, job.scenario.limits), api.activeCause);
  // A run whose output was cut is judged on part of it: it does not pass as completed.
  if (cut && outcome.status === 'completed')
    outcome = { status: 'limit_exceeded', errorClass: 'limit_exceeded', reason: cut };
  run.outcome = outcome;
  run.log(
    `agent ended: exit ${transcript.exitCode ?? transcript.signal ?? 'none'}, ${run.rawLineCount} raw line(s), ` +
      `${outcome.status}${outcome.reason ? ` (${outcome.reason.split('\n')[0]})` : ''}`,
  );
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
  space: JobSpace | undefined;
  onRawLine: (line: string, utf8?: Buffer, cut?: boolean) => void;
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
  // At least 1 ms: a 0 ms timeout is none to the process core.
  const timeoutMs = timerMs(Math.max(1, Math.round(minutes * 60_000)) + BACKSTOP_MS) - BACKSTOP_MS;
  const backstop = setTimeout(
    () => {
      if (!call.jobController.signal.aborted) call.jobController.abort(scenarioTimeStop(minutes));
    },
    timerMs(timeoutMs + BACKSTOP_MS),
  );
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
      scenario: { key: job.scenario.key, name: job.scenario.name, prompt: job.scenario.prompt },
      workDir: ws.work,
      homeDir: ws.home,
      tmpDir: ws.tmp,
      useSpareFile: (target) => useSpare(ws, target),
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
      ...(call.space ? { space: call.space } : {}),
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
