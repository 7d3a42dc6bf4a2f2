/**
 * `axis run`: a thin layer over `run()`. Parses flags, resolves `--failed`, installs the Ctrl-C handler and
 * hands every event to the reporters (src/reporters: terminal, json, junit, github).
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { findConfig } from '../../config/find.js';
import type { LoadedConfig } from '../../config/types.js';
import { failedPairs, type ReportManifest } from '../../report/manifest.js';
import { readManifest, resolveReportId } from '../../report/locate.js';
import { safeText } from '../../report/format.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { ensureDir } from '../../util/ensure-dir.js';
import { writeOutputFile } from '../../util/output-file.js';
import { EXIT_CODES, installInterruptHandler, type InterruptSignal } from '../../exec/cleanup.js';
import { startPrivateTmpCheck } from '../../exec/job-space.js';
import type { RunVerdict } from '../../compare/verdict-types.js';
import {
  createReporters,
  Dispatcher,
  parseReporterSpecs,
  type ReporterSpec,
  type RunEnd,
  type Screen,
} from '../../reporters/index.js';
import { compactHeap, heapForRun } from '../../runner/heap.js';
import { loadConfigForRun } from '../../runner/load-for-run.js';
import { lateTierUp } from '../../runner/tiering.js';
import { parseConcurrency } from '../../runner/pool.js';
import { parseShard } from '../../plan/shard.js';
import { parseRuns, run } from '../../runner/run.js';
import type { RunOptions, RunOutcome } from '../../runner/run-options.js';
import { AxisError, noteRunFolder } from '../../util/errors.js';
import { loadConfigForReport, reportProfileNote, reportRuns } from '../report-profile.js';
import { configFlag } from '../config-flag.js';
import { shownPath } from '../../util/shown-path.js';

export interface RunCommandOptions {
  config?: string;
  profile?: string;
  scenario?: string;
  agent?: string;
  concurrency?: string;
  runs?: string;
  /** `true` for a bare `--failed` (latest report). */
  failed?: string | boolean;
  json?: boolean;
  verbose?: boolean;
  debug?: boolean;
  outputDir?: string;
  /** false with --no-score: deterministic checks only, no judges. */
  score?: boolean;
  /** false with --no-cache: judges are asked even when their answer is cached. */
  cache?: boolean;
  tag?: string;
  refreshSkills?: boolean;
  /** `--reporter` values (repeatable): list, json[=file], junit[=file], github. */
  reporter?: string[];
  /** `k/n`: run one shard and write its blob. */
  shard?: string;
  shardDurations?: string;
  /** `true` for a bare `--compare-baseline` (the `main` baseline). */
  compareBaseline?: string | boolean;
}

export default function runCommand(opts: RunCommandOptions): Promise<number> {
  // The CLI owns its process; a library caller's heap and tiering are left alone.
  compactHeap();
  lateTierUp();
  return runAndReport(opts);
}

async function runAndReport(given: RunCommandOptions): Promise<number> {
  const cwd = process.cwd();
  const specs = parseReporterSpecs(given.reporter ?? [], cwd);
  // `--reporter json` without a file is `--json`: stdout holds its document and nothing else.
  const opts = specs.some((s) => s.name === 'json' && !s.file) ? { ...given, json: true } : given;
  const { concurrency, runs: flagRuns, shard } = parseRunFlags(opts);
  // The host's checks (in the spawner, started with the command) run while the config loads.
  startPrivateTmpCheck();
  const { loaded, previous } = await configAndPrevious(opts, cwd);
  // -o is checked (and made) before any job runs: finding it unusable after the run would lose the gate.
  if (opts.outputDir !== undefined) await prepareOutputDir(resolve(cwd, opts.outputDir), opts.outputDir);
  const rerun = await failedToRerun(opts, previous, specs, cwd);
  if (!rerun) return 0;
  const { only, rerunOf } = rerun;
  const runs = flagRuns ?? (previous ? reportRuns(previous.manifest, previous.id, loaded) : undefined);

  const screen: Screen = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd };
  const reporters = new Dispatcher(
    await createReporters(specs, screen, { json: opts.json ?? false }),
    screen,
  );
  try {
    return await runWithReporters(opts, {
      loaded,
      cwd,
      only,
      rerunOf,
      concurrency,
      runs,
      shard,
      reporters,
    });
  } catch (err) {
    reporters.error(err, err instanceof AxisError ? err.exitCode : 1);
    // One run, one report folder: CI's failure outputs go into the run's own, once it has one.
    if (reporters.reportDir) noteRunFolder(err, reporters.reportDir);
    throw err;
  } finally {
    reporters.dispose();
  }
}

