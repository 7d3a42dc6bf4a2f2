/**
 * Repeated runs of one pair, counted one way for every view (report.json, the `axis run` summary,
 * `axis reports`, report.html, baselines and the CI verdict): what each run ended as, the pair's status,
 * its reliability and the sentence that shows it. docs/reports.md#repeated-runs.
 */
import type { JobStatus } from '../transcript/model.js';
import type { ScoreStatus } from './types.js';

/**
 * `completed`: the agent finished (scored, or not scored at all with --no-score). `unscored`: it finished
 * but judging failed, so the run says nothing about the agent. `crashed`: it did not finish (crash, setup
 * failure, limit, timeout). `cancelled`: Ctrl-C or a run limit stopped it before it could finish.
 */
export type RunState = 'completed' | 'unscored' | 'crashed' | 'cancelled';

export interface RunStateInput {
  status: JobStatus;
  scoreStatus?: ScoreStatus | undefined;
}

export function runState(r: RunStateInput): RunState {
  if (r.status === 'cancelled') return 'cancelled';
  if (r.status !== 'completed' || r.scoreStatus === 'failed') return 'crashed';
  return r.scoreStatus === 'unscored' ? 'unscored' : 'completed';
}

export interface Reliability {
  runs: number;
  completed: number;
  crashed: number;
  unscored: number;
  cancelled: number;
  /** Runs that count: runs − unscored − cancelled. */
  counted: number;
  /** completed ÷ counted, to 3 decimals; null when no run counts. */
  value: number | null;
}

/**
 * completed ÷ (runs − unscored): a crashed run counts against reliability, an unscored run (the judge
 * failed, not the agent) leaves the denominator, and so does a cancelled one (nobody let it finish).
 */
export function reliability(runs: readonly RunStateInput[]): Reliability {
  const n = { completed: 0, crashed: 0, unscored: 0, cancelled: 0 };
  for (const r of runs) n[runState(r)] += 1;
  const counted = n.completed + n.crashed;
  return {
    runs: runs.length,
    ...n,
    counted,
    value: counted === 0 ? null : reliabilityValue(n.completed, counted),
  };
}

/** completed ÷ counted to 3 decimals; short of every run it stays below 1 (1999/2000 is 0.999, not 1). */
function reliabilityValue(completed: number, counted: number): number {
  const value = Math.round((completed / counted) * 1000) / 1000;
  return completed < counted ? Math.min(value, 0.999) : value;
}

/**
 * A reliability as a whole percent, for every view: rounded down, as the averages are (2/3 reads 66%,
 * 199/200 reads 99%): a headline never flatters. The nudge keeps a binary fraction just under a whole
 * percent (0.29 * 100 is 28.999…) from reading one lower; no share of runs lies that close below one.
 */
export function reliabilityPercent(value: number): string {
  return `${percentDown(value, 0)}%`;
}

/** `value` (a share) as a percent rounded down to `decimals` places, never 100 unless it is 1. */
function percentDown(value: number, decimals: number): string {
  const scale = 10 ** decimals;
  const down = Math.floor(value * 100 * scale + 1e-7) / scale;
  return (value < 1 ? Math.min(down, 100 - 1 / scale) : down).toFixed(decimals);
}

/**
 * Two reliabilities, `below` < `above`, as percents that never print the same: whole percents, with
 * more places only when rounding both down would show them equal (66.5% and 66.8%).
 */
export function reliabilityPair(below: number, above: number): [string, string] {
  for (let decimals = 0; decimals < 6; decimals++) {
    const pair: [string, string] = [percentDown(below, decimals), percentDown(above, decimals)];
    if (pair[0] !== pair[1]) return [`${pair[0]}%`, `${pair[1]}%`];
  }
  return [`${below * 100}%`, `${above * 100}%`];
}

