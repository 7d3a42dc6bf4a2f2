import { describe, expect, it } from 'vitest';
import {
  DETAIL_SHAPE,
  HISTORY_SHAPE,
  MANIFEST_SHAPE,
  shapeProblem,
  type Shape,
} from '../../../src/report/manifest-shape.js';

const audits = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ interactionId: i + 1, category: 'agent', rationale: 'ok' }));
const subs = { success: 90, speed: 90, weight: 90, relevance: 90, necessity: null };
const dim = (n: number) => ({
  score: 90,
  notApplicable: false,
  dimensions: subs,
  audits: audits(n),
  interactionCount: n,
  auditedCount: n,
});
const score = (n = 3) => ({
  status: 'scored',
  axisScore: 90,
  goalAchievement: { score: 90, notApplicable: false, criteria: [{ check: 'c', weight: 1, score: 9 }] },
  environment: dim(n),
  service: dim(n),
  agent: dim(n),
});
const tokenUsage = { input: 1, output: 1, cacheReadInput: 0 };
const run = { run: 1, status: 'completed', durationMs: 5, tokenUsage };
const weights = { goal_achievement: 0.5, environment: 0.25, service: 0, agent: 0.25 };
const report = () => ({
  timestamp: 't',
  summary: { total: 1, completed: 1, failed: 0, averageAxisScore: 90 },
  results: [{ scenarioKey: 's', agentName: 'a', status: 'completed', score: score(), runs: [run] }],
});

describe('shapeProblem', () => {
  it('passes a well-formed report, detail and history, unknown and absent fields included', () => {
    expect(shapeProblem({ ...report(), extra: { any: 1 } }, MANIFEST_SHAPE, '')).toBeUndefined();
    expect(shapeProblem(report(), HISTORY_SHAPE, '')).toBeUndefined();
    const events = [{ kind: 'text', text: 'hi' }, { kind: 'from_a_newer_axis' }];
    const detail = { transcript: { events, result: null }, score: { ...score(), weights } };
    expect(shapeProblem(detail, DETAIL_SHAPE, '')).toBeUndefined();
  });

  it('names the first field that does not fit, with its path through objects and arrays', () => {
    const bad = report();
    bad.results[0]!.score.agent.audits[2]!.rationale = 7 as unknown as string;
    expect(shapeProblem(bad, MANIFEST_SHAPE, '')).toBe(
      '.results[0].score.agent.audits[2].rationale: expected a string, found 7',
    );
    const big = report();
    big.results[0]!.score.axisScore = 1e308;
    expect(shapeProblem(big, MANIFEST_SHAPE, 'x')).toBe(
      'x.results[0].score.axisScore: expected a number from 0 to 100, found 1e+308',
    );
  });

  it('says what an array or object was expected to be, and which required field is missing', () => {
    const shape: Shape = {
      object: { runs: { array: 'count', what: 'an array of runs' }, files: { object: {}, what: 'paths' } },
      required: ['runs'],
    };
    expect(shapeProblem({}, shape, '')).toBe('.runs: missing (expected by every AXIS report)');
    expect(shapeProblem({ runs: 'x' }, shape, '')).toBe('.runs: expected an array of runs, found "x"');
    expect(shapeProblem({ runs: [1, -1] }, shape, '')).toBe(
      '.runs[1]: expected a whole number ≥ 0, found -1',
    );
    expect(shapeProblem({ runs: [], files: [] }, shape, '')).toMatch(/^\.files: expected paths, found /);
    expect(shapeProblem(null, shape, 'r')).toMatch(/^r: expected an object, found /);
  });

  it('takes null where a shape is nullable, and only there', () => {
    const shape: Shape = { object: { a: { nullable: 'score' }, b: 'score' } };
    expect(shapeProblem({ a: null }, shape, '')).toBeUndefined();
    expect(shapeProblem({ a: null, b: null }, shape, '')).toBe(
      '.b: expected a number from 0 to 100, found null',
    );
  });

  it('walks a long run in one pass, building no path until something fails', () => {
    const long = report();
    long.results[0]!.score = score(20_000);
    expect(shapeProblem(long, MANIFEST_SHAPE, '')).toBeUndefined();
    long.results[0]!.score.service.audits[19_999]!.interactionId = 'x' as unknown as number;
    expect(shapeProblem(long, MANIFEST_SHAPE, '')).toBe(
      '.results[0].score.service.audits[19999].interactionId: expected a finite number, found "x"',
    );
  });
});