/** The flags that can be wrong on their own: they fail before anything is loaded. */
function parseRunFlags(opts: RunCommandOptions): Pick<RunContext, 'concurrency' | 'runs' | 'shard'> {
  if (
    opts.failed !== undefined &&
    (opts.scenario !== undefined || opts.agent !== undefined || opts.tag !== undefined)
  ) {
    throw new AxisError(
      '--failed cannot be combined with -s/--scenario, -a/--agent or -t/--tag: it re-runs exactly the failed pairs',
      {
        exitCode: 2,
      },
    );
  }
  const concurrency =
    opts.concurrency !== undefined ? parseConcurrency(opts.concurrency, '--concurrency') : undefined;
  const runs = opts.runs !== undefined ? parseRuns(opts.runs) : undefined;
  const shard = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
  if (opts.shardDurations !== undefined && !shard)
    throw new AxisError('--shard-durations balances a sharded run: use it with --shard k/n', { exitCode: 2 });
  return { concurrency, runs, shard };
}

/** The report `--failed` re-runs. */
interface Previous {
  id: string;
  manifest: ReportManifest;
}

/**
 * The config and, with `--failed`, the report it re-runs: the config is loaded with `--profile`, else with
 * the profile that report was made with, so its pairs and settings are the ones that failed.
 */
async function configAndPrevious(
  opts: RunCommandOptions,
  cwd: string,
): Promise<{ loaded: LoadedConfig; previous?: Previous }> {
  const wanted = typeof opts.failed === 'string' ? opts.failed : undefined;
  const read = async (configDir: string): Promise<Previous> => {
    const id = await resolveReportId(configDir, wanted);
    return { id, manifest: await readManifest(configDir, id) };
  };
  // As the run will check them: no judge key under --no-score, no stale skills cache with --refresh-skills.
  const checks = { judge: opts.score !== false, refreshSkills: opts.refreshSkills ?? false };
  if (opts.failed === undefined) {
    const loaded = await loadConfigForRun(
      opts.config,
      { ...(opts.profile !== undefined ? { profile: opts.profile } : {}), cwd, ...checks },
      { scenarios: opts.scenario, agents: opts.agent, tags: opts.tag },
    );
    return { loaded };
  }
  const previous = await read(dirname(findConfig(opts.config, cwd)));
  // Beside a broken scenario file, only the pairs it re-runs have their missing tapes listed.
  const only = failedPairs(previous.manifest);
  if (opts.profile !== undefined) {
    const loaded = await loadConfigForRun(opts.config, { profile: opts.profile, cwd, ...checks }, { only });
    return { loaded, previous };
  }
  const reportProfile = previous.manifest.profile;
  const { loaded, fromReport } = await loadConfigForReport({
    config: opts.config,
    cwd,
    profile: undefined,
    subject: `Report ${previous.id}`,
    reportProfile,
    proceed: 'Pass --profile <name> to re-run its failed pairs with a profile the config declares.',
    load: (path, options) => loadConfigForRun(path, { ...options, ...checks }, { only }),
  });
  if (fromReport) process.stderr.write(reportProfileNote(reportProfile!, previous.id));
  return { loaded, previous };
}

/**
 * With `--failed`, the failed pairs of that report; null when it has none (said, and an empty document
 * for each json output: nothing to run). Without it, no restriction.
 */