/** `reliability 75% (3/4 runs completed; 1 unscored not counted)`: the same words in every view. */
export function reliabilityText(r: Reliability): string {
  const left = [
    r.unscored ? `${r.unscored} unscored` : '',
    r.cancelled ? `${r.cancelled} cancelled` : '',
  ].filter(Boolean);
  const note = left.length ? `; ${left.join(', ')} not counted` : '';
  if (r.value === null) return `reliability – (no run counted${note})`;
  return `reliability ${reliabilityPercent(r.value)} (${r.completed}/${r.counted} runs completed${note})`;
}

/**
 * A pair's status: `completed` when at least one run finished (crashed runs then only lower its
 * reliability); else the status of its first run that failed; `cancelled` when every run was cancelled.
 */
export function pairStatus(runs: readonly RunStateInput[]): JobStatus {
  if (runs.some((r) => r.status === 'completed')) return 'completed';
  return runs.find((r) => r.status !== 'cancelled')?.status ?? 'cancelled';
}

/** Scored composites of a pair's runs (the values its spread, band and t-test use). */
export function scoredValues(
  runs: readonly { axisScore?: number | null; scoreStatus?: ScoreStatus | undefined }[],
): number[] {
  return runs
    .filter((r) => r.scoreStatus === 'scored' && typeof r.axisScore === 'number')
    .map((r) => r.axisScore!);
}

export interface PairRunsInput {
  runs: readonly (RunStateInput & { run: number })[];
  representativeRun: number;
  spread?: {
    scored: number;
    median: number | null;
    min: number | null;
    max: number | null;
    sigma: number | null;
  };
}

/**
 * The line under a repeated pair, in `axis run` and `axis reports`:
 * `5 runs (3 scored): median 88, range 85–90, σ 2.1 · reliability 75% (3/4 runs completed; 1 unscored not counted) · representative run 2`.
 */
export function pairRunsText(e: PairRunsInput): string {
  const sp = e.spread;
  const head = sp ? `${e.runs.length} runs (${sp.scored} scored)` : `${e.runs.length} runs`;
  const values = sp && sp.scored > 0 ? `: median ${sp.median}, range ${sp.min}–${sp.max}, σ ${sp.sigma}` : '';
  return `${head}${values} · ${reliabilityText(reliability(e.runs))} · representative run ${e.representativeRun}`;
}

export interface PairCounts {
  total: number;
  completed: number;
  failed: number;
  cancelled?: number;
  runsTotal?: number;
  runsFailed?: number;
  runsCancelled?: number;
  skipped?: number;
}

/** `3 pairs: 2 completed, 1 failed (15 runs, 2 failed, 1 cancelled)`: the header of every summary. */
export function pairCountsText(s: PairCounts): string {
  const pairs = `${s.total} pair${s.total === 1 ? '' : 's'}: ${s.completed} completed, ${s.failed} failed`;
  const cancelled =
    (s.cancelled ? `, ${s.cancelled} cancelled` : '') + (s.skipped ? `, ${s.skipped} skipped` : '');
  const runs =
    s.runsTotal !== undefined && s.runsTotal !== s.total
      ? ` (${s.runsTotal} runs, ${s.runsFailed ?? 0} failed${s.runsCancelled ? `, ${s.runsCancelled} cancelled` : ''})`
      : '';
  return `${pairs}${cancelled}${runs}`;
}

/** A report summary's run counts (`summary.scores.runs`) read back as a `Reliability`. */
export function reliabilityOfSummary(s: {
  runs: { total: number; unscored: number; failed: number; cancelled: number };
  reliability?: number | null;
}): Reliability {
  const completed = s.runs.total - s.runs.unscored - s.runs.failed - s.runs.cancelled;
  const counted = completed + s.runs.failed;
  return {
    runs: s.runs.total,
    completed,
    crashed: s.runs.failed,
    unscored: s.runs.unscored,
    cancelled: s.runs.cancelled,
    counted,
    // A hand-edited report.json without it: the same ratio, from the counts it does hold.
    value: s.reliability !== undefined ? s.reliability : counted > 0 ? completed / counted : null,
  };
}
