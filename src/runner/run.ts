/**
 * `run()`: the whole `axis run` minus the terminal. Loads the config once, plans the jobs, checks auth,
 * runs `beforeAll`, executes the jobs in a pool (each isolated: one failing never stops the others),
 * writes the raw store after every job, runs `afterAll`, and returns the report.
 */
import { rm, rmdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, relative } from 'node:path';
import { preflightAuth, type AuthSubject } from '../adapters/auth.js';
import { loadAdapters } from '../adapters/registry.js';
import type { AgentAdapter, AuthResolution } from '../adapters/types.js';
import { loadConfig } from '../config/load.js';
import { EVEN_RUNS_REASON } from '../config/schema.js';
import type { LoadedConfig, ResolvedAgent } from '../config/types.js';
import { planJobs, type Plan } from '../plan/plan.js';
import {
  buildManifest,
  ReportStore,
  type HookRecord,
  type ReportManifest,
  type StoreFailure,
} from '../report/store.js';
import { parseShard, type JobDurations, type ShardSpec } from '../plan/shard.js';
import type { Baseline } from '../compare/baseline.js';
import type { Comparison } from '../compare/compare.js';
import { baselineToCompare, gate } from '../compare/gate.js';
import type { RunVerdict } from '../compare/verdict-types.js';
import { createScoringStage } from '../scoring/stage.js';
import { AxisError } from '../util/errors.js';
import { buildAgentEnv, secretValues } from './env.js';
import type { JobRef, RunEvent } from './events.js';
import { jobRef, runJob, unstartedJobResult, type AfterAgentHook, type JobServices } from './job.js';
import type { JobResult } from './job-result.js';
import { runLifecyclePhase } from './lifecycle.js';
import { RunLimits, stopOf } from './limits.js';
import { resolveSkillSources } from './skills.js';
import { preloadTapes } from './simulate.js';
import { parseConcurrency, runPool } from './pool.js';
import { killTagged } from './groups.js';
import { abortReasonText } from './process.js';
import { setSpawnerNotice, spawnerDescription } from './spawner.js';
import { bwrapProblem, containment, newTag } from './contain.js';
import { describeIsolation } from './job-isolation.js';
import { createReportWriter } from './report-writer.js';
import { sweepLeftovers } from './sweep.js';

export interface RunOptions {
  /** An already loaded config (then `configPath` and `profile` are ignored). */
  config?: LoadedConfig;
  /** Config file or directory; default: search upward from the cwd. */
  configPath?: string;
  profile?: string;
  /** Scenario keys or globs (comma-separated strings are split). */
  scenarios?: string | readonly string[];
  /** Agent names or globs. */
  agents?: string | readonly string[];
  /** Scenario tags: only scenarios with any of them run. */
  tags?: string | readonly string[];
  /** Fetch remote skills again even when `.axis/skills-cache/` has them. */
  refreshSkills?: boolean;
  /** Overrides settings.concurrency; an integer ≥ 1 (CLI strings are parsed). */
  concurrency?: number | string;
  /** Overrides settings.runs; odd, 1..19. */
  runs?: number | string;
  /** Exact (scenario key, agent name) pairs to run, e.g. the failed pairs of an earlier report. */
  only?: readonly { scenarioKey: string; agentName: string }[];
  /** Recorded in the manifest as `rerunOf` (`--failed`). */
  rerunOf?: string;
  /** Ctrl-C: running jobs are stopped, the rest cancelled, the report still written (incomplete). */
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Keep each agent's raw stdout and stderr live as `<agent>.debug.ndjson` / `.debug.stderr.log`. */
  debug?: boolean;
  /** Emit `log` events for every step (workspace paths, setup output, …). */
  verbose?: boolean;
  /**
   * Runs after each agent, before teardown. Default: the scoring stage, exactly as `axis run` scores
   * (checks, sparse index, judges); pass your own hook to replace it.
   */
  afterAgent?: AfterAgentHook;
  /** false (`--no-score`): deterministic checks only, no judges. Default true. */
  score?: boolean;
  /** false (`--no-cache`): ask the judges even when an answer is cached. Default true. */
  cache?: boolean;
  /** Compare the report with a baseline (`true`: `main`; a name; or a Baseline). Missing → exit 2 before any job. */
  compareBaseline?: string | boolean | Baseline;
  /** Base of relative paths and config discovery; default process.cwd(). */
  cwd?: string;
  /**
   * Run only shard k of n (`"2/3"` or `{ index: 2, total: 3 }`) and write its blob (docs/ci.md). Every
   * shard must see the same config, filters, runs and `shardDurations`.
   */
  shard?: string | ShardSpec;
  /** Balance the split by these durations: a report.json (or its directory), or a map by job key. */
  shardDurations?: string | JobDurations;
  /** Where the shard's blob goes; default `<configDir>/.axis/blobs/`. */
  blobDir?: string;
}

