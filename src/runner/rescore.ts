/**
 * `axis score`: (re)scores an existing report from its stored raw results — transcripts and check
 * outcomes in the per-run files — with the current config's judge, so judging can change without
 * re-running any agent. Deterministic checks need the workspace, which is gone: their stored outcomes
 * are kept. Per-run files and report.json are rewritten atomically.
 */
import { rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { LoadedConfig } from '../config/types.js';
import { confinedPath, readStoreJson, StoreDataError } from '../report/confine.js';
import { describeValue } from '../util/describe-value.js';
import { DETAIL_SHAPE, shapeProblem, type Shape } from '../report/manifest-shape.js';
import { createScrubber, type Scrubber } from '../report/scrub.js';
import { readManifest, reportsDir, resolveReportId, SCORE_PENDING } from '../report/locate.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { cannotWrite, writeErrorText } from '../util/write-error.js';
import { AxisError } from '../util/errors.js';
import { type ReportManifest } from '../report/manifest.js';
import type { JobResult } from '../report/job-result.js';
import { startSimulator, type Simulator } from '../sim/server.js';
import { JudgeCache } from '../scoring/cache.js';
import type { ScoreRunOutput } from '../scoring/pipeline.js';
import type { RunScore } from '../scoring/types.js';
import { applyScores } from '../report/scores.js';
import { regate } from './regate.js';
import { cacheScrub, configSecrets } from './secrets.js';
import { checkTapesExist } from './simulate.js';
import { scoreStored, sparseIndexPath, type ScoreStoredContext } from './scoring-stage.js';

export interface RescoreOptions {
  loaded: LoadedConfig;
  /** Report id or `latest` (default). */
  reportId?: string;
  /** false (`--no-cache`): ask the judges even for cached answers. */
  cache?: boolean;
  /** Runs scored at once; default min(settings.concurrency, 4). */
  concurrency?: number;
  hostEnv?: Readonly<Record<string, string | undefined>>;
  baseDelayMs?: number;
  signal?: AbortSignal;
  /** Called as each run is scored (progress output). */
  onRun?: (run: RescoredRun) => void;
  onWarning?: (message: string) => void;
}

export interface RescoredRun {
  scenarioKey: string;
  agentName: string;
  run: number;
  runs: number;
  score: RunScore;
}

export interface RescoreOutcome {
  reportId: string;
  reportDir: string;
  manifest: ReportManifest;
  runs: RescoredRun[];
  /** Runs whose per-run file could not be read (left as they were). */
  skipped: string[];
  /** Files that could not be written, each `<path>: <why>`: the command failed (exit 1). */
  lost: string[];
}

export async function rescoreReport(opts: RescoreOptions): Promise<RescoreOutcome> {
  const configDir = opts.loaded.configDir;
  const reportId = await resolveReportId(configDir, opts.reportId);
  const reportDir = join(reportsDir(configDir), reportId);
  const manifest = await readManifest(configDir, reportId);
  const jobs = scorableRuns(manifest, reportDir, relative(process.cwd(), join(reportDir, 'report.json')));
  // Under simulate the judge is the tape: one gone is refused here, not every run of it left unscored.
  if (opts.loaded.config.settings.simulate !== false) {
    const keys = new Set(jobs.map((j) => j.scenarioKey));
    checkTapesExist(opts.loaded.scenarios.filter((s) => keys.has(s.key)));
  }
  const r = startRescore(opts, reportId);
  // Per-run files are rewritten one by one, report.json last: until then readers are told (reports.ts).
  const pending = join(reportDir, SCORE_PENDING);
  await writeFileAtomic(pending, `${JSON.stringify({ pid: process.pid })}\n`).catch((err: unknown) => {
    r.cache.close();
    throw cannotWrite(pending, err, 'Nothing was rewritten.');
  });
  try {
    await scoreAll(r, jobs);
  } finally {
    r.cache.close();
  }
  await writeManifest(r, manifest, reportDir);
  await rewriteHtml(r, reportDir);
  await rm(pending, { force: true }).catch((err: unknown) => r.lost.push(writeErrorText(pending, err)));
  return { reportId, reportDir, manifest, runs: r.scored, skipped: r.skipped, lost: r.lost };
}

/** One `axis score`: what scoring each run shares, and what it collects. */
interface Rescore {
  opts: RescoreOptions;
  reportId: string;
  cache: JudgeCache;
  simulate: boolean;
  scrub: Scrubber;
  results: JobResult[];
  scored: RescoredRun[];
  skipped: string[];
  lost: string[];
  /** Judge warnings already passed on: each is said once. */
  warned: Set<string>;
}

type StoredRun = JobResult & { reportId?: string };

/** The model simulator a run's judge answers through, or why it could not start. */
interface SimJudge {
  sim?: Simulator;
  url?: string;
  error?: string;
}

function startRescore(opts: RescoreOptions, reportId: string): Rescore {
  const { loaded } = opts;
  const configDir = loaded.configDir;
  const secrets = configSecrets(loaded, loaded.config.agents, loaded.scenarios, opts.hostEnv);
  const cache = JudgeCache.forConfigDir(configDir, opts.cache !== false, cacheScrub(secrets));
  const simulate = loaded.config.settings.simulate !== false;
  const scrub = createScrubber({
    secrets,
    paths: [[configDir.endsWith(sep) ? configDir : configDir + sep, '']],
  });
  return {
    opts,
    reportId,
    cache,
    simulate,
    scrub,
    results: [],
    scored: [],
    skipped: [],
    lost: [],
    warned: new Set(),
  };
}

/** Scores `jobs` in order, up to the concurrency limit at once. */
async function scoreAll(r: Rescore, jobs: ScorableRun[]): Promise<void> {
  const limit = Math.max(1, r.opts.concurrency ?? Math.min(4, r.opts.loaded.config.settings.concurrency));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const stored = readStoredRun(r, job);
      if (stored) await rescoreRun(r, job, stored);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(1, jobs.length)) }, worker));
}

