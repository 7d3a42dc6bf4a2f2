/**
 * The agent cost of a report, summed over its runs. Some agents report no cost (Codex, Qwen Code, a
 * `command` agent), and a run that crashed may have none: a sum over the others alone would read as the
 * whole bill and be too low, so the total says how many runs it leaves out. One computation and one
 * wording for every view that shows it (`axis reports`, its `--json`, report.html's Cost card), and for
 * the judges' cost (report.json's `summary.scores.judge`, the judge line of the terminal views).
 */

/** `$0.0123`; `simulated` for runs against the model simulator (their tokens are a tape's); `—` when unknown. */
export function formatCost(usd: number | null | undefined, simulated = false): string {
  if (simulated) return 'simulated';
  return typeof usd === 'number' && Number.isFinite(usd) ? `$${usd.toFixed(4)}` : '—';
}

export interface CostTotal {
  /** The sum over the runs that reported a cost; null when none did. */
  usd: number | null;
  /** Every run of the report. */
  runs: number;
  /** Runs that reported no cost (a simulated run has none to report and is not counted). */
  withoutCost: number;
  /** Every run played against the model simulator: there is no real cost. */
  simulated: boolean;
}

export interface CostedRun {
  costUsd?: number | null | undefined;
  simulated?: boolean | undefined;
  /** Asked nothing that is billed (a judge answering every question from its cache): no cost to miss. */
  free?: boolean | undefined;
}

export function costTotal(runs: readonly CostedRun[]): CostTotal {
  let usd: number | null = null;
  let withoutCost = 0;
  for (const r of runs) {
    if (typeof r.costUsd === 'number' && Number.isFinite(r.costUsd)) usd = (usd ?? 0) + r.costUsd;
    else if (r.simulated !== true && r.free !== true) withoutCost++;
  }
  const simulated = runs.length > 0 && runs.every((r) => r.simulated === true);
  return { usd, runs: runs.length, withoutCost, simulated };
}

/** `$1.2300`; `≥ $1.2300` when some runs have no cost; `—` when none has one; `simulated`. */
export function costAmountText(t: CostTotal): string {
  if (t.simulated && t.usd === null) return 'simulated';
  if (t.usd === null) return '—';
  return `${t.withoutCost > 0 ? '≥ ' : ''}${formatCost(t.usd)}`;
}

/** `2 of 5 runs without a cost` when the amount leaves runs out; empty when it covers them all. */
export function costGapText(t: CostTotal): string {
  if (t.usd === null || t.withoutCost === 0) return '';
  return `${t.withoutCost} of ${t.runs} run${t.runs === 1 ? '' : 's'} without a cost`;
}

/** The amount and, when it leaves runs out, how many: `≥ $1.2300 (2 of 5 runs without a cost)`. */
export function costTotalText(t: CostTotal): string {
  const gap = costGapText(t);
  return gap ? `${costAmountText(t)} (${gap})` : costAmountText(t);
}

/** A judge total as report.json keeps it (`summary.scores.judge`): judged runs and those without a cost. */
export interface JudgeCostFields {
  runs: number;
  costUsd?: number;
  runsWithoutCost?: number;
}

/**
 * The judges' cost in the same words, for the judge line of `axis run`, `axis reports <id>` and `axis score`:
 * empty when no judged run has a cost (a simulator judge, an agent judge that reports none), as before.
 */
export function judgeCostText(j: JudgeCostFields): string {
  if (j.costUsd === undefined) return '';
  const withoutCost = j.runsWithoutCost ?? 0;
  return costTotalText({ usd: j.costUsd, runs: j.runs, withoutCost, simulated: false });
}
