import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WEIGHTS,
  composeScore,
  failedScore,
  resolveScoringWeights,
  scoreGoal,
  validateScoringWeights,
} from '../../../src/scoring/composite.js';
import type { Criterion, DimensionScore, GoalAchievement } from '../../../src/scoring/types.js';
import { ConfigError } from '../../../src/util/errors.js';

function dim(score: number | null, notApplicable = false): DimensionScore {
  return {
    score,
    notApplicable,
    raw: null,
    dimensions: { success: null, speed: null, weight: null, relevance: null, necessity: null },
    audits: [],
    interactionCount: notApplicable ? 0 : 1,
    auditedCount: 0,
    judgedCount: 0,
    ...(score === null && !notApplicable ? { unscoredReason: 'no verdict for necessity' } : {}),
  };
}
function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}
const goal = (score: number): GoalAchievement => ({ score, notApplicable: false, criteria: [] });
const crit = (score: number | null, weight: number): Criterion => ({
  check: 'c',
  weight,
  score,
  rationale: 'r',
  kind: 'judge',
});

describe('scoreGoal', () => {
  it('is the weighted mean of 0..10 grades as 0-100', () => {
    // (8/10·0.5 + 5/10·0.3 + 10/10·0.2) / (0.5 + 0.3 + 0.2) = 0.4 + 0.15 + 0.2
    expect(scoreGoal([crit(8, 0.5), crit(5, 0.3), crit(10, 0.2)]).score).toBe(75);
    // weights need not sum to 1: (10·1 + 0·3) / 10 / 4 = 0.25
    expect(scoreGoal([crit(10, 1), crit(0, 3)]).score).toBe(25);
  });

  it('is unscored — not 0 — when a criterion has no grade', () => {
    const g = scoreGoal([crit(8, 0.5), crit(null, 0.5)]);
    expect(g).toMatchObject({
      score: null,
      notApplicable: false,
      unscoredReason: 'no grade for criteria #2',
    });
  });

  it('is not applicable without criteria and rejects bad input', () => {
    expect(scoreGoal([])).toMatchObject({ score: null, notApplicable: true });
    expect(() => scoreGoal([crit(11, 1)])).toThrow('criteria[0].score must be between 0 and 10, found 11');
    expect(() => scoreGoal([crit(5, -1)])).toThrow('criteria[0].weight');
    expect(() => scoreGoal([crit(5, 0)])).toThrow('sum to 0');
  });
});

describe('composeScore', () => {
  it('weighs goal 0.4 and each dimension 0.2 by default', () => {
    const r = composeScore({ goal: goal(80), environment: dim(90), service: dim(70), agent: dim(60) });
    // 0.4·80 + 0.2·90 + 0.2·70 + 0.2·60 = 32 + 18 + 14 + 12
    expect(r).toMatchObject({ status: 'scored', axisScore: 76, notApplicable: [] });
    expect(r.weights).toEqual(DEFAULT_WEIGHTS);
  });

  it("shares a not-applicable dimension's weight among the others in proportion", () => {
    const r = composeScore({
      goal: goal(80),
      environment: dim(90),
      service: dim(null, true),
      agent: dim(60),
    });
    // 0.4/0.8 = 0.5, 0.2/0.8 = 0.25: 0.5·80 + 0.25·90 + 0.25·60 = 40 + 22.5 + 15 = 77.5 → 77 (a half goes down)
    expect(r.weights).toEqual({ goal_achievement: 0.5, environment: 0.25, service: 0, agent: 0.25 });
    expect(r.configuredWeights).toEqual(DEFAULT_WEIGHTS);
    expect(r.notApplicable).toEqual(['service']);
    expect(r.axisScore).toBe(77);
  });

  it('uses configured weights', () => {
    const weights = resolveScoringWeights({
      goal_achievement: 0.5,
      environment: 0.1,
      service: 0.1,
      agent: 0.3,
    });
    const r = composeScore({
      goal: goal(100),
      environment: dim(50),
      service: dim(50),
      agent: dim(70),
      weights,
    });
    // 0.5·100 + 0.1·50 + 0.1·50 + 0.3·70 = 50 + 5 + 5 + 21
    expect(r.axisScore).toBe(81);
  });

  it('is unscored with the reason when a judge failed, keeping the numbers it has', () => {
    const r = composeScore({
      goal: goal(80),
      environment: dim(90),
      service: dim(null, true),
      agent: dim(null),
      judgeFailure: 'agent judge: HTTP 429 after 3 attempts',
    });
    expect(r.status).toBe('unscored');
    expect(r.axisScore).toBeNull();
    expect(r.reason).toBe('agent judge: HTTP 429 after 3 attempts; agent: no verdict for necessity');
    expect(r.environment.score).toBe(90);
  });

  it('is unscored when nothing applicable carries weight', () => {
    const weights = resolveScoringWeights({ goal_achievement: 0, environment: 0, service: 1, agent: 0 });
    const r = composeScore({
      goal: goal(80),
      environment: dim(90),
      service: dim(null, true),
      agent: dim(60),
      weights,
    });
    expect(r).toMatchObject({
      status: 'unscored',
      axisScore: null,
      reason: 'no applicable dimension has a weight above 0',
    });
  });

  it('keeps patterns and the necessity verdict in the result', () => {
    const patterns = [
      {
        kind: 'retry' as const,
        description: 'd',
        interactionIds: [1, 2],
        severity: 'high' as const,
        source: 'signal' as const,
      },
    ];
    const necessity = { score: 0.5, unnecessaryIds: [2], rationale: 'r' };
    const r = composeScore({
      goal: goal(80),
      environment: dim(90),
      service: dim(70),
      agent: dim(60),
      patterns,
      necessity,
    });
    expect(r.patterns).toEqual(patterns);
    expect(r.necessity).toEqual(necessity);
  });
});

