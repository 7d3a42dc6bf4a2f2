/**
 * One job, start to finish: workspace → env → simulator → setup → agent → afterAgent → teardown →
 * artifacts → temp dir removed → result files. Never throws: every failure becomes the job's status and
 * reason, and the temp dir and simulator are cleaned up whatever happened. Each phase is a function of
 * the job's state ({@link JobRun}); `runJob` only orders them.
 */
import { killTagged, scopeUsed } from '../exec/groups.js';
import { relative } from 'node:path';
import type { AgentAdapter } from '../adapters/types.js';
import type { Job } from '../plan/plan.js';
import type { ErrorClass } from '../transcript/model.js';
import { captureArtifacts, mergeArtifactPatterns } from './artifacts.js';
import { buildAgentEnv } from '../exec/env.js';
import { runAgentPhase } from './job-agent.js';
import type { AfterJobStep, JobServices } from './job-types.js';
import type { JobResult } from '../report/job-result.js';
import {
  assemble,
  errorText,
  finalResult,
  lifecycleVars,
  newJobRun,
  stoppedOutcome,
  type JobRun,
} from './job-state.js';
import { containment, jobSandbox } from '../exec/contain.js';
import { openJobIsolation, projectDirUnderTmp } from './job-isolation.js';
import { runLifecyclePhase } from './lifecycle.js';
import { startJobSimulator } from './simulate.js';
import type { Workspace } from '../exec/workspace.js';
import { acquireWorkspace, isRecycled, releaseWorkspace } from '../exec/workspace-pool.js';
import { spawnerFailures } from '../exec/spawner.js';
import { RawLog } from '../exec/output-cap.js';

/**
 * `release` gives the job's place in the pool to the next job (see {@link AfterJobStep}); it resolves
 * when this job may go on.
 */
export async function runJob(
  job: Job,
  services: JobServices,
  poolSignal: AbortSignal,
  release: () => Promise<void> = () => Promise.resolve(),
): Promise<JobResult> {
  const run = newJobRun(job, services, poolSignal);
  try {
    if (services.sandbox !== 'bwrap') return await runJobIn(run, release);
    // Every process of the job starts under bubblewrap; the workspace is made writable once it exists.
    run.sandbox = { writable: [], readable: [...projectDirUnderTmp(run.configDir)] };
    return await jobSandbox.run(run.sandbox, () => runJobIn(run, release));
  } finally {
    run.unfollowPool();
  }
}

async function runJobIn(run: JobRun, release: () => Promise<void>): Promise<JobResult> {
  const { services } = run;
  services.emit({ type: 'job_started', job: run.ref });
  try {
    await runPhases(run);
  } catch (err) {
    recordFailure(run, err);
  } finally {
    await finishJob(run);
  }
  if (run.afterJob) await runAfterJob(run, run.afterJob, release);
  return writeResult(run);
}

/** Workspace → simulator → setup → agent → afterAgent; stops early when one of them decides the outcome. */
async function runPhases(run: JobRun): Promise<void> {
  const adapter = run.services.adapters.get(run.job.agent.agent);
  if (!adapter) throw new Error(`no adapter loaded for "${run.job.agent.agent}"`);
  if (run.signal.aborted) {
    run.outcome = stoppedOutcome(run.signal);
    return;
  }
  const ws = await openWorkspace(run);
  await startSimulator(run, adapter);
  if (!(await runSetup(run, adapter, ws))) return;
  await runAgentPhase(run, adapter, ws);
  await runAfterAgent(run, ws);
}

async function openWorkspace(run: JobRun): Promise<Workspace> {
  const { store } = run.services;
  const ws = await acquireWorkspace(run.configDir);
  run.ws = ws;
  run.sandbox?.writable.push(ws.root);
  run.scrub = store.scrubber([
    [ws.work, '<workspace>'],
    [ws.home, '<home>'],
    [ws.tmp, '<tmp>'],
    [ws.root, '<job>'],
  ]);
  run.raw = new RawLog(store.openRawLog(run.files.raw, run.scrub));
  run.log(`workspace ${ws.root}${isRecycled(ws) ? ' (an earlier job’s, emptied)' : ''}`);
  if (run.services.debug) {
    run.debugOut = await store.openLog(run.files.debug, run.scrub, 'lines');
    run.debugErr = await store.openLog(run.files.debugStderr, run.scrub, 'text');
  }
  return ws;
}

