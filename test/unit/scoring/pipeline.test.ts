/** The whole deterministic core, events → ScoreResult, with judge verdicts supplied as a caller would. */
import { describe, expect, it } from 'vitest';
import {
  buildSparseIndex,
  classifyInteractions,
  composeScore,
  evaluateSignals,
  failedScore,
  groupTranscript,
  mapScore,
  resolveScoringWeights,
  scoreDimensions,
  scoreGoal,
  summarizeScores,
  type Audit,
} from '../../../src/scoring/index.js';
import type { TranscriptEvent } from '../../../src/transcript/model.js';
import { T0, call, result, text } from './helpers.js';

const events: TranscriptEvent[] = [
  { kind: 'user', text: 'List the items and make the tests pass', ts: T0, tsSource: 'agent' },
  text('I will check the API first.', 1_000),
  call('a', 'Bash', { command: 'curl -s https://api.example.com/items' }, 1_100),
  result('a', '[{"id":1}]', { at: 1_600, exitCode: 0 }),
  call('b', 'Read', { file_path: 'src/app.ts' }, 1_700),
  result('b', 'export const x = 1;', { at: 1_750 }),
  call('c', 'Bash', { command: 'npm test' }, 1_800),
  result('c', '1 failing', { at: 4_800, exitCode: 1, isError: true }),
  text('The tests fail because of the fixture.', 6_800),
];

describe('scoring pipeline', () => {
  const interactions = classifyInteractions(groupTranscript({ events, startedAt: T0, endedAt: T0 + 60_000 }));
  const signals = evaluateSignals(interactions);
  const judge: Audit[] = [
    {
      interactionId: 4,
      category: 'environment',
      success: 1,
      rationale: 'tests ran; the failure is in the code',
      source: 'judge',
    },
    ...[1, 2, 3, 4, 5].map((id): Audit => ({
      interactionId: id,
      category: 'agent',
      weight: 1,
      relevance: id === 3 ? 0.5 : 1,
      ...(id === 1 || id === 5 ? { success: 1 } : id === 4 ? { success: 0 } : {}),
      rationale: `agent view of #${id}`,
      source: 'judge',
    })),
  ];
  const necessity = { score: 0.9, unnecessaryIds: [3], rationale: 'reading app.ts was not needed' };
  const dims = scoreDimensions({ interactions, audits: [...signals.audits, ...judge], necessity });
  const goal = scoreGoal([
    { check: 'Listed the items', weight: 0.6, score: 9, rationale: 'yes', kind: 'judge' },
    { check: 'Tests pass', weight: 0.4, score: 6, rationale: 'partly', kind: 'judge' },
  ]);
  const score = composeScore({
    goal,
    ...dims,
    weights: resolveScoringWeights({ goal_achievement: 0.4 }),
    necessity,
    patterns: signals.patterns,
  });

  it('groups and classifies the run', () => {
    expect(interactions.map((ix) => [ix.id, ix.type, ix.categories.join('+'), ix.durationMs])).toEqual([
      [1, 'reasoning', 'agent', 1_000 - 0],
      [2, 'tool', 'environment+service', 1_600 - 1_100],
      [3, 'tool', 'environment', 1_750 - 1_700],
      [4, 'tool', 'environment', 4_800 - 1_800],
      [5, 'reasoning', 'agent', 6_800 - 4_800],
    ]);
    expect(
      buildSparseIndex(interactions, { scenarioKey: 'api/items', agentName: 'claude-code' }).split('\n')[1],
    ).toBe('# 5 interactions | env: 3 | svc: 1 | agent: 2 | errors: 1 | unclassified: 0');
  });

  it('scores each dimension from signals plus judge verdicts', () => {
    // environment pool #2 #3 #4 — success 1, 1, 1 (judge settles #4); speed 1 (service table), 1, and
    // 3 s between the 2 s (0.9) and 5 s (0.8) anchors
    const s4 = 0.9 + ((0.8 - 0.9) * 1_000) / 3_000;
    const envSpeed = (1 + 1 + s4 * (1 + 4 * (1 - s4) ** 2)) / (1 + 1 + (1 + 4 * (1 - s4) ** 2));
    const envRaw = 0.7 * 1 + 0.3 * envSpeed;
    expect(dims.environment.raw).toBeCloseTo(envRaw, 12);
    expect(dims.environment.score).toBe(mapScore(envRaw));
    // service pool #2 — everything perfect
    expect(dims.service).toMatchObject({ raw: 1, score: 100, interactionCount: 1 });
    // agent pool #1–#5 — success 1, 1, 1, 0 (the agent judge: #4 did not get the tests passing), 1
    const agentSuccess = (4 * 1 + 0 * 5) / (4 * 1 + 5);
    // #4 failed in the agent's view (success 0): no speed credit
    const agentSpeed = (4 * 1 + 0 * 5) / (4 * 1 + 5);
    const agentRelevance = (4 * 1 + 0.5 * 2) / (4 * 1 + 2);
    const agentRaw = 0.4 * 0.9 + 0.2 * agentRelevance + 0.2 * 1 + 0.1 * agentSuccess + 0.1 * agentSpeed;
    expect(dims.agent.raw).toBeCloseTo(agentRaw, 12);
    expect(dims.agent.score).toBe(mapScore(agentRaw));
    expect(dims.agent.dimensions).toEqual({
      success: 44,
      speed: 44,
      weight: 100,
      relevance: 83,
      necessity: 90,
    });
  });

  it('composes the AXIS score with the report field names', () => {
    // goal (0.9·0.6 + 0.6·0.4) = 0.78 → 78
    expect(score.goalAchievement.score).toBe(78);
    const expected = Math.round(
      0.4 * 78 + 0.2 * dims.environment.score! + 0.2 * 100 + 0.2 * dims.agent.score!,
    );
    expect(score).toMatchObject({ status: 'scored', axisScore: expected, notApplicable: [] });
    // The report is built straight from these names.
    const report = JSON.parse(JSON.stringify(score));
    expect(Object.keys(report.goalAchievement.criteria[0]).sort()).toEqual([
      'check',
      'kind',
      'rationale',
      'score',
      'weight',
    ]);
    for (const d of ['environment', 'service', 'agent']) {
      expect(report[d]).toHaveProperty('score');
      expect(Object.keys(report[d].dimensions).sort()).toEqual([
        'necessity',
        'relevance',
        'speed',
        'success',
        'weight',
      ]);
      expect(Array.isArray(report[d].audits)).toBe(true);
    }
    expect(report.necessity).toEqual(necessity);
  });

  it('summarises with failed and unscored runs kept out of the average', () => {
    const unscored = composeScore({ goal, ...dims, judgeFailure: 'goal judge timed out' });
    const s = summarizeScores([score, failedScore('exit 1'), unscored]);
    expect(s).toMatchObject({
      total: 3,
      scored: 1,
      unscored: 1,
      failed: 1,
      averageAxisScore: score.axisScore,
      // the unscored run leaves the denominator: 1 completed of 2 counted
      reliability: 0.5,
    });
  });
});
