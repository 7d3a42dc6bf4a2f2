import { describe, expect, it } from 'vitest';
import { summarizeScores, type SummaryInput } from '../../../src/scoring/summary.js';
import type { DimensionScore } from '../../../src/scoring/types.js';

const d = (score: number | null, notApplicable = false) => ({ score, notApplicable }) as DimensionScore;
function run(
  status: SummaryInput['status'],
  axis: number | null,
  env: number | null = 80,
  svcNA = false,
): SummaryInput {
  return {
    status,
    axisScore: axis,
    goalAchievement: { score: axis, notApplicable: false, criteria: [] },
    environment: d(env),
    service: svcNA ? d(null, true) : d(60),
    agent: d(70),
  };
}

describe('summarizeScores', () => {
  it('averages scored headlines only: unscored leave the denominator, failed count against reliability', () => {
    const s = summarizeScores([
      run('scored', 80),
      run('scored', 90),
      run('scored', 71),
      run('unscored', null),
      run('failed', 0),
    ]);
    expect(s).toMatchObject({ total: 5, scored: 3, unscored: 1, failed: 1 });
    // (80 + 90 + 71) / 3 = 80.33
    expect(s.averageAxisScore).toBe(80);
    // completed ÷ (runs − unscored) = 3 / 4
    expect(s.reliability).toBe(0.75);
  });

  it('a mean never rounds up: 95 and 80 average 87, as axis history and the badge floor theirs', () => {
    const s = summarizeScores([run('scored', 95), run('scored', 80)]);
    expect(s.averageAxisScore).toBe(87);
    expect(s.averages.goalAchievement).toBe(87);
    expect(summarizeScores([run('scored', 99), run('scored', 100)]).averageAxisScore).toBe(99);
  });

  it('reliability counts every run of every pair, not only the headlines', () => {
    // Pair a: headline 80 over runs scored, crashed, scored; pair b: headline 90, runs scored, cancelled, unscored.
    const s = summarizeScores(
      [run('scored', 80), run('scored', 90)],
      [
        { status: 'completed', scoreStatus: 'scored' },
        { status: 'failed', scoreStatus: 'failed' },
        { status: 'completed', scoreStatus: 'scored' },
        { status: 'completed', scoreStatus: 'scored' },
        { status: 'cancelled' },
        { status: 'completed', scoreStatus: 'unscored' },
      ],
    );
    expect(s.runs).toEqual({ total: 6, scored: 3, unscored: 1, failed: 1, cancelled: 1 });
    // 3 completed of 4 counted (the unscored and the cancelled run are left out)
    expect(s.reliability).toBe(0.75);
    expect(s.averageAxisScore).toBe(85);
  });

  it('averages each dimension over the runs where it applied', () => {
    const s = summarizeScores([run('scored', 80, 90, true), run('scored', 70, 75)]);
    // environment (90 + 75) / 2 = 82.5 → 82 (a mean never rounds up); service only the second run
    expect(s.averages).toEqual({ goalAchievement: 75, environment: 82, service: 60, agent: 70 });
  });

  it('has no average, rather than 0, when no run was scored', () => {
    expect(summarizeScores([run('failed', 0), run('unscored', null)])).toMatchObject({
      averageAxisScore: null,
      reliability: 0,
    });
    expect(summarizeScores([run('unscored', null)])).toMatchObject({ reliability: null });
    expect(summarizeScores([])).toMatchObject({ total: 0, reliability: null, averageAxisScore: null });
  });
});
