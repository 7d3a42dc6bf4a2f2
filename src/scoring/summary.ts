/**
 * Averages over a set of runs (docs/scoring.md#summary). Only `scored` runs enter the averages:
 * an `unscored` run (a judge failed) leaves the denominator entirely, and a `failed` run (the agent
 * crashed) is counted as failed — against reliability — but not averaged in as a 0.
 */
import { roundScore } from './calibration.js';
import type { Category, ScoreResult } from './types.js';

export type SummaryInput = Pick<ScoreResult, 'status' | 'axisScore' | 'goalAchievement' | Category>;

export interface ScoreSummary {
  total: number;
  scored: number;
  unscored: number;
  failed: number;
  /** Runs that did not crash, as a fraction of all runs; null with no runs. */
  reliability: number | null;
  /** Mean composite over scored runs, rounded; null when no run was scored. */
  averageAxisScore: number | null;
  /** Per-dimension means over the scored runs where the dimension applied; null when none. */
  averages: {
    goalAchievement: number | null;
    environment: number | null;
    service: number | null;
    agent: number | null;
  };
}

export function summarizeScores(results: readonly SummaryInput[]): ScoreSummary {
  const scored = results.filter((r) => r.status === 'scored');
  const failed = results.filter((r) => r.status === 'failed').length;
  const unscored = results.filter((r) => r.status === 'unscored').length;
  return {
    total: results.length,
    scored: scored.length,
    unscored,
    failed,
    reliability: results.length === 0 ? null : (results.length - failed) / results.length,
    averageAxisScore: mean(scored.map((r) => r.axisScore)),
    averages: {
      goalAchievement: mean(scored.map((r) => r.goalAchievement.score)),
      environment: mean(scored.map((r) => r.environment.score)),
      service: mean(scored.map((r) => r.service.score)),
      agent: mean(scored.map((r) => r.agent.score)),
    },
  };
}

function mean(values: ReadonlyArray<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  return roundScore(present.reduce((s, v) => s + v, 0) / present.length);
}