async function startSimulator(run: JobRun, adapter: AgentAdapter): Promise<void> {
  run.phase = 'simulator';
  const { services } = run;
  if (!services.simulate) return;
  const tape = run.job.scenario.tape;
  run.sim = await startJobSimulator(tape, adapter, services.tapes?.get(tape));
  run.log(`simulator ${run.sim.sim.url} (tape ${relative(run.configDir, tape)})`);
}

/** Builds the job environment and runs the setup actions; false when setup decided the outcome. */
async function runSetup(run: JobRun, adapter: AgentAdapter, ws: Workspace): Promise<boolean> {
  run.phase = 'setup';
  const { services, job, signal } = run;
  const { loaded } = services;
  run.env = buildAgentEnv({
    home: ws.home,
    tmpDir: ws.tmp,
    hostEnv: services.hostEnv ?? process.env,
    // Against the simulator the host's own provider variables stay out: the simulator's replace them.
    passthrough: [...loaded.config.env.pass, ...(run.sim ? [] : adapter.providerEnv)],
    values: { ...loaded.config.env.values, ...job.agent.env, ...run.sim?.env },
  });
  await openJobIsolation(run, ws);
  services.emit({ type: 'job_setup', job: run.ref });
  run.setupRan = true;
  const setup = await runLifecyclePhase({
    ...(run.scopeTag ? { scopeTag: run.scopeTag } : {}),
    ...(run.space ? { space: run.space } : {}),
    phase: 'setup',
    actions: job.scenario.setup,
    cwd: ws.work,
    configDir: run.configDir,
    workspace: ws.work,
    // Inside the job dir: the job's processes may not see the host's /tmp (job-space.ts).
    notesDir: ws.root,
    env: run.env,
    vars: lifecycleVars(run),
    signal,
    log: run.log,
  });
  run.setupNotes = setup.notes;
  run.timings.setupMs = Date.now() - run.started;
  if (setup.ok) return true;
  run.outcome = signal.aborted
    ? stoppedOutcome(signal)
    : { status: 'failed', errorClass: 'setup_failed', reason: setup.failure?.message ?? 'setup failed' };
  return false;
}

/** The scoring hook, with the workspace still there. A throw is noted, never changes the status. */
async function runAfterAgent(run: JobRun, ws: Workspace): Promise<void> {
  const { services } = run;
  if (!services.afterAgent) return;
  run.phase = 'afterAgent';
  services.emit({ type: 'job_judging', job: run.ref });
  const hookStarted = Date.now();
  run.resultDraft = assemble(run);
  try {
    const rest = await services.afterAgent({
      job: run.job,
      result: run.resultDraft,
      workDir: ws.work,
      homeDir: ws.home,
      env: run.env,
      configDir: run.configDir,
      signal: run.signal,
      ...(services.judgeSignal ? { judgeSignal: services.judgeSignal } : {}),
      store: services.store,
      scrub: run.scrub,
      log: run.log,
      ...(run.sim ? { simulatorUrl: run.sim.judgeUrl } : {}),
      ...(run.space ? { space: run.space } : {}),
    });
    if (typeof rest === 'function') run.afterJob = rest;
  } catch (err) {
    noteAfterAgentError(run, err);
  }
  run.timings.afterAgentMs = Date.now() - hookStarted;
}

/**
 * What `afterAgent` left for after teardown (the judges), with the job's place given to the next job:
 * a judge's answer, seconds away with a real provider, no longer holds up an agent. The job's simulator
 * (the judge in simulate mode) is closed after it.
 */
async function runAfterJob(run: JobRun, step: AfterJobStep, release: () => Promise<void>): Promise<void> {
  try {
    await release();
    run.phase = 'afterAgent';
    run.services.emit({ type: 'job_judging', job: run.ref });
    const started = Date.now();
    await step().catch((err: unknown) => noteAfterAgentError(run, err));
    run.timings.afterAgentMs += Date.now() - started;
  } finally {
    await run.sim?.close();
  }
}

/** `afterAgent` or its step threw: noted, the job's status unchanged. */
function noteAfterAgentError(run: JobRun, err: unknown): void {
  run.afterAgentError = errorText(err);
  run.log(`afterAgent failed: ${run.afterAgentError}`);
}