export interface RunOutcome {
  reportId: string;
  /** Absolute. */
  reportDir: string;
  manifest: ReportManifest;
  /** One per job, in plan order. */
  results: JobResult[];
  incomplete: boolean;
  /** The external signal stopped the run (Ctrl-C). */
  interrupted: boolean;
  afterAllError?: string;
  /**
   * Parts of the report that could not be written (disk full, …), by report-relative path. report.json
   * never names them as written; the last report.json that could be written stays in place.
   */
  lost: StoreFailure[];
  /** `shard` runs: the blob written (absolute path), or why it could not be (then exitCode is 1). */
  blob?: { path: string; shard: ShardSpec; jobs: number; planJobs: number };
  blobError?: string;
  /** The CI gate: failed pairs, thresholds and (with `compareBaseline`) regressions. */
  verdict: RunVerdict;
  comparison?: Comparison;
  /**
   * 0 when the verdict passes; 1 when it does not (a pair failed, a threshold was missed, a regression),
   * the run is incomplete, afterAll failed, a part of the report was lost or the blob was not written.
   * (Ctrl-C exit codes are the CLI's.)
   */
  exitCode: 0 | 1;
}

export const MAX_RUNS = 19;

/** incompleteReason of the report.json written while jobs are still running. */
const IN_PROGRESS = 'the run had not finished when this report was written';

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

