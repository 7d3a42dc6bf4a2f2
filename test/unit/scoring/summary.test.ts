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
  it('averages scored runs only: unscored leave the denominator, failed count against reliability', () => {
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
    // 4 of 5 runs did not crash
    expect(s.reliability).toBe(4 / 5);
  });

  it('averages each dimension over the runs where it applied', () => {
    const s = summarizeScores([run('scored', 80, 90, true), run('scored', 70, 75)]);
    // environment (90 + 75) / 2 = 82.5 → 83; service only the second run
    expect(s.averages).toEqual({ goalAchievement: 75, environment: 83, service: 60, agent: 70 });
  });

  it('has no average, rather than 0, when no run was scored', () => {
    expect(summarizeScores([run('failed', 0), run('unscored', null)])).toMatchObject({
      averageAxisScore: null,
      reliability: 1 / 2,
    });
    expect(summarizeScores([])).toMatchObject({ total: 0, reliability: null, averageAxisScore: null });
  });
});
