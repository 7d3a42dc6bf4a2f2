/**
 * The steps of `run()` (run.ts) that stand on their own: checking the options, the host, credentials,
 * the run-level hooks, the job pool and report.html.
 */
import { setMaxListeners } from 'node:events';
import { rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AgentAdapter } from '../adapters/types.js';
import { simulatorSupplies } from './credentials.js';
import type { ResolvedAgent } from '../config/types.js';
import type { Plan } from '../plan/plan.js';
import { parseShard, type ShardSpec } from '../plan/shard.js';
import type { HookRecord, ReportManifest } from '../report/manifest.js';
import type { ReportStore } from '../report/store.js';
import { EVEN_RUNS_REASON } from '../config/schema.js';
import { AxisError, type ValidationIssue } from '../util/errors.js';
import { bwrapProblem, detectContainment } from '../exec/contain.js';
import { runJob } from './job.js';
import type { JobServices } from './job-types.js';
import { unstartedJobResult } from './job-state.js';
import type { JobResult } from '../report/job-result.js';
import { runLifecyclePhase, type PhaseResult } from './lifecycle.js';
import type { LifecycleAction, Limits } from '../config/types.js';
import { RunLimits, stopOf } from './limits.js';
import { parseConcurrency, runPool } from './pool.js';
import { drainWorkspacePool } from '../exec/workspace-pool.js';
import { runProbe } from '../exec/probe.js';
import { prewarmSpawner, setSpawnerNotice, spawnerDescription } from '../exec/spawner.js';
import { sweepLeftovers } from '../exec/sweep.js';
import type { RunOptions } from './run-options.js';

export const MAX_RUNS = 19;

/** `--runs`: an odd integer 1..19. Throws AxisError (exit 2). */
export function parseRuns(value: unknown, source = '--runs'): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  const found = typeof value === 'string' ? JSON.stringify(value) : String(value);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_RUNS) {
    throw new AxisError(`${source}: expected an odd integer from 1 to ${MAX_RUNS}, found ${found}`, {
      exitCode: 2,
    });
  }
  if (n % 2 === 0) {
    throw new AxisError(`${source}: expected an odd number of runs, found ${n}: ${EVEN_RUNS_REASON}`, {
      exitCode: 2,
    });
  }
  return n;
}

/** The CLI overrides, checked before any work (AxisError, exit 2). */
export function parseOverrides(options: RunOptions): {
  concurrency?: number;
  runs?: number;
  shard?: ShardSpec;
} {
  const out: { concurrency?: number; runs?: number; shard?: ShardSpec } = {};
  if (options.concurrency !== undefined)
    out.concurrency = parseConcurrency(options.concurrency, '--concurrency');
  if (options.runs !== undefined) out.runs = parseRuns(options.runs);
  if (options.shard !== undefined)
    out.shard =
      typeof options.shard === 'string'
        ? parseShard(options.shard)
        : parseShard(`${options.shard.index}/${options.shard.total}`, 'shard');
  if (options.shardDurations !== undefined && !out.shard)
    throw new AxisError('--shard-durations balances a sharded run: use it with --shard k/n', { exitCode: 2 });
  if (options.config !== undefined && (typeof options.config !== 'object' || !('config' in options.config)))
    throw new AxisError(
      `run({ config }): expected a loaded config from loadConfig(), found ${typeof options.config === 'string' ? `the string ${JSON.stringify(options.config)}: pass a path as run({ configPath })` : typeof options.config}`,
      { exitCode: 2 },
    );
  return out;
}

/** What every run-level hook shares: the config dir as cwd and workspace, the minimal env (no job HOME). */
export interface RunHookContext {
  configDir: string;
  env: Record<string, string>;
  log: (message: string) => void;
  /** What the hooks start in the background (a shared service) carries it until the run ends. */
  scopeTag?: string;
  signal?: AbortSignal;
  vars?: Parameters<typeof runLifecyclePhase>[0]['vars'];
}

export function runRunHook(
  ctx: RunHookContext,
  phase: 'beforeAll' | 'afterAll',
  actions: readonly LifecycleAction[],
): Promise<PhaseResult> {
  return runLifecyclePhase({
    ...(ctx.scopeTag ? { scopeTag: ctx.scopeTag } : {}),
    phase,
    actions,
    cwd: ctx.configDir,
    configDir: ctx.configDir,
    workspace: ctx.configDir,
    env: ctx.env,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.vars ? { vars: ctx.vars } : {}),
    log: ctx.log,
  });
}