export async function run(options: RunOptions = {}): Promise<RunOutcome> {
  const startedAt = new Date();
  const cwd = options.cwd ?? process.cwd();
  const emit = (event: RunEvent): void => {
    if (event.type === 'log' && event.level === 'verbose' && !options.verbose && !options.debug) return;
    try {
      options.onEvent?.(event);
    } catch {
      // a rendering callback must not break the run
    }
  };
  const warn = (message: string) => emit({ type: 'log', level: 'warn', message });
  const verbose = (message: string) => emit({ type: 'log', level: 'verbose', message });

  // Validate CLI overrides before any work.
  const concurrencyOverride =
    options.concurrency !== undefined ? parseConcurrency(options.concurrency, '--concurrency') : undefined;
  const runsOverride = options.runs !== undefined ? parseRuns(options.runs) : undefined;
  const shardSpec =
    options.shard === undefined
      ? undefined
      : typeof options.shard === 'string'
        ? parseShard(options.shard)
        : parseShard(`${options.shard.index}/${options.shard.total}`, 'shard');
  if (options.shardDurations !== undefined && !shardSpec)
    throw new AxisError('--shard-durations balances a sharded run: use it with --shard k/n', { exitCode: 2 });

  if (options.config !== undefined && (typeof options.config !== 'object' || !('config' in options.config)))
    throw new AxisError(
      `run({ config }): expected a loaded config from loadConfig(), found ${typeof options.config === 'string' ? `the string ${JSON.stringify(options.config)}: pass a path as run({ configPath })` : typeof options.config}`,
      { exitCode: 2 },
    );
  const loaded = options.config ?? (await loadConfig(options.configPath, { profile: options.profile, cwd }));
  await prepareHost(verbose, loaded.config.settings.sandbox);
  const config = loaded.config;
  for (const notice of loaded.notices ?? []) emit({ type: 'log', level: 'warn', message: notice });
  const concurrency =
    concurrencyOverride ?? parseConcurrency(config.settings.concurrency, 'settings.concurrency');
  const settings = { ...config.settings, runs: runsOverride ?? config.settings.runs };
  const fullPlan = selectJobs(
    planJobs(
      { config: { ...config, settings }, scenarios: loaded.scenarios },
      { scenarios: options.scenarios, agents: options.agents, tags: options.tags },
    ),
    options,
  );
  const sharding = shardSpec
    ? await import('./shard.js').then((m) =>
        m.prepareShard(loaded, fullPlan, shardSpec, options.shardDurations, cwd),
      )
    : undefined;
  const plan = sharding?.selection.plan ?? fullPlan;
  for (const line of describeIsolation(settings, plan.scenarios)) verbose(line);
  if (fullPlan.jobs.length === 0) {
    throw new AxisError(
      "Nothing to run: every selected scenario is skipped or excluded by the agents' and scenarios' filters.",
      { exitCode: 2 },
    );
  }

  const simulate = config.settings.simulate !== false;
  const adapters = await loadAdapters(
    plan.agents.map((a) => a.agent),
    loaded,
  );
  const auth = preflight(plan.agents, adapters, config.env.values, simulate);
  // Both fail here (exit 2), before any agent runs: a judge without credentials, a missing baseline.
  const afterAgent =
    options.afterAgent ??
    createScoringStage({
      loaded,
      score: options.score !== false,
      cache: options.cache !== false,
      onWarning: warn,
    }).afterAgent;
  const baseline = await baselineToCompare(loaded.configDir, options.compareBaseline);
  const skills = await resolveSkillSources(
    [...config.skills, ...plan.agents.flatMap((a) => a.skills), ...plan.scenarios.flatMap((s) => s.skills)],
    loaded.configDir,
    { refresh: options.refreshSkills ?? false },
  );
  for (const note of skills.notes) verbose(note);
  const tapes = simulate ? await preloadTapes(plan.scenarios.map((s) => s.tape)) : undefined;

  // Everything secret the run could write: host variables and the config's explicit values.
  const secrets = secretValues({
    ...process.env,
    ...prefixed(config.env.values),
    ...Object.assign({}, ...plan.agents.map((a) => prefixed(a.env))),
  });

  // Before any hook or job: a store that cannot be written is one clear error (exit 2).
  const store = await ReportStore.create({ configDir: loaded.configDir, startedAt, secrets });

  // Run-level hooks run in the config dir with the minimal env (no job HOME).
  const hookEnv = buildAgentEnv({
    home: process.env.HOME ?? loaded.configDir,
    passthrough: config.env.pass,
    values: config.env.values,
  });
  const hooks: NonNullable<ReportManifest['hooks']> = {};
  // What beforeAll starts in the background (a shared service) lives until the run ends.
  const runTag = newTag();
  const endRunServices = async () => {
    if (runTag && (await killTagged(runTag)) > 0) verbose('ended the processes run-level hooks left running');
  };
  if (config.beforeAll.length > 0) {
    verbose('beforeAll');
    const res = await runLifecyclePhase({
      ...(runTag ? { scopeTag: runTag } : {}),
      phase: 'beforeAll',
      actions: config.beforeAll,
      cwd: loaded.configDir,
      configDir: loaded.configDir,
      workspace: loaded.configDir,
      env: hookEnv,
      signal: options.signal,
      log: verbose,
    });
    if (!res.ok) {
      await endRunServices();
      // Nothing was run: no report, and no empty store folders left behind (rmdir keeps non-empty ones).
      await rm(store.dir, { recursive: true, force: true }).catch(() => {});
      for (const dir of [dirname(store.dir), dirname(dirname(store.dir))]) await rmdir(dir).catch(() => {});
      throw new AxisError(`beforeAll failed, no job was run:\n${res.failure?.message ?? 'unknown error'}`, {
        exitCode: 1,
      });
    }
    hooks.beforeAll = hookRecord(res.ok, res.notes);
  }

  const configRel = relative(loaded.configDir, loaded.configPath).split('\\').join('/');
  const skippedScenarios = plan.skipped.map((s) => s.key);
  const manifestFor = (results: readonly JobResult[], incomplete: boolean, incompleteReason?: string) =>
    buildManifest({
      reportId: store.id,
      name: config.name,
      startedAt,
      now: new Date(),
      incomplete,
      incompleteReason: incompleteReason ?? (incomplete ? IN_PROGRESS : undefined),
      config: configRel,
      profile: loaded.profile,
      settings: { concurrency, runs: settings.runs, simulate },
      results,
      skippedScenarios,
      hooks: Object.keys(hooks).length ? hooks : undefined,
      rerunOf: options.rerunOf,
      ...(shardSpec ? { shard: shardSpec } : {}),
    });

  // report.json: written now, rewritten (coalesced) while jobs finish, and once more at the end.
  const finished: JobResult[] = [];
  let current = (): ReportManifest => manifestFor(finished, true);
  const writeManifest = (): Promise<void> =>
    store
      .writeManifest(current())
      .catch((err: unknown) => warn(`Could not write report.json: ${errorText(err)}`));
  const manifestWriter = createReportWriter(writeManifest);
  await writeManifest();

  const refs = plan.jobs.map(jobRef);
  emit({
    type: 'run_started',
    reportId: store.id,
    reportDir: store.dir,
    jobs: refs,
    scenarios: new Set(plan.scenarios.map((s) => s.baseKey)).size,
    agents: plan.agents.length,
    concurrency,
    simulate,
  });
  for (const job of refs) emit({ type: 'job_queued', job });

  const controller = new AbortController();
  const forward = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  else options.signal?.addEventListener('abort', forward, { once: true });
  const limits = new RunLimits(config.settings.limits.run, controller);
  limits.start();

  const services: JobServices = {
    loaded,
    store,
    adapters: adapters as ReadonlyMap<string, AgentAdapter>,
    auth,
    simulate,
    debug: options.debug ?? false,
    skills,
    ...(tapes ? { tapes } : {}),
    afterAgent,
    emit,
    onTokens: (delta) => limits.addTokens(delta),
    sandbox: config.settings.sandbox,
  };

  const byIndex = new Array<JobResult | undefined>(plan.jobs.length);
  const unstarted: Promise<void>[] = [];
  const record = (result: JobResult): void => {
    byIndex[result.index] = result;
    finished.push(result);
    emit({ type: 'job_finished', job: refs[result.index]!, result });
    manifestWriter.changed();
  };

  try {
    await runPool(
      plan.jobs.map((job) => async ({ signal }) => {
        const result = await runJob(job, services, signal);
        record(result);
        return result;
      }),
      {
        concurrency,
        signal: controller.signal,
        onSettled: (index, res) => {
          const job = plan.jobs[index]!;
          if (res.status === 'cancelled') {
            const stop = stopOf(controller.signal.reason);
            const outcome = stop
              ? { status: 'cancelled' as const, errorClass: 'cancelled' as const, reason: stop.message }
              : { status: 'cancelled' as const, errorClass: 'cancelled' as const, reason: res.reason };
            unstarted.push(unstartedJobResult(job, store, loaded.configDir, outcome).then(record));
          } else if (res.status === 'failed' && !byIndex[index]) {
            // runJob never throws; if it somehow did, the job still gets a result.
            const outcome = {
              status: 'failed' as const,
              errorClass: 'crash' as const,
              reason: `Internal error: ${res.message}`,
            };
            unstarted.push(unstartedJobResult(job, store, loaded.configDir, outcome).then(record));
          }
        },
      },
    );
    await Promise.all(unstarted);
  } finally {
    limits.dispose();
    options.signal?.removeEventListener('abort', forward);
  }

  const results = byIndex.filter((r): r is JobResult => r !== undefined);
  const interrupted = options.signal?.aborted ?? false;
  const incomplete = controller.signal.aborted || results.some((r) => r.status === 'cancelled');
  const incompleteReason = controller.signal.aborted ? abortReasonText(controller.signal.reason) : undefined;
  let manifest = manifestFor(results, incomplete, incompleteReason);
  current = () => manifest;
  await manifestWriter.flush();

  let afterAllError: string | undefined;
  // afterAll is cleanup too (it may stop what beforeAll started): it runs after Ctrl-C as well.
  if (config.afterAll.length > 0) {
    verbose('afterAll');
    const res = await runLifecyclePhase({
      ...(runTag ? { scopeTag: runTag } : {}),
      phase: 'afterAll',
      actions: config.afterAll,
      cwd: loaded.configDir,
      configDir: loaded.configDir,
      workspace: loaded.configDir,
      env: hookEnv,
      vars: {
        reportDir: store.dir,
        extra: {
          AXIS_REPORT_ID: store.id,
          AXIS_TOTAL: String(manifest.summary.total),
          AXIS_COMPLETED: String(manifest.summary.completed),
          AXIS_FAILED: String(manifest.summary.failed),
          AXIS_DURATION_MS: String(manifest.durationMs),
        },
      },
      log: verbose,
    });
    if (!res.ok) afterAllError = `afterAll failed:\n${res.failure?.message ?? 'unknown error'}`;
    hooks.afterAll = hookRecord(res.ok, res.notes, afterAllError);
    manifest = { ...manifest, hooks };
    await writeManifest();
  }
  await endRunServices();

  // report.html sits next to the final report.json, built from what is in memory (nothing is read back).
  // A failure never costs the JSON, but it is a lost part of the report like any other.
  await writeHtml(store, manifest, results).catch((err: unknown) => {
    if (!store.failures.some((f) => f.path === 'report.html')) store.recordFailure('report.html', err);
    warn(`Could not write report.html: ${errorText(err)}`);
  });

  // The blob is the shard's whole contribution to the merged report: failing to write it fails the run.
  const packed = sharding ? await sharding.pack(store.dir, store.id, options.blobDir) : undefined;

  emit({ type: 'run_finished', manifest, reportDir: store.dir, incomplete });
  // A pair fails only when none of its runs completed; crashed runs of a completed pair lower its
  // reliability (gated by settings.thresholds.reliability). An unfinished run never passes.
  const { verdict, comparison } = gate(manifest, loaded, plan.scenarios, baseline);
  const lost = [...store.failures];
  return {
    reportId: store.id,
    reportDir: store.dir,
    manifest,
    results,
    incomplete,
    interrupted,
    ...(afterAllError ? { afterAllError } : {}),
    lost,
    ...(packed ?? {}),
    verdict,
    ...(comparison ? { comparison } : {}),
    exitCode:
      verdict.pass && !incomplete && !afterAllError && lost.length === 0 && !(packed && 'blobError' in packed)
        ? 0
        : 1,
  };
}

