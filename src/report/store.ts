/**
 * The raw result store: everything a run writes under `<configDir>/.axis/reports/<reportId>/`.
 *
 * ```
 * report.json                                   manifest: summary + one entry per (scenario, agent) pair
 * scenarios/<scenarioKey>/<agent>.json          per-run detail (runs > 1: <agent>.run-<n>.json)
 * scenarios/<scenarioKey>/<agent>.raw.ndjson    the agent's raw stdout lines (runs > 1: <agent>.run-<n>.raw.ndjson)
 * scenarios/<scenarioKey>/<agent>/artifacts/    captured files (runs > 1: <agent>/run-<n>/artifacts/)
 * scenarios/<scenarioKey>/<agent>.debug.ndjson / .debug.stderr.log   --debug only, written live
 * ```
 *
 * Every file is written through a scrubber: secret values become `[REDACTED]` and the job's temp paths
 * become `<workspace>`, `<home>`, `<tmp>`; paths under the config dir become project-relative. JSON files
 * are written atomically (temp file + rename), so a reader never sees half a file.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { JobResult, JobStatus, JobTimings, RunFiles } from '../runner/job-result.js';
import type { ErrorClass, TokenUsage } from '../transcript/model.js';
import { AxisError } from '../util/errors.js';
import type { RunScore } from '../scoring/pipeline.js';
import {
  applyScores,
  type DimensionScores,
  type ScoredSummary,
  type ScoreSpread,
} from '../scoring/report.js';
import { pairStatus, runState } from '../scoring/runs.js';
import type { ScoreStatus } from '../scoring/types.js';
import { readStoreJson, StoreDataError } from './confine.js';
import { claimReportDir, compareReportIds, isReportId } from './ids.js';
import { prettyJsonFile } from './json-chunks.js';
import { writeChunksOverlapped } from '../util/chunk-write.js';
import { splitSmall, writeSmallFileAtomic } from '../util/small-write.js';
import { openRawFile, type RawLineSink } from './raw-file.js';
import { createScrubber, type Scrubber } from './scrub.js';

export { createScrubber, type Scrubber, type ScrubberOptions } from './scrub.js';

/** Schema version of report.json and the per-run files. */
export const REPORT_VERSION = '1.0';

export const AXIS_DIR = '.axis';

export function reportsDir(configDir: string): string {
  return join(configDir, AXIS_DIR, 'reports');
}

// ---------------------------------------------------------------------------------------------
// Manifest types

/** One run of a pair, as listed in report.json. */
export interface RunSummary {
  run: number;
  status: JobStatus;
  reason?: string;
  errorClass?: ErrorClass;
  durationMs: number;
  exitCode: number | null;
  tokenUsage: TokenUsage;
  costUsd?: number;
  timings: JobTimings;
  rawLineCount: number;
  artifactCount: number;
  simulatorEvents?: number;
  /** Files of this run, relative to the report directory. */
  files?: RunFiles;
  /** Added by the scoring stage: this run's composite (null when unscored) and scoring status. */
  axisScore?: number | null;
  scoreStatus?: ScoreStatus;
  /** Added by the scoring stage for scored and unscored runs: this run's four dimension scores. */
  dimensionScores?: DimensionScores;
}

/** One (scenario, agent) pair. Headline fields come from `representativeRun`. */
export interface ReportResultEntry {
  scenarioKey: string;
  scenarioName: string;
  variant?: string;
  agentName: string;
  /** Adapter name (`claude-code`, `command`, …). */
  agent: string;
  model?: string;
  /**
   * `completed` when at least one run completed (crashed runs only lower `spread.reliability`); else the
   * status of the first run that failed; `cancelled` when every run was cancelled (src/scoring/runs.ts).
   */
  status: JobStatus;
  reason?: string;
  errorClass?: ErrorClass;
  durationMs: number;
  exitCode: number | null;
  tokenUsage: TokenUsage;
  costUsd?: number;
  /** The runs played against the model simulator: no real cost, tokens are the tape's. */
  simulated?: true;
  /** 1-based run the headline fields describe (scoring later picks the median-score run). */
  representativeRun: number;
  runsCompleted: number;
  /** Runs that did not complete and were not cancelled (crashed, limit, timeout). */
  runsFailed: number;
  runsCancelled?: number;
  runs: RunSummary[];
  /** Added by the scoring stage: the representative run's score (src/scoring/report.ts). */
  score?: RunScore;
  /** Added by the scoring stage when the pair has more than one run. */
  spread?: ScoreSpread;
}

