/**
 * The AXIS Result over the stored reports, oldest first: `axis history [scenarioKey]` prints it as a
 * table and report.html draws it as a chart ({@link buildTrend}). Both read the same points, so the
 * numbers in the terminal and on the page are the same. Pure: manifests in, points and text out.
 */
import { oneLine } from './format.js';
import { compareReportIds } from './ids.js';
import { padEndWidth, padStartWidth, textWidth } from '../util/width.js';

/** Reports `axis history` shows by default, and the most report.html's trend chart draws. */
export const HISTORY_LIMIT = 20;

export interface HistoryPoint {
  reportId: string;
  timestamp?: string;
  /** The report's average AXIS Result, or (for one scenario) the mean over its scored agents. */
  axisScore: number | null;
  /** One scenario: each agent's AXIS Result in that report (0 when its scoring failed, null when unscored). */
  agents?: Record<string, number | null>;
  pairs: number;
  failed: number;
}

/** What the history reads of a report: a `ReportManifest` fits, and so does report.html's input. */
export interface HistoryManifest {
  reportId: string;
  timestamp?: string;
  summary?: { averageAxisScore?: number | null };
  results: readonly HistoryEntry[];
  /** An `axis run --shard` report: part of a run, whose merged report is the run (not in the history). */
  shard?: { index: number; total: number };
}

export interface HistoryEntry {
  scenarioKey: string;
  agentName: string;
  status?: string;
  score?: { status?: string; axisScore?: number | null } | null;
}

export interface History {
  scenarioKey?: string;
  points: HistoryPoint[];
  /** A base key with no pair of its own: the variant keys the reports hold for it, to ask for instead. */
  variants?: string[];
  /** Stored reports older than the ones read, left out by the limit (shards' own are never counted). */
  olderNotShown?: number;
}

/**
 * A pair's AXIS Result in one report: its score when scored, 0 when scoring failed (a failure never
 * disappears from a trend), null when it was not scored.
 */
export function pairResult(r: HistoryEntry): number | null {
  if (r.score?.status === 'scored') return r.score.axisScore ?? null;
  return r.score?.status === 'failed' ? 0 : null;
}

/** Pairs where no run completed, as report.json's summary counts them: a cancelled pair did not fail. */
function failedPairs(rows: readonly HistoryEntry[]): number {
  return rows.filter((r) => r.status !== 'completed' && r.status !== 'cancelled').length;
}

/** Floored, like every headline: a mean never rounds up. */
function flooredMean(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? Math.floor(known.reduce((a, b) => a + b, 0) / known.length) : null;
}

function byReportId<M extends HistoryManifest>(manifests: readonly M[]): M[] {
  return [...manifests].sort((a, b) => compareReportIds(a.reportId, b.reportId));
}

function stamp(m: HistoryManifest): { timestamp?: string } {
  return m.timestamp ? { timestamp: m.timestamp } : {};
}

export function buildHistory(manifests: readonly HistoryManifest[], scenarioKey?: string): History {
  const points: HistoryPoint[] = [];
  for (const m of byReportId(manifests)) {
    if (scenarioKey === undefined) {
      points.push({
        reportId: m.reportId,
        ...stamp(m),
        axisScore: m.summary?.averageAxisScore ?? null,
        pairs: m.results.length,
        failed: failedPairs(m.results),
      });
      continue;
    }
    const rows = m.results.filter((r) => r.scenarioKey === scenarioKey);
    if (rows.length === 0) continue;
    const agents: Record<string, number | null> = {};
    for (const r of rows) agents[r.agentName] = pairResult(r);
    // Over the scored pairs only, as the report's average: a failed pair's 0 is counted in `failed`.
    const scored = rows.filter((r) => r.score?.status === 'scored').map(pairResult);
    points.push({
      reportId: m.reportId,
      ...stamp(m),
      axisScore: flooredMean(scored),
      agents,
      pairs: rows.length,
      failed: failedPairs(rows),
    });
  }
  if (scenarioKey === undefined) return { points };
  const variants = points.length === 0 ? variantKeys(manifests, scenarioKey) : [];
  return { scenarioKey, points, ...(variants.length > 0 ? { variants } : {}) };
}

/** The stored variant keys (`s@x`) of a base key `s`, sorted. */
function variantKeys(manifests: readonly HistoryManifest[], base: string): string[] {
  const keys = manifests.flatMap((m) => m.results.map((r) => r.scenarioKey));
  return [...new Set(keys.filter((k) => k.startsWith(`${base}@`)))].sort();
}

/** One (scenario, agent) pair of the report the chart is drawn for. */
export interface TrendPair {
  scenarioKey: string;
  agentName: string;
}

export interface Trend {
  /** The most reports drawn ({@link HISTORY_LIMIT} by default). */
  limit: number;
  /** Stored reports older than the ones drawn, left out by the limit. */
  olderNotShown: number;
  /** Oldest first; the last is the report the chart belongs to. */
  reports: { reportId: string; timestamp?: string }[];
  /** Per report, its average AXIS Result: the same number `axis history` prints. */
  average: (number | null)[];
  /** Per pair of the report, its AXIS Result in each report (null: not in that report or not scored). */
  pairs: (TrendPair & { values: (number | null)[] })[];
}