/** The run's per-run file; undefined, with the reason in `skipped`, when it is unreadable or another run's. */
function readStoredRun(r: Rescore, job: ScorableRun): StoredRun | undefined {
  const { skipped } = r;
  let stored: StoredRun;
  try {
    stored = readStoreJson(job.abs, job.rel) as StoredRun;
  } catch (err) {
    skipped.push(`${job.label}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  const mismatch = notThisRun(stored, job);
  if (mismatch) {
    skipped.push(
      `${job.label}: ${job.rel} is not the per-run file of this run (expected ${mismatch}); left as it was`,
    );
    return undefined;
  }
  // The old score is replaced; anything else of the wrong type would be scored and written back as it is.
  const rest = { ...stored, score: undefined };
  const problem = shapeProblem(rest, DETAIL_SHAPE, '') ?? shapeProblem(rest, SCORABLE, '');
  if (problem) {
    skipped.push(`${job.label}: ${job.rel}: ${problem.slice(1)}; left as it was`);
    return undefined;
  }
  return stored;
}

/** What scoring reads of a per-run file beyond what the views need (DETAIL_SHAPE checks the types). */
const SCORABLE: Shape = {
  object: {
    agent: { object: { agent: 'string' }, required: ['agent'] },
    criteria: { array: { object: {}, required: ['kind', 'label', 'weight', 'check'] } },
    transcript: { object: {}, required: ['events', 'result', 'usage'] },
  },
  required: 'scenarioKey scenarioName agentName agent prompt criteria status transcript'.split(' '),
};

/** Scores one stored run, through the model simulator when it completed, and rewrites its files. */
async function rescoreRun(r: Rescore, job: ScorableRun, stored: StoredRun): Promise<void> {
  const judge: SimJudge =
    r.simulate && stored.status === 'completed' ? await startSimJudge(r.opts.loaded, stored) : {};
  try {
    const out = await scoreStored(stored, scoreContext(r, judge));
    const result = await writeRun(r, job, stored, out);
    if (result) recordRun(r, result, result.score!);
  } finally {
    await judge.sim?.close();
  }
}

async function startSimJudge(loaded: LoadedConfig, stored: StoredRun): Promise<SimJudge> {
  const judge: SimJudge = {};
  const scenario = loaded.scenarios.find((s) => s.key === stored.scenarioKey);
  try {
    if (!scenario) throw new Error(`scenario ${stored.scenarioKey} is no longer in the config`);
    judge.sim = await startSimulator({ tape: scenario.tape });
    // Through the gateway, the runs' questions share connections (see src/sim/gateway.ts).
    const own = judge.sim.url;
    judge.url = await judge.sim.localUrl().catch(() => own);
  } catch (err) {
    judge.error = `cannot start the simulator judge: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  }
  return judge;
}

function scoreContext(r: Rescore, judge: SimJudge): ScoreStoredContext {
  const { opts } = r;
  return {
    loaded: opts.loaded,
    cache: r.cache,
    ...(opts.hostEnv ? { hostEnv: opts.hostEnv } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(judge.url ? { simulatorUrl: judge.url } : {}),
    ...(judge.error ? { judgeError: judge.error } : {}),
    ...(opts.baseDelayMs !== undefined ? { baseDelayMs: opts.baseDelayMs } : {}),
  };
}

/**
 * Rewrites the run's per-run file and sparse index with the new score; returns the rescored result, or
 * undefined when its per-run file could not be written (it keeps its old score; the loss is in `lost`).
 */
async function writeRun(
  r: Rescore,
  job: ScorableRun,
  stored: StoredRun,
  out: ScoreRunOutput,
): Promise<JobResult | undefined> {
  const { reportId, scrub } = r;
  // Scrubbed once for the file and for what the caller prints (a judge's error may quote a key).
  const score = scrub.value(out.score);
  const { reportId: _id, ...rest } = stored;
  const result: JobResult = { ...rest, score };
  const detail = `${JSON.stringify(scrub.value({ reportId, ...result }), null, 2)}\n`;
  if (!(await writeOrRecord(r, job.abs, detail))) return undefined;
  const sparse = out.sparseIndex
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => scrub.line(l));
  // The sparse index holds no score: the run stays rescored without it, the loss is still reported.
  await writeOrRecord(r, job.sparseAbs, `${sparse.join('\n')}\n`);
  return result;
}

/** One file written atomically; a failure is recorded in `lost` (the old file stays as it was). */
async function writeOrRecord(r: Rescore, path: string, data: string): Promise<boolean> {
  try {
    await writeFileAtomic(path, data);
    return true;
  } catch (err) {
    r.lost.push(writeErrorText(path, err));
    return false;
  }
}

/** Keeps the result for report.json, passes its judge's warning on (once) and reports the run. */
function recordRun(r: Rescore, result: JobResult, score: RunScore): void {
  const { opts, warned } = r;
  r.results.push(result);
  const w = score.judge?.warning;
  if (w && !warned.has(w)) {
    warned.add(w);
    opts.onWarning?.(w);
  }
  const done = {
    scenarioKey: result.scenarioKey,
    agentName: result.agentName,
    run: result.run,
    runs: result.runs,
    score,
  };
  r.scored.push(done);
  opts.onRun?.(done);
}

async function writeManifest(r: Rescore, manifest: ReportManifest, reportDir: string): Promise<void> {
  applyScores(manifest, r.results);
  await regate(r.opts.loaded, manifest, r.opts.onWarning);
  manifest.updatedAt = new Date().toISOString();
  const path = join(reportDir, 'report.json');
  await writeFileAtomic(path, `${JSON.stringify(r.scrub.value(manifest), null, 2)}\n`).catch(
    (err: unknown) => {
      throw cannotWrite(
        path,
        err,
        `It still holds the old scores while the per-run files hold the new ones: run \`axis score ${r.reportId}\` again once it can be written.`,
      );
    },
  );
}

/** report.html always sits next to report.json, in step with the new scores; a failure is a lost file. */
async function rewriteHtml(r: Rescore, reportDir: string): Promise<void> {
  try {
    const { writeReportHtml } = await import('../report/html/write.js');
    await writeReportHtml(reportDir);
  } catch (err) {
    // writeReportHtml names the file in its AxisError; anything else failed while rendering.
    const why =
      err instanceof AxisError
        ? err.message.replace(/^Cannot write /, '').replace(/\.$/, '')
        : writeErrorText(join(reportDir, 'report.html'), err);
    r.lost.push(`${why} (it still shows the old scores; \`axis reports ${r.reportId} --html\` rewrites it)`);
  }
}

interface ScorableRun {
  /** As report.json records it, relative to the report folder. */
  rel: string;
  abs: string;
  sparseAbs: string;
  label: string;
  scenarioKey: string;
  agentName: string;
  run: number;
}

/**
 * The runs to score, every path confined to the report folder. Checked before anything is written, so a
 * report with one bad field is refused whole (StoreDataError naming the field) rather than half rewritten.
 */
function scorableRuns(manifest: ReportManifest, reportDir: string, shown: string): ScorableRun[] {
  const jobs: ScorableRun[] = [];
  // Its counts are rewritten last: missing, the rescore would die with every per-run file rewritten.
  if (manifest.summary === undefined) throw new StoreDataError(`${shown}: summary: missing`);
  manifest.results.forEach((entry, i) => {
    // The gate reads it when report.json is rewritten, after every per-run file.
    if (entry.status === undefined) throw new StoreDataError(`${shown}: results[${i}].status: missing`);
    const runs: unknown = entry.runs;
    if (!Array.isArray(runs))
      throw new StoreDataError(
        `${shown}: results[${i}].runs: expected an array of runs, found ${describeValue(runs)}`,
      );
    runs.forEach((run: unknown, j) => {
      const at = `${shown}: results[${i}].runs[${j}]`;
      if (!run || typeof run !== 'object' || Array.isArray(run))
        throw new StoreDataError(`${at}: expected a run object, found ${describeValue(run)}`);
      const { files, run: n, status } = run as { files?: unknown; run?: unknown; status?: unknown };
      if (files === undefined) return; // a run that wrote nothing (an early failure) has nothing to rescore
      if (status === 'cancelled') return; // nobody let it finish: it has no score (docs/scoring.md)
      if (!files || typeof files !== 'object' || Array.isArray(files))
        throw new StoreDataError(`${at}.files: expected an object of paths, found ${describeValue(files)}`);
      const rel = (files as { detail?: unknown }).detail;
      if (rel === undefined) return;
      const abs = confinedPath(reportDir, rel, `${at}.files.detail`);
      const sparseAbs = confinedPath(reportDir, sparseIndexPath(rel as string), `${at}.files.detail`);
      jobs.push({
        rel: rel as string,
        abs,
        sparseAbs,
        label: `${entry.scenarioKey} · ${entry.agentName} run ${typeof n === 'number' ? n : j + 1}`,
        scenarioKey: entry.scenarioKey,
        agentName: entry.agentName,
        run: typeof n === 'number' ? n : j + 1,
      });
    });
  });
  return jobs;
}

/** What a per-run file of `job` must look like; undefined when `stored` is one. */
function notThisRun(stored: unknown, job: ScorableRun): string | undefined {
  const d = stored as Partial<JobResult> | null;
  const ok =
    !!d &&
    typeof d === 'object' &&
    !Array.isArray(d) &&
    d.scenarioKey === job.scenarioKey &&
    d.agentName === job.agentName &&
    d.run === job.run &&
    typeof d.status === 'string' &&
    !!d.transcript &&
    Array.isArray(d.transcript.events) &&
    Array.isArray(d.criteria);
  return ok
    ? undefined
    : `an AXIS per-run object with scenarioKey ${JSON.stringify(job.scenarioKey)}, agentName ${JSON.stringify(job.agentName)}, run ${job.run}, status, transcript.events and criteria`;
}