/** What afterAll scripts are told about the run. */
export function afterAllVars(store: ReportStore, manifest: ReportManifest): RunHookContext['vars'] {
  return {
    reportDir: store.dir,
    extra: {
      AXIS_REPORT_ID: store.id,
      AXIS_TOTAL: String(manifest.summary.total),
      AXIS_COMPLETED: String(manifest.summary.completed),
      AXIS_FAILED: String(manifest.summary.failed),
      AXIS_DURATION_MS: String(manifest.durationMs),
    },
  };
}

/** Nothing was run: no report, and no empty store folders left behind (rmdir keeps non-empty ones). */
export async function removeEmptyStore(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => {});
  for (const d of [dirname(dir), dirname(dirname(dir))]) await rmdir(d).catch(() => {});
}

/**
 * How long a finished job's judging waits for other jobs to finish and be judged with it (runPool's
 * `groups`). Judging a few jobs back to back costs less CPU than one at a time, in AXIS and in the judge
 * (docs/performance.md, "Judging in groups"); beside a real judge's seconds per answer the wait is
 * nothing, and a job that nothing else could join (the last one, a one-job run) does not wait.
 */
export const JUDGING_GROUP_WAIT_MS = 50;

export interface ExecuteJobs {
  plan: Plan;
  services: Omit<JobServices, 'onTokens'>;
  concurrency: number;
  /** Aborted by the external signal and by the run's limits; its reason says why. */
  controller: AbortController;
  signal?: AbortSignal | undefined;
  limits: Limits;
  record: (result: JobResult) => void;
  alreadyRecorded: (index: number) => boolean;
}

/**
 * Runs every job in the pool. Every job gets exactly one recorded result: its own, or (cancelled before
 * it started, or a runJob that somehow threw) one written for it.
 */
export async function executeJobs(x: ExecuteJobs): Promise<void> {
  const { plan, controller, record } = x;
  // Judging finished runs stops on Ctrl-C and at the run's time limit, not at its token limit: that
  // counts the agents' tokens, and a run that finished before it is judged whatever the judge's speed.
  const judging = new AbortController();
  // Every judge request in flight listens on it: past ten, Node would print a leak warning mid-run.
  setMaxListeners(0, judging.signal);
  const forward = () => {
    controller.abort(x.signal?.reason);
    judging.abort(x.signal?.reason);
  };
  if (x.signal?.aborted) forward();
  else x.signal?.addEventListener('abort', forward, { once: true });
  const limits = new RunLimits(x.limits, controller, judging);
  limits.start();
  const services: JobServices = {
    ...x.services,
    onTokens: (delta) => limits.addTokens(delta),
    judgeSignal: judging.signal,
  };
  const { store, loaded } = services;
  const unstarted: Promise<void>[] = [];
  try {
    await runPool(
      plan.jobs.map((job) => async ({ signal, release }) => {
        const result = await runJob(job, services, signal, release);
        record(result);
        return result;
      }),
      {
        concurrency: x.concurrency,
        groups: { size: x.concurrency, waitMs: JUDGING_GROUP_WAIT_MS },
        signal: controller.signal,
        onSettled: (index, res) => {
          const job = plan.jobs[index]!;
          if (res.status === 'cancelled') {
            const stop = stopOf(controller.signal.reason);
            const outcome = stop
              ? { status: 'cancelled' as const, errorClass: 'cancelled' as const, reason: stop.message }
              : { status: 'cancelled' as const, errorClass: 'cancelled' as const, reason: res.reason };
            unstarted.push(
              unstartedJobResult(job, store, loaded.configDir, outcome, services.simulate).then(record),
            );
          } else if (res.status === 'failed' && !x.alreadyRecorded(index)) {
            // runJob never throws; if it somehow did, the job still gets a result.
            const outcome = {
              status: 'failed' as const,
              errorClass: 'crash' as const,
              reason: `Internal error: ${res.message}`,
            };
            unstarted.push(
              unstartedJobResult(job, store, loaded.configDir, outcome, services.simulate).then(record),
            );
          }
        },
      },
    );
    await Promise.all(unstarted);
  } finally {
    await drainWorkspacePool((message) => services.emit({ type: 'log', level: 'warn', message }));
    limits.dispose();
    x.signal?.removeEventListener('abort', forward);
  }
}