/**
 * The chart of one report: `manifests` are the stored reports up to and including it (the newest
 * `limit` of them, `olderNotShown` more exist). Reports that share no pair with it are left out: their
 * average says nothing about these scenarios.
 */
export function buildTrend(
  manifests: readonly HistoryManifest[],
  pairs: readonly TrendPair[],
  limit = HISTORY_LIMIT,
  olderNotShown = 0,
): Trend {
  const key = (p: TrendPair) => `${p.scenarioKey}\u0000${p.agentName}`;
  const wanted = new Set(pairs.map(key));
  const shown = byReportId(manifests)
    .slice(-limit)
    .filter((m, i, all) => i === all.length - 1 || m.results.some((r) => wanted.has(key(r))));
  const average = buildHistory(shown).points.map((p) => p.axisScore);
  const values = new Map(pairs.map((p) => [key(p), [] as (number | null)[]]));
  for (const m of shown) {
    const inReport = new Map(m.results.map((r) => [key(r), pairResult(r)]));
    for (const [k, list] of values) list.push(inReport.get(k) ?? null);
  }
  return {
    limit,
    olderNotShown: olderNotShown + Math.max(0, manifests.length - limit),
    reports: shown.map((m) => ({ reportId: m.reportId, ...stamp(m) })),
    average,
    pairs: pairs.map((p) => ({
      scenarioKey: p.scenarioKey,
      agentName: p.agentName,
      values: values.get(key(p))!,
    })),
  };
}

const BARS = '▁▂▃▄▅▆▇█';

/** `▁▄█` over 0–100 (a gap for an unscored report). */
export function sparkline(values: readonly (number | null)[]): string {
  return values.map((v) => (v === null ? ' ' : BARS[Math.min(7, Math.floor((v / 100) * 8))])).join('');
}

/** `limit`: the reports read (`-n`), for the line naming the older ones it left out. */
export function formatHistory(h: History, limit = HISTORY_LIMIT): string {
  if (h.points.length === 0) {
    if (!h.scenarioKey) return 'No reports yet. Run `axis run` to create one.\n';
    const key = `"${oneLine(h.scenarioKey, 80)}"`;
    // The older reports were not read: they may hold it.
    const newest =
      limit === 1 ? 'The newest stored report has no' : `None of the newest ${limit} stored reports has`;
    const none = h.olderNotShown ? newest : 'No stored report has';
    const names = h.variants?.map((v) => oneLine(v, 80));
    const said = names
      ? `${none} scenario ${key} itself; it has variants: ${names.join(', ')} (e.g. axis history ${names[0]}).`
      : `${none} scenario ${key}.`;
    return [said, ...olderLine(h, limit), ''].join('\n');
  }
  const agents = [...new Set(h.points.flatMap((p) => Object.keys(p.agents ?? {})))];
  // Agent names come from report.json files anyone may edit: no control character reaches the terminal.
  const head = ['report', 'AXIS', ...agents.map((a) => oneLine(a, 40)), 'pairs', 'failed'];
  const cell = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));
  const rows = h.points.map((p) => [
    p.reportId,
    cell(p.axisScore),
    ...agents.map((a) => cell(p.agents?.[a])),
    String(p.pairs),
    String(p.failed),
  ]);
  const widths = head.map((t, i) => Math.max(textWidth(t), ...rows.map((r) => textWidth(r[i]!))));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? padEndWidth(c, widths[i]!) : padStartWidth(c, widths[i]!))).join('  ');
  const scores = h.points.map((p) => p.axisScore);
  // The change is measured from the first report with a score, so that is the one it names.
  const known = h.points.filter((p): p is HistoryPoint & { axisScore: number } => p.axisScore !== null);
  const delta = known.length >= 2 ? known[known.length - 1]!.axisScore - known[0]!.axisScore : undefined;
  const trend = `Trend: ${sparkline(scores)}${delta !== undefined ? `  (${delta >= 0 ? '+' : ''}${delta} since ${known[0]!.reportId})` : ''}`;
  const n = `${h.points.length} report${h.points.length === 1 ? '' : 's'}`;
  const title = h.scenarioKey
    ? `AXIS Result of ${oneLine(h.scenarioKey, 80)} over ${n}`
    : `AXIS Result over ${n}`;
  return [title, '', line(head), ...rows.map(line), '', trend, ...olderLine(h, limit), ''].join('\n');
}

function olderLine(h: History, limit: number): string[] {
  const n = h.olderNotShown ?? 0;
  if (n === 0) return [];
  const is = n === 1 ? 'report is' : 'reports are';
  const key = h.scenarioKey === undefined ? '' : ` ${oneLine(h.scenarioKey, 80)}`;
  return [`${n} older ${is} not shown (axis history${key} -n ${limit + n} shows every one).`];
}
