/**
 * Reading reports without loading the config: `axis reports` must keep working when the config is
 * broken or gone. The project is found by its `.axis/` directory (or a config file) upward from the
 * cwd; a listing parses only the report.json files it shows, never a per-run file.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CONFIG_NAMES } from '../config/find.js';
import { matchesName, splitList } from '../util/name-filter.js';
import { AxisError } from '../util/errors.js';
import type { RunFiles } from './job-result.js';
import { confinedPath, readStoreJson, readStoreText } from './confine.js';
import { costTotal } from './cost-total.js';
import { cachedRow, keepRows, rowStamp, type RowStamp } from './list-cache.js';
import { DETAIL_SHAPE, shapeProblem } from './manifest-shape.js';
import type { RunDetailFile } from './schema.js';
import { classifyInteractions } from '../scoring/classify.js';
import { groupTranscript } from '../scoring/interactions.js';
import { buildSparseIndex } from '../scoring/sparse-index.js';
import { gateChecks } from './verdict.js';
import { AXIS_DIR, latestReportId, listReportIds, reportsDir, SCORE_PENDING } from './locate.js';
import { parseManifest, type ReportManifest, type ReportResultEntry, type RunSummary } from './manifest.js';

/**
 * The project directory whose `.axis/reports/` is read. `-c <path>`: that directory, or the file's
 * directory (the file is never loaded). Otherwise the nearest directory upward from `cwd` holding
 * `.axis/` or an `axis.config.*`; `cwd` itself when there is none.
 */