export interface ReportSummary {
  /** Pairs. */
  total: number;
  /** Pairs with at least one completed run. */
  completed: number;
  /** Pairs where no run completed and at least one failed (failed, limit_exceeded, timeout). */
  failed: number;
  /** Pairs whose every run was cancelled. */
  cancelled?: number;
  runsTotal: number;
  /** Runs that did not complete, cancelled ones aside. */
  runsFailed: number;
  runsCancelled?: number;
  /** Scenarios selected but marked `skip`. */
  skipped: number;
  /** Added by the scoring stage: mean headline composite over scored pairs (null when none). */
  averageAxisScore?: number | null;
  /** Added by the scoring stage: scored/unscored/failed counts, dimension averages, judge usage. */
  scores?: ScoredSummary;
}

export interface HookRecord {
  ok: boolean;
  error?: string;
  notes?: string;
}

export interface ReportManifest {
  version: string;
  reportId: string;
  name?: string;
  /** ISO time the run started (the id is derived from it). */
  timestamp: string;
  /** ISO time the report was last written. */
  updatedAt: string;
  durationMs: number;
  /** The run did not finish: cancelled, stopped by a run limit, or still running / crashed. */
  incomplete?: true;
  /** Why, when incomplete: `Run cancelled by SIGINT`, `Overall token limit reached (…)`, … */
  incompleteReason?: string;
  /** Project-relative path of the config. */
  config: string;
  profile?: string;
  settings: { concurrency: number; runs: number; simulate: boolean };
  summary: ReportSummary;
  results: ReportResultEntry[];
  skippedScenarios?: string[];
  hooks?: { beforeAll?: HookRecord; afterAll?: HookRecord };
  /** Set by `--failed`: the report whose failed pairs were re-run. */
  rerunOf?: string;
  /** Set by `axis run --shard k/n`: this report holds only shard `index` of `total` (docs/ci.md). */
  shard?: { index: number; total: number };
  /** Set by `axis reports merge`: the shards this report was built from. */
  merged?: MergedFrom;
}

export interface MergedFrom {
  /** configFingerprint shared by every shard. */
  configHash: string;
  total: number;
  /** One per merged blob, in shard order. */
  shards: { index: number; reportId: string; blob: string }[];
  /** Shards absent from the merge (`--allow-partial`). */
  missing?: number[];
}

// ---------------------------------------------------------------------------------------------
// Building the manifest (pure)

export interface ManifestInput {
  reportId: string;
  name?: string;
  startedAt: Date;
  now: Date;
  incomplete: boolean;
  incompleteReason?: string;
  config: string;
  profile?: string;
  settings: ReportManifest['settings'];
  /** Finished results, any order. */
  results: readonly JobResult[];
  skippedScenarios: readonly string[];
  hooks?: ReportManifest['hooks'];
  rerunOf?: string;
  shard?: ReportManifest['shard'];
}

export function runSummary(r: JobResult): RunSummary {
  const out: RunSummary = {
    run: r.run,
    status: r.status,
    durationMs: r.durationMs,
    exitCode: r.transcript.exitCode,
    tokenUsage: pickUsage(r.transcript.usage),
    timings: r.timings,
    rawLineCount: r.rawLineCount,
    artifactCount: r.artifacts.filter((a) => !a.skipped).length,
  };
  if (r.reason) out.reason = r.reason;
  if (r.errorClass) out.errorClass = r.errorClass;
  if (r.transcript.costUsd !== undefined) out.costUsd = r.transcript.costUsd;
  if (r.simulator) out.simulatorEvents = r.simulator.events.length;
  if (r.files) out.files = r.files;
  return out;
}

function pickUsage(u: TokenUsage): TokenUsage {
  return { input: u.input, output: u.output, cacheReadInput: u.cacheReadInput };
}

