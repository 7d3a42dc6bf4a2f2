/**
 * Averages over a report's pairs (docs/scoring.md#summary). Only pairs whose headline is `scored` enter
 * the averages: an `unscored` headline (a judge failed) leaves the denominator entirely, and a `failed`
 * one (no run finished) is counted as failed but not averaged in as a 0. Reliability counts every run
 * of every pair, the same way as a pair's own (src/scoring/runs.ts).
 */
import { reliability, runState, type RunStateInput } from './runs.js';
import type { Category, ScoreResult } from './types.js';

export type SummaryInput = Pick<ScoreResult, 'status' | 'axisScore' | 'goalAchievement' | Category>;

export interface ScoreSummary {
  /** Pairs with a headline, by the headline's status. */
  total: number;
  scored: number;
  unscored: number;
  failed: number;
  /** Every run of every pair: completed (scored), unscored, crashed (`failed`), cancelled. */
  runs: { total: number; scored: number; unscored: number; failed: number; cancelled: number };
  /** completed ÷ (runs − unscored − cancelled) over every run; null when no run counts. */
  reliability: number | null;
  /** Mean headline composite over scored pairs, floored; null when no pair was scored. */
  averageAxisScore: number | null;
  /** Per-dimension means over the scored headlines where the dimension applied; null when none. */
  averages: {
    goalAchievement: number | null;
    environment: number | null;
    service: number | null;
    agent: number | null;
  };
}

/**
 * `headlines`: one score per pair (its representative run). `runs`: every run of every pair; when
 * omitted, each headline stands for one run.
 */
export function summarizeScores(
  headlines: readonly SummaryInput[],
  runs: readonly RunStateInput[] = headlines.map((h) => ({
    status: h.status === 'failed' ? 'failed' : 'completed',
    scoreStatus: h.status,
  })),
): ScoreSummary {
  const scored = headlines.filter((r) => r.status === 'scored');
  const rel = reliability(runs);
  return {
    total: headlines.length,
    scored: scored.length,
    unscored: headlines.filter((r) => r.status === 'unscored').length,
    failed: headlines.filter((r) => r.status === 'failed').length,
    runs: {
      total: rel.runs,
      scored: runs.filter((r) => runState(r) === 'completed' && r.scoreStatus === 'scored').length,
      unscored: rel.unscored,
      failed: rel.crashed,
      cancelled: rel.cancelled,
    },
    reliability: rel.value,
    averageAxisScore: mean(scored.map((r) => r.axisScore)),
    averages: {
      goalAchievement: mean(scored.map((r) => r.goalAchievement.score)),
      environment: mean(scored.map((r) => r.environment.score)),
      service: mean(scored.map((r) => r.service.score)),
      agent: mean(scored.map((r) => r.agent.score)),
    },
  };
}

/**
 * Floored: a mean never rounds up (87.5 is 87), the rule `axis history` and the badge use for theirs.
 * Tolerates a hair of float error, so (3 × 90.1) / 3 stays 90.
 */
function mean(values: ReadonlyArray<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  const m = present.reduce((s, v) => s + v, 0) / present.length;
  return Math.min(100, Math.max(0, Math.floor(m + 1e-9)));
}