/** report.html from the final manifest and the (already scrubbed) results in memory. */
async function writeHtml(store: ReportStore, manifest: ReportManifest, results: readonly JobResult[]) {
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
  await store.write('report.html', await html.renderReportHtmlFrom(store.dir, { manifest, details }));
}

/**
 * Checks every agent's credentials before any job starts. Against the simulator, agents whose provider
 * variables the simulator supplies need none.
 */
function preflight(
  agents: readonly ResolvedAgent[],
  adapters: ReadonlyMap<string, AgentAdapter>,
  configEnv: Readonly<Record<string, string>>,
  simulate: boolean,
): Map<string, AuthResolution> {
  const subjects: AuthSubject[] = [];
  for (const agent of agents) {
    const adapter = adapters.get(agent.agent);
    if (!adapter) continue;
    if (simulate && (adapter.providerEnvFor || adapter.providerEnv.length > 0)) continue;
    subjects.push({ adapter, name: agent.name, env: { ...configEnv, ...agent.env } });
  }
  return preflightAuth(subjects, process.env, homedir());
}

/** Keeps only the requested exact pairs (for `--failed`). */
function selectJobs(plan: Plan, options: RunOptions): Plan {
  if (!options.only) return plan;
  const wanted = new Set(options.only.map((p) => `${p.scenarioKey}\u0000${p.agentName}`));
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

function hookRecord(ok: boolean, notes: string, error?: string): HookRecord {
  return { ok, ...(error ? { error } : {}), ...(notes ? { notes } : {}) };
}

/** Names prefixed so explicit values count as secrets only when their own name looks secret. */
function prefixed(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) out[`__cfg_${k}`] = v;
  return out;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export type { JobRef, RunEvent };

/** Says which containment is in force, and reaps what a killed earlier AXIS left behind. */
async function prepareHost(verbose: (message: string) => void, sandbox: 'none' | 'bwrap'): Promise<void> {
  if (sandbox === 'bwrap') {
    const problem = bwrapProblem();
    // Running unsandboxed would silently ignore the setting.
    if (problem)
      throw new AxisError(`settings.sandbox is "bwrap", but ${problem}. Nothing was run.`, { exitCode: 2 });
    verbose(
      'containment: bubblewrap sandbox per process (host filesystem read-only, own PID namespace, private /tmp)',
    );
  } else verbose(containment().description);
  setSpawnerNotice(verbose);
  verbose(spawnerDescription());
  const swept = await sweepLeftovers();
  if (swept.processes.length > 0 || swept.dirs.length > 0) {
    verbose(
      `start-up sweep: killed ${swept.processes.length} process(es) and removed ${swept.dirs.length} temp dir(s) left by an AXIS that is no longer running`,
    );
  }
}