/** Groups results into pairs (in plan order) and counts them. */
export function buildManifest(input: ManifestInput): ReportManifest {
  const pairs = new Map<string, JobResult[]>();
  for (const r of [...input.results].sort((a, b) => a.index - b.index)) {
    const key = `${r.scenarioKey}\u0000${r.agentName}`;
    const list = pairs.get(key) ?? [];
    list.push(r);
    pairs.set(key, list);
  }
  const results = [...pairs.values()].map(pairEntry);
  const runs = results.flatMap((e) => e.runs);
  const completed = results.filter((e) => e.status === 'completed').length;
  const cancelled = results.filter((e) => e.status === 'cancelled').length;
  const runsCancelled = runs.filter((r) => r.status === 'cancelled').length;
  const manifest: ReportManifest = {
    version: REPORT_VERSION,
    reportId: input.reportId,
    ...(input.name ? { name: input.name } : {}),
    timestamp: input.startedAt.toISOString(),
    updatedAt: input.now.toISOString(),
    durationMs: Math.max(0, input.now.getTime() - input.startedAt.getTime()),
    ...(input.incomplete ? { incomplete: true as const } : {}),
    ...(input.incomplete && input.incompleteReason ? { incompleteReason: input.incompleteReason } : {}),
    config: input.config,
    ...(input.profile ? { profile: input.profile } : {}),
    settings: input.settings,
    summary: {
      total: results.length,
      completed,
      failed: results.length - completed - cancelled,
      cancelled,
      runsTotal: runs.length,
      runsFailed: runs.filter((r) => r.status !== 'completed').length - runsCancelled,
      runsCancelled,
      skipped: input.skippedScenarios.length,
    },
    results,
  };
  if (input.skippedScenarios.length) manifest.skippedScenarios = [...input.skippedScenarios];
  if (input.hooks) manifest.hooks = input.hooks;
  if (input.rerunOf) manifest.rerunOf = input.rerunOf;
  if (input.shard) manifest.shard = input.shard;
  applyScores(manifest, input.results);
  return manifest;
}

function pairEntry(list: JobResult[]): ReportResultEntry {
  const runs = list.sort((a, b) => a.run - b.run);
  const first = runs[0]!;
  const rep = runs.find((r) => r.status === 'completed') ?? first;
  const notDone = runs.filter((r) => r.status !== 'completed');
  const crashed = runs.filter((r) => runState(r) === 'crashed');
  const entry: ReportResultEntry = {
    scenarioKey: first.scenarioKey,
    scenarioName: first.scenarioName,
    ...(first.variant ? { variant: first.variant } : {}),
    agentName: first.agentName,
    agent: first.agent.agent,
    ...(first.agent.model ? { model: first.agent.model } : {}),
    status: pairStatus(runs),
    durationMs: rep.durationMs,
    exitCode: rep.transcript.exitCode,
    tokenUsage: pickUsage(rep.transcript.usage),
    representativeRun: rep.run,
    runsCompleted: runs.length - notDone.length,
    runsFailed: crashed.length,
    runsCancelled: notDone.length - crashed.length,
    runs: runs.map(runSummary),
  };
  if (rep.transcript.costUsd !== undefined) entry.costUsd = rep.transcript.costUsd;
  if (runs.some((r) => r.simulated)) entry.simulated = true;
  const bad = crashed[0] ?? notDone[0];
  if (bad) {
    if (bad.errorClass) entry.errorClass = bad.errorClass;
    const why = bad.reason ?? bad.status;
    entry.reason =
      first.runs === 1
        ? why
        : notDone.length === 1
          ? `run ${bad.run} of ${first.runs}: ${why}`
          : `${notDone.length} of ${first.runs} runs did not complete; run ${bad.run}: ${why}`;
  }
  return entry;
}

// ---------------------------------------------------------------------------------------------
// Files