/** A phase threw: the phase it was in says what the job's outcome is. */
function recordFailure(run: JobRun, err: unknown): void {
  const message = errorText(err);
  const fail = (errorClass: ErrorClass, reason: string) => {
    run.outcome = { status: 'failed', errorClass, reason };
  };
  if (run.phase === 'agent') fail('crash', `Adapter "${run.job.agent.agent}" failed: ${message}`);
  else if (run.phase === 'afterAgent') run.afterAgentError = message;
  else if (run.signal.aborted) run.outcome = stoppedOutcome(run.signal);
  else if (run.phase === 'simulator') fail('setup_failed', `Cannot start the simulator: ${message}`);
  else fail('setup_failed', `Cannot prepare the job: ${message}`);
}

/** Teardown, artifacts, simulator and logs closed, temp dir removed: runs whatever happened before. */
async function finishJob(run: JobRun): Promise<void> {
  const teardownStarted = Date.now();
  const { ws } = run;
  let reusable = false;
  if (ws) {
    await runTeardown(run, ws);
    // Nothing of the job can outlive it (and so reach a recycled workspace) when every process it started
    // ran in a PID namespace, gone with its init; a lifecycle script's processes live on the host.
    // A spawner that failed meanwhile lost its jobs' processes, which die with it but not at once.
    reusable =
      containment().mode === 'pid-namespace' &&
      !(run.scopeTag && scopeUsed(run.scopeTag)) &&
      spawnerFailures() === run.spawnerFailuresAtStart;
    // Background services setup started (and teardown did not stop) end with the job.
    if (run.scopeTag) {
      const killed = await killTagged(run.scopeTag);
      if (killed > 0) run.log(`ended ${killed} process(es) the lifecycle scripts left running`);
    }
    await captureJobArtifacts(run, ws);
  }
  await run.net?.close();
  // The judges of a step left for after teardown may still ask the job's simulator.
  if (!run.afterJob) await run.sim?.close();
  await run.debugOut?.close();
  await run.debugErr?.close();
  if (ws) await releaseWorkspace(ws, reusable, run.log);
  run.timings.teardownMs = Date.now() - teardownStarted;
}

async function runTeardown(run: JobRun, ws: Workspace): Promise<void> {
  const { scenario } = run.job;
  if (!run.setupRan || scenario.teardown.length === 0) return;
  run.services.emit({ type: 'job_teardown', job: run.ref });
  // Teardown is cleanup: it runs even after a failure or Ctrl-C (its own timeout still applies).
  const teardown = await runLifecyclePhase({
    ...(run.scopeTag ? { scopeTag: run.scopeTag } : {}),
    ...(run.space ? { space: run.space } : {}),
    phase: 'teardown',
    actions: scenario.teardown,
    cwd: ws.work,
    configDir: run.configDir,
    workspace: ws.work,
    // Inside the job dir: the job's processes may not see the host's /tmp (job-space.ts).
    notesDir: ws.root,
    env: run.env,
    vars: lifecycleVars(run),
    log: run.log,
  }).catch((err: unknown) => ({ ok: false, notes: '', failure: { message: errorText(err) } }));
  run.teardownNotes = teardown.notes;
  if (!teardown.ok) {
    run.teardownError = teardown.failure?.message ?? 'teardown failed';
    run.log(run.teardownError);
  }
}

async function captureJobArtifacts(run: JobRun, ws: Workspace): Promise<void> {
  const { loaded, store } = run.services;
  const patterns = mergeArtifactPatterns(loaded.config.artifacts, run.job.scenario.artifacts);
  if (patterns.length === 0) return;
  const dir = run.files.artifactsDir;
  try {
    run.artifacts = await captureArtifacts({
      workDir: ws.work,
      patterns,
      destDir: store.abs(dir),
      storedName: (rel) => run.scrub.text(rel),
      scrubBytes: (buf) => run.scrub.bytes(buf),
    });
    const kept = run.artifacts.filter((a) => !a.skipped);
    run.log(`artifacts: ${kept.length} file(s)`);
  } catch (err) {
    run.log(`artifact capture failed: ${errorText(err)}`);
    run.services.store.recordFailure(run.files.artifactsDir, err);
  }
}

/** Writes the raw log and the detail file, and returns the scrubbed result. */
async function writeResult(run: JobRun): Promise<JobResult> {
  const { store, emit } = run.services;
  const result = finalResult(run);
  const stored = await store.writeRun(run.files, run.raw, result, run.scrub);
  for (const lost of stored.files?.missing ?? [])
    emit({ type: 'log', level: 'warn', message: `Could not write ${lost}`, job: run.ref });
  return stored;
}
