/**
 * Baseline comparison (docs/reports.md#baselines): pairs matched by scenarioKey + agent, the AXIS Result
 * judged by a tolerance band (1 point, widened to 2σ of the baseline's measured spread, the floor kept),
 * reliability drops, failing and missing pairs as regressions, and a Welch t-test per metric reported
 * beside the band. The verdict (exit code) follows the band, never the test. Pure: data in, data out.
 */
import type { ReportManifest } from '../report/manifest.js';
import type { Baseline } from './baseline.js';
import {
  METRICS,
  points,
  readPair,
  roundTo,
  sampleSd,
  type MetricId,
  type PairData,
  type PairReading,
} from './pair-data.js';
import { significance, welchTest, type Significance } from './stats.js';
import { reliabilityPair } from '../scoring/runs.js';

/** Points a score may move before it counts (`settings.thresholds.baseline_tolerance`). */
export const DEFAULT_TOLERANCE = 1;

export type Change = 'improved' | 'unchanged' | 'regressed' | 'new' | 'missing';

export type RegressionKind = 'score' | 'reliability' | 'failed' | 'unscored' | 'missing';

export interface Regression {
  kind: RegressionKind;
  metric?: string;
  value?: number;
  limit?: number;
  message: string;
}

/** A Welch test as stored in JSON: infinite t and d (two constant samples that differ) become null. */
export type MetricSignificance = Omit<Significance, 't' | 'd'> & {
  t: number | null;
  d: number | null;
  /** Sample sizes: [baseline (or A), current (or B)]. */
  n: [number, number];
};

export interface MetricComparison {
  metric: MetricId;
  label: string;
  better: 'higher' | 'lower';
  /** Headline values (the representative runs). */
  baseline: number | null;
  current: number | null;
  delta: number | null;
  /** Sample means, when both sides have samples. */
  means?: [number, number];
  /** Both sides ran the pair more than once. */
  significance?: MetricSignificance;
}

export interface Band {
  /** ± points around the baseline's AXIS Result. */
  value: number;
  floor: number;
  /** The baseline's measured σ of the composite; null for a single-run baseline. */
  sigma: number | null;
  /** 2σ exceeded the floor. */
  widened: boolean;
}

export interface PairComparison {
  baseline: number | null;
  current: number | null;
  delta: number | null;
  change: Change;
  regressions: Regression[];
  band: Band | null;
  reliability: { baseline: number | null; current: number | null };
  runs: { baseline: number; current: number };
  metrics: MetricComparison[];
}

export interface ComparisonEntry extends PairComparison {
  scenarioKey: string;
  agentName: string;
}

export interface SignificantTally {
  /** Metrics with a test. */
  tested: number;
  regressions: number;
  improvements: number;
  notSignificant: number;
}

export interface ComparisonSummary {
  improved: number;
  regressed: number;
  unchanged: number;
  new: number;
  missing: number;
  significant: SignificantTally;
}

export interface Comparison {
  baselineName: string;
  reportId: string;
  /** The band's floor in points. */
  tolerance: number;
  entries: ComparisonEntry[];
  summary: ComparisonSummary;
  /** Any pair regressed or is missing: what the exit code follows. */
  regressed: boolean;
}

export interface CompareOptions {
  /** The band's floor in points; default 1. */
  tolerance?: number;
}

/**
 * The band around a baseline pair's AXIS Result: max(floor, 2σ of its measured spread). σ comes from
 * the samples when there are any (the stored one is rounded, maybe up) and the band is rounded down:
 * rounding must never widen it.
 */
export function band(base: Pick<PairData, 'sigma' | 'samples'>, floor: number): Band {
  const sigma = base.sigma ?? null;
  const values = base.samples?.axisScore;
  const exact = values && values.length > 1 ? sampleSd(values) : sigma;
  const twoSigma = exact === null ? 0 : 2 * exact;
  const value = Math.max(floor, Math.floor(twoSigma * 100 + 1e-9) / 100);
  return { value, floor, sigma, widened: twoSigma > floor };
}

/**
 * Compares one pair against its reference (`base`, the baseline or the A side of an A/B). `cur` is the
 * current pair as read from a report; a pair that no longer has a scored headline is a regression.
 */
export function comparePair(base: PairData, cur: PairReading, floor: number): PairComparison {
  const b = band(base, floor);
  const regressions: Regression[] = [];
  if (!cur.ok) {
    regressions.push({
      kind: cur.why === 'unscored' ? 'unscored' : 'failed',
      message:
        cur.why === 'unscored'
          ? `Unscored now (${cur.reason}), so it cannot be shown not to have regressed`
          : `${cur.why === 'cancelled' ? 'Cancelled' : 'No run completes any more'}: ${cur.reason}`,
    });
    return {
      baseline: base.axisScore,
      current: null,
      delta: null,
      change: 'regressed',
      regressions,
      band: b,
      reliability: { baseline: base.reliability, current: cur.reliability },
      runs: { baseline: base.runs, current: 0 },
      metrics: [],
    };
  }
  const now = cur.data;
  const delta = roundTo(now.axisScore - base.axisScore, 2);
  if (delta < -b.value)
    regressions.push({
      kind: 'score',
      metric: 'axis_score',
      value: now.axisScore,
      limit: roundTo(base.axisScore - b.value, 2),
      message: `AXIS Result ${now.axisScore} is ${fmt(-delta)} below the baseline ${base.axisScore} (tolerance ±${fmt(b.value)})`,
    });
  if (base.reliability !== null && now.reliability !== null && now.reliability < base.reliability)
    regressions.push({
      kind: 'reliability',
      metric: 'reliability',
      value: now.reliability,
      limit: base.reliability,
      message: reliabilityBelowBaseline(now.reliability, base.reliability),
    });
  const change: Change = regressions.length > 0 ? 'regressed' : delta > b.value ? 'improved' : 'unchanged';
  return {
    baseline: base.axisScore,
    current: now.axisScore,
    delta,
    change,
    regressions,
    band: b,
    reliability: { baseline: base.reliability, current: now.reliability },
    runs: { baseline: base.runs, current: now.runs },
    metrics: compareMetrics(base, now),
  };
}

