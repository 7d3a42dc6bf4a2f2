/**
 * `run()`: the whole `axis run` minus the terminal. Loads the config once, plans the jobs, checks auth,
 * runs `beforeAll`, executes the jobs in a pool (each isolated: one failing never stops the others),
 * writes the raw store after every job, runs `afterAll`, and returns the report.
 */
import { relative } from 'node:path';
import { buildManifest } from '../report/build-manifest.js';
import type { ReportManifest } from '../report/manifest.js';
import { ReportStore } from '../report/store.js';
import { gate } from '../compare/gate.js';
import type { Comparison } from '../compare/compare.js';
import { AxisError } from '../util/errors.js';
import { flushAtExit, flushedNow, type Flushable } from '../util/exit-flush.js';
import type { JobRef, RunEvent } from './events.js';
import type { RunOptions, RunOutcome } from './run-options.js';
import type { JobServices } from './job-types.js';
import { jobRef } from './job-state.js';
import type { JobResult } from '../report/job-result.js';
import { abortReasonText } from '../exec/process.js';
import { createReportWriter } from './report-writer.js';
import { prepareRun, runHooks, runLog, type PreparedRun, type RunHooks, type RunLog } from './run-setup.js';
import {
  afterAllVars,
  errorText,
  executeJobs,
  hookRecord,
  removeEmptyStore,
  runRunHook,
  writeHtml,
} from './run-steps.js';

/** incompleteReason of the report.json written while jobs are still running. */
const IN_PROGRESS = 'the run had not finished when this report was written';

export async function run(options: RunOptions = {}): Promise<RunOutcome> {
  const startedAt = new Date();
  const log = runLog(options);
  const prep = await prepareRun(options, options.cwd ?? process.cwd(), log);
  const { loaded, config } = prep;

  // Before any hook or job: a store that cannot be written is one clear error (exit 2).
  const store = await ReportStore.create({ configDir: loaded.configDir, startedAt, secrets: prep.secrets });
  const hookRun = runHooks(loaded, log.verbose);
  const hooks: Hooks = {};
  if (config.beforeAll.length > 0) hooks.beforeAll = await runBeforeAll(prep, store, hookRun, options, log);
  const manifestFor = manifestBuilder(prep, store, startedAt, hooks, options);

  // report.json: written now, rewritten (coalesced) while jobs finish, and once more at the end.
  const finished: JobResult[] = [];
  let current = (): ReportManifest => manifestFor(finished, true);
  const writeManifest = (): Promise<void> =>
    store
      .writeManifest(current())
      .catch((err: unknown) => log.warn(`Could not write report.json: ${errorText(err)}`));
  const manifestWriter = createReportWriter(writeManifest);
  await writeManifest();
  // A second Ctrl-C or a crash exits at once: report.json still gets every job that finished by then.
  const atExit: Flushable = { flush: () => manifestWriter.exiting(() => writeManifestNow(store, current())) };
  flushAtExit(atExit);

  const { results, controller } = await runJobs(prep, store, options, log.emit, (result, ref) => {
    finished.push(result);
    log.emit({ type: 'job_finished', job: ref, result });
    // After the last job the final report.json follows at once: a rewrite now would serialize every
    // score twice (a 20 MB run's report.json is 8 MB).
    if (finished.length < prep.plan.jobs.length) manifestWriter.changed();
  });

  const interrupted = options.signal?.aborted ?? false;
  const incomplete = controller.signal.aborted || results.some((r) => r.status === 'cancelled');
  const incompleteReason = controller.signal.aborted ? abortReasonText(controller.signal.reason) : undefined;
  // The gate is judged before the final report.json, so the file holds the verdict the run exits with.
  const gated = gatedManifest(prep, manifestFor(results, incomplete, incompleteReason));
  let manifest = gated.manifest;
  current = () => manifest;
  await manifestWriter.flush();
  flushedNow(atExit);

  let afterAllError: string | undefined;
  // afterAll is cleanup too (it may stop what beforeAll started): it runs after Ctrl-C as well.
  if (config.afterAll.length > 0) {
    log.verbose('afterAll');
    // A second Ctrl-C (or a crash) exits while afterAll runs: report.json must not read as if it passed.
    const cut = { ...hooks, afterAll: hookRecord(false, '', AFTER_ALL_CUT) };
    const atExitHook: Flushable = { flush: () => writeManifestNow(store, { ...manifest, hooks: cut }) };
    flushAtExit(atExitHook);
    const res = await runRunHook(
      { ...hookRun.base, vars: afterAllVars(store, manifest) },
      'afterAll',
      config.afterAll,
    );
    flushedNow(atExitHook);
    // Scrubbed here, not only in report.json: the outcome is printed (`--json`, `-o`, stderr) as it is.
    const scrub = store.scrubber();
    if (!res.ok) afterAllError = scrub.text(`afterAll failed:\n${res.failure?.message ?? 'unknown error'}`);
    hooks.afterAll = scrub.value(hookRecord(res.ok, res.notes, afterAllError));
    manifest = { ...manifest, hooks };
    await writeManifest();
  }
  await hookRun.endServices();
  const { comparison } = gated;
  return finishRun({
    prep,
    store,
    manifest,
    comparison,
    results,
    incomplete,
    interrupted,
    afterAllError,
    options,
    log,
  });
}

/**
 * The manifest with the gate's verdict, and the baseline comparison it came from. A pair fails only when
 * none of its runs completed; crashed runs of a completed pair lower its reliability (gated by
 * settings.thresholds.reliability). An unfinished run never passes.
 */