describe('failedScore', () => {
  it('scores a crashed run 0 with the reason and no dimension numbers', () => {
    const r = failedScore('agent exited with code 1 (API error 500)', {
      criteria: [{ check: 'made a post', weight: 1, kind: 'judge' }],
    });
    expect(r).toMatchObject({
      status: 'failed',
      axisScore: 0,
      reason: 'agent exited with code 1 (API error 500)',
    });
    expect(r.goalAchievement.criteria[0]).toMatchObject({
      score: null,
      rationale: 'Run failed: agent exited with code 1 (API error 500)',
    });
    expect([r.environment.score, r.service.score, r.agent.score]).toEqual([null, null, null]);
  });
});

describe('scoring weights', () => {
  it('fills missing keys with defaults and normalises to sum 1', () => {
    expect(resolveScoringWeights(undefined)).toEqual(DEFAULT_WEIGHTS);
    expect(resolveScoringWeights({ goal_achievement: 0.4 })).toEqual(DEFAULT_WEIGHTS);
    const w = resolveScoringWeights({ goal_achievement: 0.404, environment: 0.2, service: 0.2, agent: 0.2 });
    expect(w.goal_achievement).toBeCloseTo(0.404 / 1.004, 12);
  });

  it('reports every invalid weight, naming the field, what was expected and what was found', () => {
    expect(
      validateScoringWeights({ goal_achievement: -0.1, service: 'x', extra: 1 }, 'axis.config.json'),
    ).toEqual([
      {
        file: 'axis.config.json',
        path: 'settings.scoring_weights.extra',
        message: 'unknown weight; expected one of goal_achievement, environment, service, agent',
      },
      {
        file: 'axis.config.json',
        path: 'settings.scoring_weights.goal_achievement',
        message: 'expected a number from 0 to 1, found -0.1',
      },
      {
        file: 'axis.config.json',
        path: 'settings.scoring_weights.service',
        message: 'expected a number from 0 to 1, found "x"',
      },
    ]);
    expect(validateScoringWeights([])[0]!.message).toBe('expected an object of weights, found an array');
  });

  it('rejects weights that do not sum to 1 (partial weights included) instead of producing NaN', () => {
    expect(validateScoringWeights({ goal_achievement: 0.7 })[0]!.message).toBe(
      'weights must sum to 1, found 1.3 (goal_achievement 0.7 + environment 0.2 (default) + service 0.2 (default) + agent 0.2 (default))',
    );
    expect(
      validateScoringWeights({ goal_achievement: 0, environment: 0, service: 0, agent: 0 })[0]!.message,
    ).toMatch(/sum to 1, found 0/);
    expect(() => resolveScoringWeights({ agent: 2 })).toThrow(ConfigError);
    const err = catchError(() => resolveScoringWeights({ agent: Number.NaN }));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(2);
    expect((err as ConfigError).message).toContain(
      'settings.scoring_weights.agent: expected a number from 0 to 1, found NaN',
    );
  });
});