async function failedToRerun(
  opts: RunCommandOptions,
  previous: Previous | undefined,
  specs: readonly ReporterSpec[],
  cwd: string,
): Promise<Pick<RunContext, 'only' | 'rerunOf'> | null> {
  if (!previous) return { only: undefined, rerunOf: undefined };
  const rerunOf = previous.id;
  const only = failedPairs(previous.manifest);
  // stdout holds one document: the notes go to stderr then.
  const note = opts.json ? process.stderr : process.stdout;
  if (only.length > 0) {
    note.write(`Re-running ${only.length} failed pair(s) of report ${rerunOf}\n`);
    return { only, rerunOf };
  }
  note.write(`Report ${rerunOf} has no failed pairs: nothing to re-run.\n`);
  const doc = `${JSON.stringify({ rerunOf, results: [] }, null, 2)}\n`;
  if (opts.json) process.stdout.write(doc);
  for (const { name, file } of specs)
    if (name === 'json' && file) await writeOutputFile(resolve(cwd, file), doc, `--reporter json=${file}`);
  return null;
}

interface RunContext {
  loaded: LoadedConfig;
  cwd: string;
  only: { scenarioKey: string; agentName: string }[] | undefined;
  rerunOf: string | undefined;
  concurrency: number | undefined;
  runs: number | undefined;
  shard: ReturnType<typeof parseShard> | undefined;
  reporters: Dispatcher;
}

async function runWithReporters(opts: RunCommandOptions, ctx: RunContext): Promise<number> {
  const { cwd, reporters } = ctx;
  const interrupts = watchInterrupts(reporters);
  const outcome = await runJobs(opts, ctx, interrupts);
  // The jobs' lines before anything this command prints itself.
  reporters.flush();
  const end = runEnd(opts, cwd, outcome);
  if (opts.debug) {
    process.stderr.write(
      `--debug: raw agent output kept beside each run as <agent>.debug.ndjson and <agent>.debug.stderr.log under ${end.reportRel}/scenarios/\n`,
    );
  }
  // The verdict report.json holds: -o, the reporters and the exit code show that one.
  const verdict = outcome.verdict;
  if (opts.outputDir) {
    const file = await writeManifestCopy(resolve(cwd, opts.outputDir), outcome, end.reportRel, verdict);
    if (!opts.json) process.stdout.write(`Manifest also written to ${shownPath(file, cwd)}\n`);
  }
  await reporters.end(end, verdict);
  printAfterEnd(opts, outcome, end.blob);

  const interruptedBy = interrupts.by();
  if (interruptedBy) return EXIT_CODES[interruptedBy];
  return outcome.exitCode;
}

/** Ctrl-C during the run: the first stops it (its results kept), the second kills every agent. */
interface Interrupts {
  signal: AbortSignal;
  uninstall: () => void;
  /** The first signal, once one came. */
  by: () => InterruptSignal | undefined;
}

function watchInterrupts(reporters: Dispatcher): Interrupts {
  const controller = new AbortController();
  let interruptedBy: InterruptSignal | undefined;
  const uninstall = installInterruptHandler({
    controller,
    onFirst: (signal) => {
      interruptedBy = signal;
      reporters.flush();
      const what = reporters.begun
        ? `${signal} received: stopping running jobs, cancelling the rest; finished results are kept and the report is still written.`
        : `${signal} received before any job started (beforeAll, preparation): no job has run, so no report is written.`;
      process.stderr.write(`\n${what}\nPress Ctrl-C again to exit immediately.\n`);
    },
    onForce: (signal) => {
      reporters.flush();
      process.stderr.write(`\n${signal} again: killing every agent process and exiting.\n`);
    },
  });
  return { signal: controller.signal, uninstall, by: () => interruptedBy };
}

async function runJobs(
  opts: RunCommandOptions,
  ctx: RunContext,
  interrupts: Interrupts,
): Promise<RunOutcome> {
  try {
    return await run(runOptions(opts, ctx, interrupts.signal));
  } catch (err) {
    // Ctrl-C before any job ran (during beforeAll): the signal's exit code, not a failure's.
    const interruptedBy = interrupts.by();
    if (!interruptedBy) throw err;
    throw new AxisError(err instanceof Error ? err.message : String(err), {
      exitCode: EXIT_CODES[interruptedBy],
    });
  } finally {
    interrupts.uninstall();
  }
}