function gatedManifest(
  prep: PreparedRun,
  m: ReportManifest,
): { manifest: ReportManifest; comparison?: Comparison } {
  const { verdict, comparison } = gate(m, prep.loaded, prep.plan.scenarios, prep.baseline);
  return { manifest: { ...m, verdict }, ...(comparison ? { comparison } : {}) };
}

type Hooks = NonNullable<ReportManifest['hooks']>;

const AFTER_ALL_CUT =
  'afterAll failed:\nAXIS exited while afterAll ran (a second Ctrl-C or SIGTERM, or a crash); it did not finish';

/** report.json written synchronously by a process about to exit: a failure can only be said. */
function writeManifestNow(store: ReportStore, manifest: ReportManifest): void {
  try {
    store.writeManifestSync(manifest);
  } catch (err) {
    process.stderr.write(`axis: could not write report.json: ${errorText(err)}\n`);
  }
}

/** beforeAll: when it fails, no job runs, the empty report dir goes, and the run fails (exit 1). */
async function runBeforeAll(
  prep: PreparedRun,
  store: ReportStore,
  hookRun: RunHooks,
  options: RunOptions,
  log: RunLog,
): Promise<Hooks['beforeAll']> {
  log.verbose('beforeAll');
  const res = await runRunHook(
    { ...hookRun.base, signal: options.signal },
    'beforeAll',
    prep.config.beforeAll,
  );
  if (!res.ok) {
    await hookRun.endServices();
    await removeEmptyStore(store.dir);
    const why = store.scrubber().text(res.failure?.message ?? 'unknown error');
    throw new AxisError(`beforeAll failed, no job was run:\n${why}`, { exitCode: 1 });
  }
  return store.scrubber().value(hookRecord(res.ok, res.notes));
}

/** report.json's manifest of the given results, with the run's hooks as recorded so far. */
function manifestBuilder(
  prep: PreparedRun,
  store: ReportStore,
  startedAt: Date,
  hooks: Hooks,
  options: RunOptions,
): (results: readonly JobResult[], incomplete: boolean, incompleteReason?: string) => ReportManifest {
  const { loaded, config, concurrency, settings, simulate } = prep;
  const configRel = relative(loaded.configDir, loaded.configPath).split('\\').join('/');
  const skippedScenarios = prep.plan.skipped.map((s) => s.key);
  return (results, incomplete, incompleteReason) =>
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
      ...(prep.shardSpec ? { shard: prep.shardSpec } : {}),
    });
}

/** Announces the jobs and runs them in the pool; each result goes to `onFinished` as it comes. */
async function runJobs(
  prep: PreparedRun,
  store: ReportStore,
  options: RunOptions,
  emit: RunLog['emit'],
  onFinished: (result: JobResult, ref: JobRef) => void,
): Promise<{ results: JobResult[]; controller: AbortController }> {
  const { plan, concurrency, simulate } = prep;
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
  const byIndex = new Array<JobResult | undefined>(plan.jobs.length);
  try {
    await executeJobs({
      plan,
      services: jobServices(prep, store, options, emit),
      concurrency,
      controller,
      signal: options.signal,
      limits: prep.config.settings.limits.run,
      record: (result) => {
        byIndex[result.index] = result;
        onFinished(result, refs[result.index]!);
      },
      alreadyRecorded: (index) => byIndex[index] !== undefined,
    });
  } finally {
    prep.stage?.close();
  }
  return { results: byIndex.filter((r): r is JobResult => r !== undefined), controller };
}

/** Everything a job needs from the run. */
function jobServices(
  prep: PreparedRun,
  store: ReportStore,
  options: RunOptions,
  emit: RunLog['emit'],
): Omit<JobServices, 'onTokens'> {
  return {
    loaded: prep.loaded,
    store,
    adapters: prep.adapters,
    auth: prep.auth,
    simulate: prep.simulate,
    debug: options.debug ?? false,
    skills: prep.skills,
    ...(prep.tapes ? { tapes: prep.tapes } : {}),
    mcpServers: prep.mcpServers,
    afterAgent: prep.afterAgent,
    emit,
    sandbox: prep.config.settings.sandbox,
  };
}

interface FinishRun {
  prep: PreparedRun;
  store: ReportStore;
  manifest: ReportManifest;
  comparison: Comparison | undefined;
  results: JobResult[];
  incomplete: boolean;
  interrupted: boolean;
  afterAllError: string | undefined;
  options: RunOptions;
  log: RunLog;
}

/** After the last report.json: report.html, the shard's blob, the verdict and the exit code. */
async function finishRun(x: FinishRun): Promise<RunOutcome> {
  const { prep, store, manifest, comparison, results, incomplete, interrupted, afterAllError } = x;
  // report.html sits next to the final report.json, built from what is in memory (nothing is read back).
  // A failure never costs the JSON, but it is a lost part of the report like any other.
  await writeHtml(store, manifest, results).catch((err: unknown) => {
    if (!store.failures.some((f) => f.path === 'report.html')) store.recordFailure('report.html', err);
    x.log.warn(`Could not write report.html: ${errorText(err)}`);
  });

  // The blob is the shard's whole contribution to the merged report: failing to write it fails the run.
  const packed = prep.sharding ? await prep.sharding.pack(store.dir, store.id, x.options.blobDir) : undefined;

  x.log.emit({ type: 'run_finished', manifest, reportDir: store.dir, incomplete });
  const verdict = manifest.verdict!; // gatedManifest, before the final report.json
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

export type { JobRef, RunEvent };
export { MAX_RUNS, parseRuns } from './run-steps.js';