export function findProjectDir(cwd: string, config?: string): string {
  if (config !== undefined) {
    const path = resolve(cwd, config);
    if (!existsSync(path))
      throw new AxisError(`Config file not found: ${config} (resolved to ${path}).`, { exitCode: 2 });
    return statSync(path).isDirectory() ? path : dirname(path);
  }
  let dir = resolve(cwd);
  for (;;) {
    if (isDir(join(dir, AXIS_DIR)) || CONFIG_NAMES.some((n) => existsSync(join(dir, n)))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Path of a report file as the user sees it: relative to the project root, forward slashes. */
export function projectPath(projectDir: string, abs: string): string {
  const rel = relative(projectDir, abs);
  return rel && !rel.startsWith('..') ? rel.split('\\').join('/') : abs;
}

export function reportDir(projectDir: string, reportId: string): string {
  return join(reportsDir(projectDir), reportId);
}

/** `axis score` stopped (or still running) between the per-run files and report.json: say so on stderr. */
export function warnIfScorePending(dir: string, id: string): void {
  if (!existsSync(join(dir, SCORE_PENDING))) return;
  process.stderr.write(
    `warning: \`axis score\` did not finish rewriting report ${id} (it was stopped, or is still running): ` +
      `some per-run files may hold newer scores than report.json. Run \`axis score ${id}\` again.\n`,
  );
}

// ---------------------------------------------------------------------------------------------
// The list

/** One row of `axis reports` (and one element of `axis reports --json`). */
export interface ReportListEntry {
  reportId: string;
  name?: string;
  /** ISO start time. */
  timestamp?: string;
  durationMs?: number;
  /** Pairs (scenario × agent). */
  pairs: number;
  completed: number;
  failed: number;
  skipped: number;
  runs: number;
  /** Mean composite over scored pairs; null when the report is not scored or nothing scored. */
  averageAxisScore: number | null;
  scored: boolean;
  /** Agent cost over the runs that reported one; null when none did. */
  costUsd: number | null;
  /** Runs that reported no cost (not counting simulated ones): `costUsd` is then a lower bound. */
  runsWithoutCost: number;
  /** Every pair ran against the model simulator: there is no real cost. */
  simulated?: boolean;
  incomplete: boolean;
  incompleteReason?: string;
  /** The CI gate's verdict as report.json stores it; null for a report from before it was stored. */
  gate: 'pass' | 'fail' | null;
  /** What that gate checked, in the Gate line's words (gateChecks); absent without a verdict. */
  gateChecks?: string;
  /** That gate applied no threshold and no baseline: its pass says only that the pairs completed. */
  gateCompletionOnly?: true;
  /** That verdict was stored before AXIS recorded its thresholds: what it held pairs to is unknown. */
  gateThresholdsUnknown?: true;
  /** An `axis run --shard` report: one shard of a run's jobs. */
  shard?: { index: number; total: number };
  /** Project-relative report directory. */
  path: string;
  /** report.json could not be read or is not a report. */
  error?: string;
}

export interface ReportList {
  /** Newest first, at most `limit`. */
  reports: ReportListEntry[];
  /** Reports on disk. */
  total: number;
}

/**
 * The newest `limit` reports; only their report.json files are read, and only those whose row is not
 * kept in `.axis/cache/list/` as they are now (list-cache.ts).
 */
export async function listReports(projectDir: string, limit: number): Promise<ReportList> {
  const all = await listReportIds(projectDir);
  const ids = [...all].reverse();
  const reports: ReportListEntry[] = [];
  const read: { stamp: RowStamp; row: Omit<ReportListEntry, 'path'> }[] = [];
  for (const id of ids.slice(0, limit)) reports.push(await listEntry(projectDir, id, read));
  // The list is complete either way; a cache that cannot be written is said, never silent.
  await keepRows(projectDir, read, all).catch((err: unknown) => {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(`axis: warning: could not write the list cache (${why}); the list is complete\n`);
  });
  return { reports, total: ids.length };
}

async function listEntry(
  projectDir: string,
  id: string,
  read: { stamp: RowStamp; row: Omit<ReportListEntry, 'path'> }[],
): Promise<ReportListEntry> {
  const path = projectPath(projectDir, reportDir(projectDir, id));
  // Stamped before the read: a report.json rewritten meanwhile is read again next time, never hidden.
  const stamp = rowStamp(projectDir, id);
  const kept = stamp && cachedRow<Omit<ReportListEntry, 'path'>>(projectDir, id, stamp);
  if (kept) return { ...kept, path };
  try {
    const row = summarizeReport(await readReport(projectDir, id), path);
    if (stamp) {
      const { path: _shown, ...rest } = row;
      read.push({ stamp, row: rest });
    }
    return row;
  } catch (err) {
    return {
      reportId: id,
      pairs: 0,
      completed: 0,
      failed: 0,
      skipped: 0,
      runs: 0,
      averageAxisScore: null,
      scored: false,
      costUsd: null,
      runsWithoutCost: 0,
      incomplete: false,
      gate: null,
      path,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/** A list row from a manifest (pure). */
export function summarizeReport(m: ReportManifest, path: string): ReportListEntry {
  const s = m.summary ?? ({} as Partial<ReportManifest['summary']>);
  const runs = m.results.flatMap((r) => r.runs ?? []);
  // A run summary does not repeat its pair's `simulated`.
  const cost = costTotal(
    m.results.flatMap((r) => (r.runs ?? []).map((x) => ({ costUsd: x.costUsd, simulated: r.simulated }))),
  );
  const avg = s.averageAxisScore;
  return {
    reportId: m.reportId,
    ...(m.name ? { name: m.name } : {}),
    ...(m.timestamp ? { timestamp: m.timestamp } : {}),
    ...(typeof m.durationMs === 'number' ? { durationMs: m.durationMs } : {}),
    pairs: s.total ?? m.results.length,
    completed: s.completed ?? m.results.filter((r) => r.status === 'completed').length,
    failed: s.failed ?? m.results.filter((r) => r.status !== 'completed').length,
    skipped: s.skipped ?? 0,
    runs: s.runsTotal ?? runs.length,
    averageAxisScore: typeof avg === 'number' ? avg : null,
    scored: s.scores !== undefined || avg !== undefined,
    costUsd: cost.usd,
    runsWithoutCost: cost.withoutCost,
    ...(m.results.length > 0 && m.results.every((r) => r.simulated) ? { simulated: true } : {}),
    incomplete: m.incomplete === true,
    ...(m.incomplete && m.incompleteReason ? { incompleteReason: m.incompleteReason } : {}),
    gate: m.verdict ? (m.verdict.pass ? 'pass' : 'fail') : null,
    ...(m.verdict ? { gateChecks: gateChecks(m.verdict) } : {}),
    ...(m.verdict?.thresholds === null && m.verdict.baseline === null ? { gateCompletionOnly: true } : {}),
    ...(m.verdict && m.verdict.thresholds === undefined ? { gateThresholdsUnknown: true } : {}),
    ...(m.shard ? { shard: { index: m.shard.index, total: m.shard.total } } : {}),
    path,
  };
}

// ---------------------------------------------------------------------------------------------
// One report

/** `latest` → {@link latestReportId}; an explicit id must exist (AxisError, exit 1, naming recent ids). */
export async function resolveReport(projectDir: string, id: string): Promise<string> {
  const ids = await listReportIds(projectDir);
  const where = projectPath(projectDir, reportsDir(projectDir));
  if (id === 'latest') {
    const latest = latestReportId(projectDir, ids);
    if (!latest)
      throw new AxisError(`No reports found in ${where}/. Run \`axis run\` to generate one.`, {
        exitCode: 1,
      });
    return latest;
  }
  if (ids.includes(id)) return id;
  const recent = ids.slice(-5).reverse();
  const hint = recent.length
    ? `\nLatest reports: ${recent.join(', ')}${ids.length > recent.length ? ` (${ids.length} in all: axis reports -n ${ids.length})` : ''}`
    : `\nNo reports in ${where}/. Run \`axis run\` to generate one.`;
  throw new AxisError(`Report "${id}" not found.${hint}`, { exitCode: 1 });
}

/** Parses report.json; only the shape every reader needs is checked, so older reports still open. */
export async function readReport(projectDir: string, id: string): Promise<ReportManifest> {
  const abs = join(reportDir(projectDir, id), 'report.json');
  const path = projectPath(projectDir, abs);
  return parseManifest(readStoreJson(abs, path), path, id);
}

// ---------------------------------------------------------------------------------------------
// One scenario

export interface RunView {
  summary: RunSummary;
  representative: boolean;
  /** Null when the detail file is missing or unreadable (`detailError` says why). */
  detail: RunDetailFile | null;
  detailError?: string;
  /** Project-relative paths of this run's files (those recorded in report.json). */
  paths: { detail?: string; raw?: string; sparseIndex?: string; artifactsDir?: string };
  /** Lines of `<agent>.sparse-index.txt`; null when the file is absent. */
  sparseIndex: string[] | null;
}

export interface PairView {
  entry: ReportResultEntry;
  /** In run order. */
  runs: RunView[];
}

/**
 * The pairs of `scenarioKey` (the exact key; else every variant of that base key), optionally only the agents
 * matching `agent` (exact name, adapter name or glob; comma-separated for several), with each run's
 * detail file and sparse index. Throws AxisError (exit 1) naming what the report does hold.
 */
export async function readScenario(
  projectDir: string,
  manifest: ReportManifest,
  scenarioKey: string,
  agent?: string,
): Promise<PairView[]> {
  const exact = manifest.results.filter((r) => r.scenarioKey === scenarioKey);
  // A base key without its `@variant` shows every variant of it.
  const entries = exact.length ? exact : manifest.results.filter((r) => baseKey(r) === scenarioKey);
  if (entries.length === 0) {
    const keys = [...new Set(manifest.results.map((r) => r.scenarioKey))];
    const hint = keys.length ? `\nScenarios in this report: ${keys.join(', ')}` : '';
    throw new AxisError(`Scenario "${scenarioKey}" not found in report "${manifest.reportId}".${hint}`);
  }
  const patterns = splitList(agent).map((p) => p.toLowerCase());
  const picked = patterns.length
    ? entries.filter((e) => patterns.some((p) => matchesName(p, e.agentName, e.agent ?? e.agentName)))
    : entries;
  if (picked.length === 0)
    throw new AxisError(
      `Scenario "${scenarioKey}" (agent: ${agent}) not found in report "${manifest.reportId}".\n` +
        `Agents that ran it: ${entries.map((e) => e.agentName).join(', ')}`,
    );
  const dir = reportDir(projectDir, manifest.reportId);
  const out: PairView[] = [];
  for (const entry of picked) {
    const runs: RunView[] = [];
    const index = manifest.results.indexOf(entry);
    const list: RunSummary[] = Array.isArray(entry.runs)
      ? entry.runs.filter((r) => r !== null && typeof r === 'object')
      : [];
    for (const [j, summary] of list.entries())
      runs.push(await readRun(projectDir, dir, { entry, field: `results[${index}].runs[${j}]` }, summary));
    out.push({ entry, runs });
  }
  return out;
}

function baseKey(r: ReportResultEntry): string {
  return r.variant && r.scenarioKey.endsWith(`@${r.variant}`)
    ? r.scenarioKey.slice(0, -(r.variant.length + 1))
    : r.scenarioKey;
}

async function readRun(
  projectDir: string,
  dir: string,
  where: { entry: ReportResultEntry; field: string },
  summary: RunSummary,
): Promise<RunView> {
  const { entry } = where;
  const manifestShown = projectPath(projectDir, join(dir, 'report.json'));
  const files = (summary.files ?? {}) as Partial<Record<keyof RunFiles, unknown>>;
  // Every path comes from report.json: confined to the report folder, or left out with the reason.
  const problems: string[] = [];
  const place = (rel: unknown, key: string): string | undefined => {
    if (rel === undefined) return undefined;
    try {
      return confinedPath(dir, rel, `${manifestShown}: ${where.field}.files.${key}`);
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
      return undefined;
    }
  };
  const detailAbs = place(files.detail, 'detail');
  const sparseAbs =
    detailAbs && place((files.detail as string).replace(/\.json$/, '.sparse-index.txt'), 'detail');
  const rawAbs = place(files.raw, 'raw');
  const artifactsAbs = place(files.artifactsDir, 'artifactsDir');
  const shown = (abs: string | undefined) => (abs ? projectPath(projectDir, abs) : undefined);
  const view: RunView = {
    summary,
    representative: summary.run === entry.representativeRun,
    detail: null,
    paths: {
      ...(detailAbs ? { detail: shown(detailAbs) } : {}),
      ...(rawAbs ? { raw: shown(rawAbs) } : {}),
      ...(sparseAbs ? { sparseIndex: shown(sparseAbs) } : {}),
      ...(artifactsAbs ? { artifactsDir: shown(artifactsAbs) } : {}),
    },
    sparseIndex: null,
  };
  if (!detailAbs) {
    view.detailError = problems[0] ?? 'report.json lists no detail file for this run';
    return view;
  }
  try {
    const parsed = readStoreJson(detailAbs, view.paths.detail!);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new AxisError(`${view.paths.detail}: not a per-run detail object`);
    const problem = shapeProblem(parsed, DETAIL_SHAPE, '');
    if (problem) throw new AxisError(`${view.paths.detail}: ${problem.slice(1)}`);
    view.detail = parsed as RunDetailFile;
  } catch (err) {
    view.detailError = err instanceof Error ? err.message : String(err);
  }
  if (sparseAbs) {
    const text = readStoreText(sparseAbs);
    if (text !== null) view.sparseIndex = text.replace(/\n$/, '').split('\n');
  }
  // `--no-score` runs write no sparse index (scoring writes it): derive it from the stored transcript.
  if (view.sparseIndex === null && view.detail) {
    const derived = derivedSparseIndex(view.detail);
    if (derived) {
      view.sparseIndex = derived;
      delete view.paths.sparseIndex;
    }
  }
  return view;
}

function derivedSparseIndex(detail: RunDetailFile): string[] | null {
  const t = (detail as { transcript?: unknown }).transcript as
    { events?: unknown; startedAt?: number; endedAt?: number } | undefined;
  if (!t || !Array.isArray(t.events)) return null;
  try {
    const interactions = groupTranscript(t as Parameters<typeof groupTranscript>[0]);
    const text = buildSparseIndex(classifyInteractions(interactions), {
      scenarioKey: String((detail as { scenarioKey?: unknown }).scenarioKey ?? ''),
      agentName: String((detail as { agentName?: unknown }).agentName ?? ''),
    });
    return text.replace(/\n$/, '').split('\n');
  } catch {
    return null; // a hand-edited or foreign transcript: show none rather than fail the view
  }
}