function runOptions(opts: RunCommandOptions, ctx: RunContext, signal: AbortSignal): RunOptions {
  const { cwd, reporters } = ctx;
  return {
    config: ctx.loaded,
    cwd,
    ...(opts.scenario !== undefined ? { scenarios: opts.scenario } : {}),
    ...(opts.agent !== undefined ? { agents: opts.agent } : {}),
    ...(opts.tag !== undefined ? { tags: opts.tag } : {}),
    refreshSkills: opts.refreshSkills ?? false,
    only: ctx.only,
    rerunOf: ctx.rerunOf,
    concurrency: ctx.concurrency,
    runs: ctx.runs,
    signal,
    onEvent: (event) => {
      if (event.type === 'run_started') heapForRun(event.jobs.length);
      reporters.onEvent(event);
    },
    debug: opts.debug ?? false,
    verbose: (opts.verbose ?? false) || (opts.debug ?? false),
    score: opts.score !== false,
    cache: opts.cache !== false,
    ...(opts.compareBaseline !== undefined ? { compareBaseline: opts.compareBaseline } : {}),
    ...(ctx.shard
      ? { shard: ctx.shard, blobDir: opts.outputDir ? resolve(cwd, opts.outputDir) : undefined }
      : {}),
    ...(opts.shardDurations !== undefined ? { shardDurations: opts.shardDurations } : {}),
  };
}

/** What the reporters' end hooks and the verdict function get. */
function runEnd(opts: RunCommandOptions, cwd: string, outcome: RunOutcome): RunEnd {
  const reportRel = shownPath(outcome.reportDir, cwd);
  const blobRel = outcome.blob ? shownPath(outcome.blob.path, cwd) : undefined;
  return {
    manifest: outcome.manifest,
    reportDir: outcome.reportDir,
    reportRel,
    ...(outcome.afterAllError ? { afterAllError: outcome.afterAllError } : {}),
    lost: outcome.lost,
    ...(reportMissing(outcome) ? { reportMissing: true } : {}),
    ...(blobRel ? { blob: blobRel } : {}),
    ...(outcome.comparison ? { comparison: outcome.comparison } : {}),
    configArg: configFlag(opts.config),
  };
}

/** report.json lost and no earlier one on disk: nothing for `axis reports` to show. */
function reportMissing(outcome: RunOutcome): boolean {
  if (!outcome.lost.some((f) => f.path === 'report.json')) return false;
  try {
    return !statSync(join(outcome.reportDir, 'report.json')).isFile();
  } catch {
    return true; // gone, or its folder is (a file in its way, no permission)
  }
}

async function prepareOutputDir(dir: string, given: string): Promise<void> {
  const problem = await ensureDir(dir);
  if (problem) throw new AxisError(`-o/--output-dir ${JSON.stringify(given)}: ${problem}`, { exitCode: 2 });
}

/** `--output-dir`: report.json with the verdict, for CI to pick up; returns the file written. */
async function writeManifestCopy(
  dir: string,
  outcome: RunOutcome,
  reportRel: string,
  verdict: RunVerdict,
): Promise<string> {
  const file = join(dir, `axis-report-${outcome.reportId}.json`);
  // Checked before the run too; a long run gives the directory time to go away.
  const problem = await ensureDir(dir);
  if (problem) throw new AxisError(`-o/--output-dir: cannot write ${file}: ${problem}`);
  const doc = {
    ...outcome.manifest,
    reportDir: reportRel,
    verdict,
    ...(outcome.comparison ? { comparison: outcome.comparison } : {}),
  };
  try {
    await writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
  } catch (err) {
    throw new AxisError(`-o/--output-dir: cannot write ${file}: ${(err as Error).message}`);
  }
  return file;
}

/** After the reporters' summary: the afterAll error, the shard's blob with how to merge it, a blob error. */
function printAfterEnd(opts: RunCommandOptions, outcome: RunOutcome, blobRel: string | undefined): void {
  // It quotes the hook's output, whose escape sequences must not reach the terminal.
  if (outcome.afterAllError) process.stderr.write(`${safeText(outcome.afterAllError)}\n`);
  if (outcome.blob && blobRel && !opts.json) {
    const b = outcome.blob;
    process.stdout.write(
      `Shard ${b.shard.index}/${b.shard.total} (${b.jobs} of ${b.planJobs} jobs) blob: ${blobRel}\n` +
        `  merge every shard's blob with: axis reports merge <blob files or directories>\n`,
    );
  }
  if (outcome.blobError) process.stderr.write(`${outcome.blobError}\n`);
}
