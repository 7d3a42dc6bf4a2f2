/**
 * scoreRun end to end against a real local HTTP judge (Anthropic wire format): the answers come from
 * the test, the expected scores are worked out by hand from them and from the deterministic signals.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Criterion } from '../../../../src/config/types.js';
import { JudgeCache } from '../../../../src/scoring/cache.js';
import { mapScore, roundScore } from '../../../../src/scoring/calibration.js';
import { createAnthropicJudge } from '../../../../src/scoring/judges/anthropic.js';
import { MARKERS } from '../../../../src/scoring/judges/prompts.js';
import { scoreRun, type ScoreRunInput } from '../../../../src/scoring/pipeline.js';
import { resolveScoringWeights } from '../../../../src/scoring/composite.js';
import type { Transcript } from '../../../../src/transcript/model.js';
import { call, result, text } from '../helpers.js';
import {
  anthropicReply,
  promptText,
  startServer,
  type Reply,
  type SeenRequest,
  type TestServer,
} from './server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// No timestamps: speed is not measured and leaves the dimensions (its weight goes to the others).
const transcript: Transcript = {
  agent: 'claude-code',
  events: [
    text('I will run the tests.'),
    call('a', 'Bash', { command: 'npm test' }),
    result('a', '1 failing: expected 2 to be 3', { exitCode: 1 }),
    call('b', 'Bash', { command: 'ls' }),
    result('b', 'package.json\nsrc', { exitCode: 0 }),
    text('Done.'),
  ],
  result: 'All done',
  usage: { input: 1000, output: 200, cacheReadInput: 0 },
  exitCode: 0,
  startedAt: 0,
  endedAt: 10_000,
  durationMs: 10_000,
};
const criteria: Criterion[] = [
  { kind: 'judge', index: 0, label: 'Tests pass', weight: 0.25, check: 'Tests pass' },
  { kind: 'judge', index: 1, label: 'Explained', weight: 0.25, check: 'Explained' },
  {
    kind: 'check',
    index: 0,
    label: 'npm test exits 0',
    weight: 0.5,
    check: { kind: 'run', run: 'npm test', expect_exit: 0 },
  },
];
const input: ScoreRunInput = {
  scenarioKey: 'demo/tests',
  scenarioName: 'Tests',
  agentName: 'claude-code',
  prompt: 'Make the tests pass.',
  criteria,
  status: 'completed',
  transcript,
  checks: [
    {
      index: 0,
      label: 'npm test exits 0',
      weight: 0.5,
      kind: 'run',
      passed: true,
      score: 10,
      rationale: 'Passed: exit code 0 (expected 0)',
      durationMs: 5,
    },
  ],
};

const ANSWERS: Record<string, unknown> = {
  [MARKERS.goal]: {
    grades: [
      { criterion_index: 0, score: 8, rationale: 'mostly' },
      { criterion_index: 1, score: 5, rationale: 'partly' },
    ],
  },
  [MARKERS.environment]: {
    audits: [{ id: 2, success: 1, rationale: 'the test run worked; the bug is in the code' }],
  },
  [MARKERS.agent]: {
    audits: [
      { id: 1, success: 1, weight: 1, relevance: 1, rationale: 'good plan' },
      { id: 2, success: 0.5, weight: 1, relevance: 1, rationale: 'ran tests' },
      { id: 3, weight: 0.5, relevance: 0.5, rationale: 'ls not needed' },
      { id: 4, success: 1, weight: 1, relevance: 1, rationale: 'summary' },
    ],
    necessity: { score: 0.75, unnecessaryIds: [3], rationale: 'ls was not needed' },
    patterns: [
      { kind: 'waste', description: 'listed files for nothing', interactionIds: [3], severity: 'low' },
    ],
  },
};
const markerOf = (req: SeenRequest) => Object.values(MARKERS).find((m) => promptText(req).includes(m))!;
const byMarker = (over: (marker: string, n: number) => Reply | undefined = () => undefined) => {
  const seen = new Map<string, number>();
  return (req: SeenRequest): Reply => {
    const m = markerOf(req);
    const n = (seen.get(m) ?? 0) + 1;
    seen.set(m, n);
    return over(m, n) ?? anthropicReply(JSON.stringify(ANSWERS[m]));
  };
};
const ctxFor = (url: string, maxRetries = 1) => ({
  weights: resolveScoringWeights(undefined),
  cache: new JudgeCache(null),
  judge: async () => ({
    client: createAnthropicJudge({
      model: 'claude-sonnet-4-5',
      baseUrl: url,
      apiKey: 'k',
      retry: { maxRetries, timeoutMs: 5_000, baseDelayMs: 1 },
      cacheId: null,
    }),
  }),
});

describe('scoreRun', () => {
  it('scores a run from the judges’ answers and the signals, matching the hand computation', async () => {
    server = await startServer(byMarker());
    const { score, sparseIndex } = await scoreRun(input, ctxFor(server.url));

    // One question per judge that had something to decide (nothing touched a service).
    expect(server.requests.map(markerOf).sort()).toEqual(
      [MARKERS.agent, MARKERS.environment, MARKERS.goal].sort(),
    );

    // Goal: (8/10·0.25 + 5/10·0.25 + 10/10·0.5) / 1 = 0.825 → 82 (a half goes down).
    expect(score.goalAchievement.score).toBe(82);
    expect(score.goalAchievement.criteria.map((c) => [c.kind, c.score, c.rationale])).toEqual([
      ['judge', 8, 'mostly'],
      ['judge', 5, 'partly'],
      ['deterministic', 10, 'Passed: exit code 0 (expected 0)'],
    ]);
    // Environment: #2 success 1 (judge, the signal was ambiguous), #3 success 1 (exit 0) → raw 1 → 100.
    expect(score.environment.dimensions.success).toBe(100);
    expect(score.environment.score).toBe(100);
    // Service: nothing touched one.
    expect(score.service.notApplicable).toBe(true);
    // Agent, severity-weighted (v weighs 1 + 4(1−v)²; 0.5 weighs 2):
    //   success   #1 1, #2 0.5 (judge over the ambiguous signal), #3 1 (exit 0), #4 1 → (1+1+1+1)/(1+2+1+1) = 0.8
    //   weight    1, 1, 0.5, 1 → 0.8;  relevance 1, 1, 0.5, 1 → 0.8;  necessity 0.75; speed unmeasured
    //   raw = (0.4·0.75 + 0.2·0.8 + 0.2·0.8 + 0.1·0.8) / 0.9 = 0.7 / 0.9
    expect(score.agent.dimensions).toEqual({
      success: 80,
      speed: null,
      weight: 80,
      relevance: 80,
      necessity: 75,
    });
    expect(score.agent.raw).toBeCloseTo(0.7 / 0.9, 10);
    const agent = mapScore(0.7 / 0.9);
    expect(score.agent.score).toBe(agent);
    // Composite: service not applicable → goal 0.5, environment 0.25, agent 0.25.
    expect(score.axisScore).toBe(roundScore(0.5 * 82 + 0.25 * 100 + 0.25 * agent));
    expect(score.status).toBe('scored');
    expect(score.necessity).toEqual({ score: 0.75, unnecessaryIds: [3], rationale: 'ls was not needed' });
    expect(score.patterns).toContainEqual({
      kind: 'waste',
      description: 'listed files for nothing',
      interactionIds: [3],
      severity: 'low',
      source: 'judge',
    });
    expect(score.judge).toMatchObject({
      provider: 'anthropic',
      calls: 3,
      requests: 3,
      cached: 0,
      tokens: { input: 300, output: 60 },
    });
    expect(score.judge!.costUsd).toBeCloseTo((300 * 3 + 60 * 15) / 1e6, 10);
    expect(score.judge!.inputChars).toBe(
      server.requests.reduce((n, r) => n + promptText(r).length - (r.body.messages as unknown[]).length, 0),
    );
    expect(sparseIndex.split('\n')[1]).toBe(
      '# 4 interactions | env: 2 | svc: 0 | agent: 2 | errors: 1 | unclassified: 0',
    );
  });

  it('repairs a garbage goal answer and retries a 429, scoring the same', async () => {
    server = await startServer(
      byMarker((m, n) =>
        m === MARKERS.goal && n === 1
          ? anthropicReply('The agent did well, 8/10.')
          : m === MARKERS.agent && n === 1
            ? { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'rate limited' } } }
            : undefined,
      ),
    );
    const { score } = await scoreRun(input, ctxFor(server.url));
    expect(score.status).toBe('scored');
    expect(score.goalAchievement.score).toBe(82);
    const goal = score.judge!.judges.find((j) => j.name === 'goal')!;
    const agent = score.judge!.judges.find((j) => j.name === 'agent')!;
    expect(goal).toMatchObject({ calls: 2, requests: 2, repaired: true });
    expect(agent).toMatchObject({ calls: 1, requests: 2, repaired: false });
  });

  it('a criterion the goal judge grades twice keeps the lower grade, whichever comes first', async () => {
    const twice = {
      grades: [
        { criterion_index: 0, score: 10, rationale: 'perfect' },
        { criterion_index: 1, score: 5, rationale: 'partly' },
        { criterion_index: 0, score: 4, rationale: 'half done' },
      ],
    };
    server = await startServer(
      byMarker((m) => (m === MARKERS.goal ? anthropicReply(JSON.stringify(twice)) : undefined)),
    );
    const { score } = await scoreRun(input, ctxFor(server.url));
    expect(score.goalAchievement.criteria.map((c) => [c.score, c.rationale]).slice(0, 2)).toEqual([
      [4, 'half done'],
      [5, 'partly'],
    ]);
    // (4/10·0.25 + 5/10·0.25 + 10/10·0.5) = 0.725 → 72 (a half goes down)
    expect(score.goalAchievement.score).toBe(72);
  });

  it('a judge failing after its retries leaves the run unscored with the reason, never a 0', async () => {
    server = await startServer(
      byMarker((m) =>
        m === MARKERS.environment ? { status: 500, body: { error: { message: 'down' } } } : undefined,
      ),
    );
    const { score } = await scoreRun(input, ctxFor(server.url, 2));
    expect(score.status).toBe('unscored');
    expect(score.axisScore).toBeNull();
    expect(score.reason).toBe(
      'environment judge failed: anthropic claude-sonnet-4-5: HTTP 500: down (3 attempts); ' +
        'environment: no success verdict for 1 of 2 interactions (#2)',
    );
    // What could be computed is still there.
    expect(score.goalAchievement.score).toBe(82);
  });

  it('a crashed run is failed: score 0, the reason, and no judge call', async () => {
    server = await startServer(byMarker());
    const { score } = await scoreRun(
      { ...input, status: 'failed', reason: 'Agent exited with code 1' },
      ctxFor(server.url),
    );
    expect(server.requests).toHaveLength(0);
    expect(score).toMatchObject({
      status: 'failed',
      axisScore: 0,
      reason: 'Agent exited with code 1',
      judge: null,
    });
    expect(score.goalAchievement.criteria.map((c) => c.rationale)).toEqual(
      Array(3).fill('Run failed: Agent exited with code 1'),
    );
  });

  it('asks no environment judge when the signals settled every environment call', async () => {
    server = await startServer(byMarker());
    const settled: Transcript = {
      ...transcript,
      events: [call('b', 'Bash', { command: 'ls' }), result('b', 'src', { exitCode: 0 }), text('Done.')],
    };
    const { score } = await scoreRun(
      { ...input, transcript: settled, criteria: criteria.slice(2) },
      {
        ...ctxFor(server.url),
      },
    );
    // Only the agent judge: no LLM criteria, no open environment question.
    expect(server.requests.map(markerOf)).toEqual([MARKERS.agent]);
    expect(score.environment.score).toBe(100);
  });

  it('a check without a recorded outcome leaves the goal unscored instead of guessing', async () => {
    server = await startServer(byMarker());
    const { score } = await scoreRun({ ...input, checks: [] }, ctxFor(server.url));
    expect(score.status).toBe('unscored');
    expect(score.goalAchievement.criteria[2]!.rationale).toBe('Not run: the check has no recorded result');
    expect(score.reason).toBe('goal_achievement: no grade for criteria #3');
  });
});