/** report.html from the final manifest and the (already scrubbed) results in memory. */
export async function writeHtml(store: ReportStore, manifest: ReportManifest, results: readonly JobResult[]) {
  const html = await import('../report/html/write.js');
  const byPair = new Map<string, JobResult[]>();
  for (const r of results) {
    const key = `${r.scenarioKey}\u0000${r.agentName}`;
    const list = byPair.get(key) ?? [];
    list.push(r);
    byPair.set(key, list);
  }
  const details = manifest.results.map((e) =>
    (byPair.get(`${e.scenarioKey}\u0000${e.agentName}`) ?? [])
      .sort((a, b) => a.run - b.run)
      .map((r) => ({ reportId: store.id, ...r })),
  );
  // What writeManifest put in report.json (results are already scrubbed), for the trend cache; none
  // when its last write failed (the file on disk is then an older one).
  const { results: written, ...rest } = manifest;
  const saved = !store.failures.some((f) => f.path === 'report.json');
  const stored = saved ? { ...store.scrubber().value(rest), results: written } : undefined;
  await store.write(
    'report.html',
    await html.renderReportHtmlFrom(store.dir, { manifest, details, ...(stored ? { written: stored } : {}) }),
  );
}

/** Each agent model its adapter cannot use with this environment (`axis validate` checks them too). */
export function modelIssues(
  agents: readonly ResolvedAgent[],
  adapters: ReadonlyMap<string, AgentAdapter>,
  configEnv: Readonly<Record<string, string>>,
  simulate: boolean,
  configFile: string,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const agent of agents) {
    const adapter = adapters.get(agent.agent);
    if (!adapter?.modelProblem || !agent.model || simulatorSupplies(adapter, simulate)) continue;
    const problem = adapter.modelProblem(agent.model, { ...process.env, ...configEnv, ...agent.env });
    if (problem) issues.push({ file: configFile, path: `agents "${agent.name}": model`, message: problem });
  }
  return issues;
}

/** Keeps only the requested exact pairs (for `--failed`). */
export function selectJobs(plan: Plan, only: RunOptions['only']): Plan {
  if (!only) return plan;
  const wanted = new Set(only.map((p) => `${p.scenarioKey}\u0000${p.agentName}`));
  const jobs = plan.jobs
    .filter((j) => wanted.has(`${j.scenario.key}\u0000${j.agent.name}`))
    .map((j, index) => ({ ...j, index }));
  return {
    ...plan,
    jobs,
    scenarios: plan.scenarios.filter((s) => jobs.some((j) => j.scenario === s)),
    agents: plan.agents.filter((a) => jobs.some((j) => j.agent === a)),
    skipped: [],
  };
}

export function hookRecord(ok: boolean, notes: string, error?: string): HookRecord {
  return { ok, ...(error ? { error } : {}), ...(notes ? { notes } : {}) };
}

/** Names prefixed so explicit values count as secrets only when their own name looks secret. */
export function prefixed(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) out[`__cfg_${k}`] = v;
  return out;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Says which containment is in force, and reaps what a killed earlier AXIS left behind. */
export async function prepareHost(
  verbose: (message: string) => void,
  sandbox: 'none' | 'bwrap',
): Promise<void> {
  setSpawnerNotice(verbose);
  // Its start overlaps the probes, the sweep and the planning below instead of delaying the first job.
  prewarmSpawner();
  if (sandbox === 'bwrap') {
    const problem = bwrapProblem();
    // Running unsandboxed would silently ignore the setting.
    if (problem)
      throw new AxisError(`settings.sandbox is "bwrap", but ${problem}. Nothing was run.`, { exitCode: 2 });
    verbose(
      'containment: bubblewrap sandbox per process (host filesystem read-only, own PID namespace, private /tmp)',
    );
  }
  // Started with the run (job-space.ts); the sweep runs while the helper's self-test does.
  const detection = sandbox === 'bwrap' ? undefined : detectContainment(runProbe);
  const swept = await sweepLeftovers();
  if (detection) verbose((await detection).description);
  verbose(spawnerDescription());
  if (swept.processes.length > 0 || swept.dirs.length > 0) {
    verbose(
      `start-up sweep: killed ${swept.processes.length} process(es) and removed ${swept.dirs.length} temp dir(s) left by an AXIS that is no longer running`,
    );
  }
}
