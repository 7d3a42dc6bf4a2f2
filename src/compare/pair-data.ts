/**
 * What a comparison needs of one pair, read from report data (a manifest entry, a merged shard report,
 * or a baseline): headline values, per-run samples, reliability. Pure.
 */
import type { ReportManifest, ReportResultEntry } from '../report/manifest.js';
import { describeValue } from '../util/describe-value.js';
import { AxisError } from '../util/errors.js';
import { reliability, runState } from '../scoring/runs.js';

export type MetricId =
  'axisScore' | 'goalAchievement' | 'environment' | 'service' | 'agent' | 'durationMs' | 'tokens';

export interface MetricInfo {
  id: MetricId;
  label: string;
  /** The name used in thresholds and gate failures. */
  key: string;
  better: 'higher' | 'lower';
}

export const METRICS: readonly MetricInfo[] = [
  { id: 'axisScore', label: 'AXIS Result', key: 'axis_score', better: 'higher' },
  { id: 'goalAchievement', label: 'Goal Achievement', key: 'goal_achievement', better: 'higher' },
  { id: 'environment', label: 'Environment', key: 'environment', better: 'higher' },
  { id: 'service', label: 'Service', key: 'service', better: 'higher' },
  { id: 'agent', label: 'Agent', key: 'agent', better: 'higher' },
  { id: 'durationMs', label: 'Duration', key: 'duration', better: 'lower' },
  { id: 'tokens', label: 'Tokens', key: 'tokens', better: 'lower' },
];

export type Samples = Partial<Record<MetricId, number[]>>;

/** A pair's comparable numbers. Headline values are the representative run's. */
export interface PairData {
  axisScore: number;
  goalAchievement: number | null;
  environment: number | null;
  service: number | null;
  agent: number | null;
  durationMs: number;
  /** input + output + cache-read tokens. */
  tokens: number;
  /** src/scoring/runs.ts; null when no run counted. */
  reliability: number | null;
  runs: number;
  /** Sample standard deviation of the scored composites; present with more than one scored run. */
  sigma?: number;
  /** Per-run values of the scored runs, in run order; present with more than one scored run. */
  samples?: Samples;
}

export type PairReading =
  | { ok: true; data: PairData }
  | { ok: false; why: 'failed' | 'unscored' | 'cancelled'; reason: string; reliability: number | null };

const tokensOf = (u: { input: number; output: number; cacheReadInput: number }) =>
  u.input + u.output + u.cacheReadInput;

/**
 * What a comparison reads beyond the report's shape check: every pair has runs, and a run marked scored
 * has its AXIS Result. Without this an upstream report (no `runs`) was an internal error and a damaged
 * one a baseline that could not be read back. `file` names the report.json; exit 2.
 */
export function requireComparable(results: readonly ReportResultEntry[], file: string): void {
  const problem = comparableProblem(results);
  if (problem) throw new AxisError(`${file}: ${problem}`, { exitCode: 2 });
}

/**
 * A shard's own report (`axis run --shard`) holds part of each pair's runs and none of the other
 * shards' pairs: compared as it is, a slice reads as the whole run. Exit 2, pointing at the merge.
 */
export function requireWholeRun(
  m: Pick<ReportManifest, 'reportId' | 'shard'>,
  purpose: 'for baselines' | 'to compare',
): void {
  if (!m.shard) return;
  throw new AxisError(
    `Report ${m.reportId} is shard ${m.shard.index}/${m.shard.total} of a sharded run: it holds part of the runs. ` +
      `Use the merged report (axis reports merge <blobs>) ${purpose}.`,
    { exitCode: 2 },
  );
}

function comparableProblem(results: readonly ReportResultEntry[]): string | undefined {
  for (const [i, e] of results.entries()) {
    if (!Array.isArray(e.runs) || e.runs.length === 0)
      return `results[${i}].runs: expected at least one run, found ${describeValue(e.runs)} (a report of another AXIS cannot be compared)`;
    // The shape check lets them be absent (a listing needs neither); a comparison reads both.
    if (typeof e.durationMs !== 'number')
      return `results[${i}].durationMs: expected a finite number ≥ 0, found ${describeValue(e.durationMs)}`;
    if (!e.tokenUsage)
      return `results[${i}].tokenUsage: expected an object of token counts, found ${describeValue(e.tokenUsage)}`;
    for (const [j, r] of e.runs.entries())
      if (runState(r) === 'completed' && r.scoreStatus === 'scored' && typeof r.axisScore !== 'number')
        return `results[${i}].runs[${j}].axisScore: expected a number from 0 to 100 for a scored run, found ${describeValue(r.axisScore)}`;
  }
  return undefined;
}

/** Reads a report entry; not ok when it has no scored headline (no run completed, judging failed, …). */
export function readPair(e: ReportResultEntry): PairReading {
  const rel = reliability(e.runs.map((r) => ({ status: r.status, scoreStatus: r.scoreStatus })));
  const score = e.score;
  if (e.status !== 'completed' || !score || score.status !== 'scored' || score.axisScore === null) {
    const why = e.status === 'cancelled' ? 'cancelled' : e.status !== 'completed' ? 'failed' : 'unscored';
    const reason =
      why === 'unscored'
        ? (score?.reason ?? 'not scored (--no-score)')
        : (e.reason ?? score?.reason ?? e.status);
    return { ok: false, why, reason, reliability: rel.value };
  }
  const data: PairData = {
    axisScore: score.axisScore,
    goalAchievement: score.goalAchievement.score,
    environment: score.environment.score,
    service: score.service.score,
    agent: score.agent.score,
    durationMs: e.durationMs,
    tokens: tokensOf(e.tokenUsage),
    reliability: rel.value,
    runs: e.runs.length,
  };
  const scored = e.runs.filter((r) => runState(r) === 'completed' && r.scoreStatus === 'scored');
  if (scored.length > 1) {
    const samples: Samples = {
      axisScore: scored.map((r) => r.axisScore!),
      durationMs: scored.map((r) => r.durationMs),
      tokens: scored.map((r) => tokensOf(r.tokenUsage)),
    };
    for (const id of ['goalAchievement', 'environment', 'service', 'agent'] as const) {
      const values = scored.map((r) => r.dimensionScores?.[id]);
      if (values.every((v): v is number => typeof v === 'number')) samples[id] = values;
    }
    data.samples = samples;
    data.sigma = roundTo(sampleSd(samples.axisScore!), 2);
  }
  return { ok: true, data };
}

export function sampleSd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
}

export function roundTo(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/**
 * Points as the band uses them (2 decimals): 5, 4.5, 4.98. One decimal would print a band of 4.98 as
 * 5.0 beside a drop of 5 that fails it.
 */
export function points(n: number, minDecimals = 0): string {
  const one = n.toFixed(Math.max(1, minDecimals));
  // A floor finer than hundredths (0.125) is printed as it is: 0.13 would read wider than it is.
  if (Number(one) !== n) return Number(n.toFixed(2)) === n ? n.toFixed(2) : String(n);
  return Number.isInteger(n) && minDecimals === 0 ? String(n) : one;
}

/** The headline value of a metric. */
export function headline(d: PairData, id: MetricId): number | null {
  return d[id];
}