/** Every metric: headline delta, and a Welch test when both sides have at least two samples. */
export function compareMetrics(base: PairData, now: PairData): MetricComparison[] {
  return METRICS.map((m) => {
    const [x, y] = [base[m.id], now[m.id]];
    const out: MetricComparison = {
      metric: m.id,
      label: m.label,
      better: m.better,
      baseline: x,
      current: y,
      delta: x === null || y === null ? null : roundTo(y - x, 2),
    };
    const [sa, sb] = [base.samples?.[m.id], now.samples?.[m.id]];
    if (sa && sb && sa.length > 1 && sb.length > 1) {
      const s = significance(welchTest(sa, sb), m.better);
      out.means = [roundTo(avg(sa), 2), roundTo(avg(sb), 2)];
      out.significance = {
        ...s,
        t: Number.isFinite(s.t) ? s.t : null,
        d: Number.isFinite(s.d) ? s.d : null,
        n: [sa.length, sb.length],
      };
    }
    return out;
  });
}

/** Compares a report (a manifest, e.g. a merged shard report) against a baseline. */
export function compare(
  baseline: Baseline,
  manifest: Pick<ReportManifest, 'reportId' | 'results'>,
  opts: CompareOptions = {},
): Comparison {
  const floor = opts.tolerance ?? DEFAULT_TOLERANCE;
  const entries: ComparisonEntry[] = [];
  const seen = new Set<string>();
  for (const e of manifest.results) {
    const key = `${e.scenarioKey}\u0000${e.agentName}`;
    seen.add(key);
    const base = ownPair(baseline, e.scenarioKey, e.agentName);
    const id = { scenarioKey: e.scenarioKey, agentName: e.agentName };
    if (!base) {
      entries.push({ ...id, ...newPair(readPair(e)) });
      continue;
    }
    entries.push({ ...id, ...comparePair(base, readPair(e), floor) });
  }
  for (const [scenarioKey, agents] of Object.entries(baseline.results))
    for (const [agentName, base] of Object.entries(agents)) {
      if (seen.has(`${scenarioKey}\u0000${agentName}`)) continue;
      entries.push({ scenarioKey, agentName, ...missingPair(base, floor) });
    }
  return {
    baselineName: baseline.name,
    reportId: manifest.reportId,
    tolerance: floor,
    entries,
    summary: summarize(entries),
    regressed: entries.some((x) => x.change === 'regressed' || x.change === 'missing'),
  };
}

/** The baseline's pair, never an Object.prototype member (an agent named "constructor" is new). */
function ownPair(b: Baseline, scenarioKey: string, agentName: string): PairData | undefined {
  const agents = Object.hasOwn(b.results, scenarioKey) ? b.results[scenarioKey]! : undefined;
  return agents && Object.hasOwn(agents, agentName) ? agents[agentName] : undefined;
}

function newPair(cur: PairReading): PairComparison {
  return {
    baseline: null,
    current: cur.ok ? cur.data.axisScore : null,
    delta: null,
    change: 'new',
    regressions: [],
    band: null,
    reliability: { baseline: null, current: cur.ok ? cur.data.reliability : cur.reliability },
    runs: { baseline: 0, current: cur.ok ? cur.data.runs : 0 },
    metrics: [],
  };
}

function missingPair(base: PairData, floor: number): PairComparison {
  return {
    baseline: base.axisScore,
    current: null,
    delta: null,
    change: 'missing',
    regressions: [
      {
        kind: 'missing',
        message:
          'In the baseline but missing from this report (gone for good? `axis baseline set --replace` keeps only the pairs a report has)',
      },
    ],
    band: band(base, floor),
    reliability: { baseline: base.reliability, current: null },
    runs: { baseline: base.runs, current: 0 },
    metrics: [],
  };
}

export function summarize(entries: readonly PairComparison[]): ComparisonSummary {
  const count = (c: Change) => entries.filter((e) => e.change === c).length;
  const tests = entries.flatMap((e) => e.metrics.map((m) => m.significance).filter((s) => s !== undefined));
  return {
    improved: count('improved'),
    regressed: count('regressed'),
    unchanged: count('unchanged'),
    new: count('new'),
    missing: count('missing'),
    significant: {
      tested: tests.length,
      regressions: tests.filter((s) => s.verdict === 'regression').length,
      improvements: tests.filter((s) => s.verdict === 'improvement').length,
      notSignificant: tests.filter((s) => s.verdict === null).length,
    },
  };
}

const avg = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
const fmt = (n: number) => points(n);
function reliabilityBelowBaseline(now: number, base: number): string {
  const [current, baseline] = reliabilityPair(now, base);
  return `Reliability ${current} is below the baseline's ${baseline}`;
}