/** Writes via a temp file in the same directory, then renames: readers see the old or the new file. */
export async function writeFileAtomic(
  path: string,
  data: string | Buffer | Iterable<string | Buffer>,
  mkdirFirst = true,
): Promise<void> {
  if (mkdirFirst) await mkdir(dirname(path), { recursive: true });
  const split = splitSmall(data);
  if ('small' in split) return writeSmallFileAtomic(path, split.small);
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    await writeChunksOverlapped(tmp, split.large);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

/** Agent names are used verbatim except characters no file system accepts. */
export function fileSafe(name: string): string {
  const bad = process.platform === 'win32' ? '<>:"/\\|?*' : '/\\';
  return [...name].map((c) => (bad.includes(c) || c.charCodeAt(0) < 32 ? '_' : c)).join('');
}

/** The paths a run's files would have, relative to the report directory (forward slashes). */
export interface RunPaths {
  detail: string;
  raw: string;
  artifactsDir: string;
  debug: string;
  debugStderr: string;
}

export function runFiles(scenarioKey: string, agentName: string, run: number, runs: number): RunPaths {
  const dir = `scenarios/${scenarioKey}`;
  const agent = fileSafe(agentName);
  const base = runs > 1 ? `${dir}/${agent}.run-${run}` : `${dir}/${agent}`;
  return {
    detail: `${base}.json`,
    raw: `${base}.raw.ndjson`,
    artifactsDir: runs > 1 ? `${dir}/${agent}/run-${run}/artifacts` : `${dir}/${agent}/artifacts`,
    debug: `${base}.debug.ndjson`,
    debugStderr: `${base}.debug.stderr.log`,
  };
}

/** A live append-only log (the `--debug` files). Lines are scrubbed before they are written. */
export interface LiveLog {
  write(text: string): void;
  close(): Promise<void>;
}

/** A file of the report that could not be written (disk full, read-only, …). */
export interface StoreFailure {
  /** Relative to the report directory. */
  path: string;
  message: string;
}

export class ReportStore {
  /** Every write that failed, in order: a run with any fails loudly (exit ≠ 0) and names them. */
  readonly failures: StoreFailure[] = [];
  /** Directories made (or being made), so each file write is one write + one rename. */
  private readonly dirs = new Map<string, Promise<void>>();
  /** The scrubber without job paths, made once (see `scrubber`). */
  private plain: Scrubber | undefined;

  private constructor(
    readonly configDir: string,
    readonly id: string,
    readonly dir: string,
    private readonly secrets: readonly string[],
  ) {
    this.dirs.set(dir, Promise.resolve());
  }

  /**
   * Claims `.axis/reports/<id>/` for a run started at `startedAt`. Throws AxisError (exit 2) naming the
   * path when `.axis/reports` cannot hold reports (a file, read-only, no permission).
   */
  static async create(opts: {
    configDir: string;
    startedAt: Date;
    secrets: readonly string[];
  }): Promise<ReportStore> {
    const root = reportsDir(opts.configDir);
    const id = await claimReportDir(root, opts.startedAt).catch((err: unknown) => {
      throw storeDirError(root, err);
    });
    return new ReportStore(opts.configDir, id, join(root, id), opts.secrets);
  }

  /** Absolute path of a report-relative path. */
  abs(rel: string): string {
    return join(this.dir, ...rel.split('/'));
  }

  /**
   * A scrubber for this report plus `paths` (e.g. a job's temp dirs → placeholders). Without `paths`
   * it is one scrubber for the whole run (every job starts with it, every report.json write uses it).
   */
  scrubber(paths: readonly (readonly [string, string])[] = []): Scrubber {
    if (paths.length === 0)
      return (this.plain ??= createScrubber({ secrets: this.secrets, paths: projectPaths(this.configDir) }));
    return createScrubber({ secrets: this.secrets, paths: [...paths, ...projectPaths(this.configDir)] });
  }

  /** Records a lost part of the report (a write that failed outside the store, e.g. artifact copies). */
  recordFailure(rel: string, err: unknown): void {
    this.failures.push({ path: rel, message: errorText(err) });
  }

  /** Writes one file atomically; a failure is recorded, then rethrown. */
  /** `data` may come in chunks (long runs' files), so the whole text is never held at once. */
  async write(rel: string, data: string | Buffer | Iterable<string | Buffer>): Promise<void> {
    const path = this.abs(rel);
    const dir = dirname(path);
    try {
      await this.ensureDir(dir);
      await writeFileAtomic(path, data, false);
      const earlier = this.failures.findIndex((f) => f.path === rel);
      if (earlier !== -1) this.failures.splice(earlier, 1); // rewritten since: nothing lost
    } catch (err) {
      this.recordFailure(rel, err);
      throw err;
    }
  }

  /** The directory is created once per run of the store, not once per file. */
  private ensureDir(dir: string): Promise<void> {
    // The promise, not a flag: the jobs of one scenario finish together and would each make it.
    let made = this.dirs.get(dir);
    if (!made) {
      made = mkdir(dir, { recursive: true }).then(() => {});
      this.dirs.set(dir, made);
      made.catch(() => this.dirs.delete(dir));
    }
    return made;
  }

  async writeJson(rel: string, value: unknown, scrub: Scrubber = this.scrubber()): Promise<void> {
    await this.write(rel, `${JSON.stringify(scrub.value(value), null, 2)}\n`);
  }

  /** Raw lines, one per line, not pretty-printed. */
  async writeLines(rel: string, lines: readonly string[], scrub: Scrubber = this.scrubber()): Promise<void> {
    await this.write(rel, lines.length > 0 ? lineChunks(lines, scrub) : '');
  }

  /**
   * report.json. Its `results` come from job results that are already scrubbed (by each job's own
   * scrubber, which also knows the job's temp paths), so only the rest is scrubbed here: a rewrite costs
   * one serialization, not a deep copy of every result.
   */
  async writeManifest(manifest: ReportManifest): Promise<void> {
    const { results, ...rest } = manifest;
    const clean = { ...this.scrubber().value(rest), results };
    await this.write('report.json', prettyJsonFile(clean));
  }

  /**
   * A finished run's files: the raw lines (only when the agent printed any) and the detail file. The
   * result is scrubbed once; the scrubbed copy is written and returned. `files` in it lists only what
   * was written; a file that could not be written is named in `files.missing` instead.
   */
  async writeRun(
    paths: RunPaths,
    raw: { commit(): Promise<boolean> } | undefined,
    result: JobResult,
    scrub: Scrubber,
  ): Promise<JobResult> {
    // A copy of the top level: `files` is set below, and scrub.value may return `result` itself.
    const clean = { ...scrub.value(result) };
    const files: RunFiles = { ...clean.files };
    const missing: string[] = [...(files.missing ?? [])];
    delete files.raw;
    await (raw?.commit() ?? Promise.resolve(false)).then(
      (written) => {
        if (written) files.raw = paths.raw;
      },
      (err: unknown) => {
        this.recordFailure(paths.raw, err);
        missing.push(paths.raw);
      },
    );
    files.detail = paths.detail;
    const written = await this.write(
      paths.detail,
      prettyJsonFile({ reportId: this.id, ...clean, files }),
    ).then(
      () => true,
      () => false,
    );
    if (!written) {
      delete files.detail;
      missing.push(paths.detail);
    }
    if (missing.length) files.missing = missing;
    else delete files.missing;
    clean.files = files;
    return clean;
  }

  /** A run's raw lines, scrubbed and written as they arrive; `writeRun` moves the file into place. */
  openRawLog(rel: string, scrub: Scrubber): RawLineSink {
    const path = this.abs(rel);
    return openRawFile(path, scrub);
  }

  /** Opens an append-only log written as data arrives (`--debug`). A write error is recorded once. */
  async openLog(rel: string, scrub: Scrubber, mode: 'lines' | 'text'): Promise<LiveLog> {
    const path = this.abs(rel);
    await mkdir(dirname(path), { recursive: true });
    const stream: WriteStream = createWriteStream(path, { flags: 'a' });
    let failed = false;
    // a debug log never crashes a run, but a lost one is named at the end
    stream.on('error', (err) => {
      if (!failed) this.recordFailure(rel, err);
      failed = true;
    });
    return {
      write: (text) => {
        if (!failed) stream.write(mode === 'lines' ? `${scrub.line(text)}\n` : scrub.text(text));
      },
      close: () =>
        new Promise<void>((r) => {
          if (failed || stream.destroyed) return r();
          stream.end(() => r());
          stream.once('error', () => r());
        }),
    };
  }

  /** Redacts secrets inside captured artifact files (text or binary) in place. */
  async scrubArtifacts(rels: readonly string[], scrub: Scrubber): Promise<void> {
    for (const rel of rels) {
      const path = this.abs(rel);
      const buf = await readFile(path).catch(() => undefined);
      const fixed = buf && scrub.bytes(buf);
      if (fixed) await this.write(rel, fixed);
    }
  }
}

/** `.axis/reports` cannot hold reports: one clear sentence naming the path (exit 2). */
function storeDirError(root: string, err: unknown): AxisError {
  const code = (err as NodeJS.ErrnoException).code;
  const shown = relative(process.cwd(), root) || root;
  const why =
    code === 'EEXIST' || code === 'ENOTDIR'
      ? `${shown} (or a folder above it) is a file, not a directory`
      : code === 'EACCES' || code === 'EPERM'
        ? `permission denied writing to ${shown}`
        : code === 'EROFS'
          ? `${shown} is on a read-only file system`
          : code === 'ENOSPC' || code === 'EDQUOT'
            ? `no space left on the device holding ${shown}`
            : `${shown}: ${errorText(err)}`;
  return new AxisError(
    `Cannot create a report in ${shown}: ${why}. Reports are written there; fix or move it.`,
    {
      exitCode: 2,
    },
  );
}

/** Scrubbed raw lines joined by newlines, about a megabyte at a time. */
function* lineChunks(lines: readonly string[], scrub: Scrubber): Generator<string> {
  let buf = '';
  for (const l of lines) {
    buf += `${scrub.line(l.replace(/[\r\n]+/g, ' '))}\n`;
    if (buf.length >= 1 << 20) {
      yield buf;
      buf = '';
    }
  }
  if (buf !== '') yield buf;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Config-dir paths become project-relative (`/home/me/proj/scenarios/a.json` → `scenarios/a.json`). */
function projectPaths(configDir: string): [string, string][] {
  const withSep = configDir.endsWith(sep) ? configDir : configDir + sep;
  const out: [string, string][] = [[withSep, '']];
  if (sep === '\\') out.push([withSep.replace(/\\/g, '/'), '']);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * Report ids under `.axis/reports` that hold a report.json, oldest first. lstat, not stat: a report.json
 * that is a FIFO, a device or a broken link is still listed, so reading it can say what is wrong with it.
 */
export async function listReportIds(configDir: string): Promise<string[]> {
  const root = reportsDir(configDir);
  const names = await readdir(root).catch(() => [] as string[]);
  const ids: string[] = [];
  for (const name of names.filter(isReportId)) {
    const ok = await lstat(join(root, name, 'report.json')).then(
      () => true,
      () => false,
    );
    if (ok) ids.push(name);
  }
  return ids.sort(compareReportIds);
}

/** `latest` (or undefined) → the newest report id; an explicit id must exist. Throws AxisError (exit 1). */
export async function resolveReportId(configDir: string, id: string | undefined): Promise<string> {
  const ids = await listReportIds(configDir);
  const rel = relative(process.cwd(), reportsDir(configDir)) || reportsDir(configDir);
  if (id === undefined || id === 'latest') {
    const latest = ids[ids.length - 1];
    if (!latest) throw new AxisError(`No reports found in ${rel}. Run \`axis run\` first.`);
    return latest;
  }
  if (!ids.includes(id)) {
    const recent = ids.slice(-5).reverse().join(', ');
    throw new AxisError(`Report "${id}" not found in ${rel}.${recent ? ` Recent reports: ${recent}` : ''}`);
  }
  return id;
}

export async function readManifest(configDir: string, id: string): Promise<ReportManifest> {
  const path = join(reportsDir(configDir), id, 'report.json');
  const shown = relative(process.cwd(), path) || path;
  return parseManifest(readStoreJson(path, shown), shown, id);
}

/**
 * Checks the shape every reader needs (older reports still open) and takes the report id from the folder
 * name, which is the truth: an id inside report.json is never used to find files.
 */
export function parseManifest(parsed: unknown, shown: string, id: string): ReportManifest {
  const m = parsed as Partial<ReportManifest> | null;
  if (!m || typeof m !== 'object' || Array.isArray(m) || !Array.isArray(m.results))
    throw new StoreDataError(`${shown}: not an AXIS report (expected an object with "results": [...])`);
  const bad = m.results.findIndex(
    (r: unknown) =>
      !r ||
      typeof r !== 'object' ||
      typeof (r as ReportResultEntry).scenarioKey !== 'string' ||
      typeof (r as ReportResultEntry).agentName !== 'string',
  );
  if (bad >= 0)
    throw new StoreDataError(
      `${shown}: results[${bad}]: expected an object with "scenarioKey" and "agentName" strings`,
    );
  return { ...m, reportId: id } as ReportManifest;
}

/** Pairs of a report that did not complete: what `--failed` re-runs. */
export function failedPairs(manifest: ReportManifest): { scenarioKey: string; agentName: string }[] {
  return manifest.results
    .filter((r) => r.status !== 'completed')
    .map((r) => ({ scenarioKey: r.scenarioKey, agentName: r.agentName }));
}
