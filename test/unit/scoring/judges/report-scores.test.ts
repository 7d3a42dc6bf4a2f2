/** report.json scores: representative run, spread over runs, summary average, judge totals. */
import { describe, expect, it } from 'vitest';
import { buildManifest } from '../../../../src/report/build-manifest.js';
import type { JobResult } from '../../../../src/report/job-result.js';
import { composeScore, failedScore } from '../../../../src/scoring/composite.js';
import type { JudgeSummary, RunScore } from '../../../../src/scoring/types.js';
import { median, representative, scoreText, spread } from '../../../../src/report/scores.js';
import type { DimensionScore } from '../../../../src/scoring/types.js';

const dim = (score: number | null, notApplicable = false): DimensionScore => ({
  score,
  notApplicable,
  raw: null,
  dimensions: { success: null, speed: null, weight: null, relevance: null, necessity: null },
  audits: [],
  interactionCount: notApplicable ? 0 : 1,
  auditedCount: 0,
  judgedCount: 0,
});
const judge = (over: Partial<JudgeSummary> = {}): JudgeSummary => ({
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  label: 'anthropic claude-sonnet-4-5',
  calls: 3,
  requests: 3,
  cached: 0,
  tokens: { input: 1000, output: 100 },
  costUsd: 0.0045,
  inputChars: 4000,
  judges: [],
  ...over,
});
/** A scored run whose composite is exactly `axis` (every dimension scores `axis`). */
const scored = (axis: number, j: JudgeSummary | null = judge()): RunScore => ({
  ...composeScore({
    goal: { score: axis, notApplicable: false, criteria: [] },
    environment: dim(axis),
    service: dim(axis),
    agent: dim(axis),
  }),
  judge: j,
});
const unscored = (): RunScore => ({
  ...composeScore({
    goal: { score: 50, notApplicable: false, criteria: [] },
    environment: dim(50),
    service: dim(50),
    agent: dim(50),
    judgeFailure: 'goal judge failed: HTTP 500',
  }),
  judge: judge({ costUsd: undefined }),
});
const failed = (): RunScore => ({ ...failedScore('Agent exited with code 1'), judge: null });

function job(
  scenarioKey: string,
  run: number,
  runs: number,
  score: RunScore | undefined,
  durationMs = run * 1000,
): JobResult {
  return {
    index: run,
    scenarioKey,
    scenarioBaseKey: scenarioKey,
    scenarioName: scenarioKey,
    agentName: 'claude-code',
    agent: { name: 'claude-code', agent: 'claude-code', flags: {}, env: {}, skills: [], args: [] },
    run,
    runs,
    prompt: 'p',
    criteria: [],
    limits: { time_minutes: 5 },
    status: score?.status === 'failed' ? 'failed' : 'completed',
    startedAt: new Date(0).toISOString(),
    endedAt: new Date(durationMs).toISOString(),
    durationMs,
    timings: { setupMs: 0, agentMs: durationMs, afterAgentMs: 0, teardownMs: 0 },
    transcript: {
      agent: 'claude-code',
      events: [],
      result: null,
      usage: { input: run * 10, output: run, cacheReadInput: 0 },
      exitCode: score?.status === 'failed' ? 1 : 0,
      startedAt: 0,
      endedAt: durationMs,
      durationMs,
    },
    rawLineCount: 0,
    artifacts: [],
    ...(score ? { score } : {}),
  };
}
const manifestOf = (results: JobResult[]) =>
  buildManifest({
    reportId: '2026-01-01-000000',
    startedAt: new Date(0),
    now: new Date(10_000),
    incomplete: false,
    config: 'axis.config.json',
    settings: { concurrency: 1, runs: 3, simulate: true },
    results,
    skippedScenarios: [],
  });

describe('representative run and spread', () => {
  it('picks the scored run nearest the median, the lower composite on a tie', () => {
    const runs = [job('a', 1, 3, scored(80)), job('a', 2, 3, scored(95)), job('a', 3, 3, scored(86))];
    expect(representative(runs).run).toBe(3);
    const tie = [job('a', 1, 3, scored(80)), job('a', 2, 3, unscored()), job('a', 3, 3, scored(90))];
    expect(representative(tie).run).toBe(1);
    expect(representative([job('a', 1, 2, failed()), job('a', 2, 2, unscored())]).run).toBe(2);
  });

  it('spread: median, range, sample sigma over scored runs; failures count against reliability', () => {
    const s = spread([
      job('a', 1, 5, scored(80)),
      job('a', 2, 5, scored(90)),
      job('a', 3, 5, scored(85)),
      job('a', 4, 5, unscored()),
      job('a', 5, 5, failed()),
    ]);
    expect(s).toEqual({
      runs: 5,
      scored: 3,
      unscored: 1,
      failed: 1,
      cancelled: 0,
      median: 85,
      min: 80,
      max: 90,
      sigma: 5,
      // completed ÷ (runs − unscored) = 3 / 4
      reliability: 0.75,
    });
    expect(median([1, 3])).toBe(2);
    expect(median([])).toBeNull();
  });
});

describe('applyScores (through buildManifest)', () => {
  it('headline = representative run, per-run composites, average over scored pairs only, judge totals', () => {
    const m = manifestOf([
      job('a', 1, 3, scored(80)),
      job('a', 2, 3, scored(95)),
      job('a', 3, 3, scored(86)),
      job('b', 1, 3, unscored()),
      job('b', 2, 3, unscored()),
      job('b', 3, 3, unscored()),
    ]);
    const a = m.results.find((e) => e.scenarioKey === 'a')!;
    expect(a.representativeRun).toBe(3);
    expect(a.score!.axisScore).toBe(86);
    expect(a.durationMs).toBe(3000);
    expect(a.tokenUsage).toEqual({ input: 30, output: 3, cacheReadInput: 0 });
    expect(a.runs.map((r) => [r.axisScore, r.scoreStatus])).toEqual([
      [80, 'scored'],
      [95, 'scored'],
      [86, 'scored'],
    ]);
    expect(a.spread).toMatchObject({ median: 86, min: 80, max: 95, scored: 3 });
    const b = m.results.find((e) => e.scenarioKey === 'b')!;
    expect(b.score!.status).toBe('unscored');
    expect(m.summary.averageAxisScore).toBe(86);
    expect(m.summary.scores).toMatchObject({ total: 2, scored: 1, unscored: 1, failed: 0 });
    expect(m.summary.scores!.judge).toMatchObject({
      runs: 6,
      calls: 18,
      tokens: { input: 6000, output: 600 },
      inputChars: 24_000,
      judges: ['anthropic claude-sonnet-4-5'],
    });
    expect(m.summary.scores!.judge.costUsd).toBeCloseTo(3 * 0.0045, 10);
  });

  it('judge cost: judged runs without one are counted (the sum is then partial); simulator and cached runs are not', () => {
    const m = manifestOf([
      job('a', 1, 1, scored(80)),
      job('b', 1, 1, scored(80, judge({ label: 'agent codex', costUsd: undefined }))),
      job(
        'c',
        1,
        1,
        scored(80, judge({ calls: 0, cached: 3, tokens: { input: 0, output: 0 }, costUsd: undefined })),
      ),
      job(
        'd',
        1,
        1,
        scored(80, judge({ label: 'anthropic m (simulator)', costUsd: undefined, simulated: true })),
      ),
      job('e', 1, 1, failed()),
    ]);
    expect(m.summary.scores!.judge).toMatchObject({ runs: 4, costUsd: 0.0045, runsWithoutCost: 1 });
    const all = manifestOf([job('a', 1, 1, scored(80)), job('b', 1, 1, scored(80))]);
    expect(all.summary.scores!.judge).not.toHaveProperty('runsWithoutCost');
    expect(all.summary.scores!.judge.costUsd).toBeCloseTo(0.009, 10);
  });

  it('one crashed run of five: the pair completed, the crash counts against reliability only', () => {
    const crash = { ...job('a', 2, 5, failed()), reason: 'Agent exited with code 1' };
    const m = manifestOf([
      job('a', 1, 5, scored(100)),
      crash,
      job('a', 3, 5, scored(33)),
      job('a', 4, 5, unscored()),
      job('a', 5, 5, scored(60)),
      job('b', 1, 5, scored(100)),
      ...[2, 3, 4, 5].map((n) => ({ ...job('b', n, 5, failed()), status: 'failed' as const })),
    ]);
    const [a, b] = m.results;
    expect(a).toMatchObject({ status: 'completed', runsCompleted: 4, runsFailed: 1, representativeRun: 5 });
    expect(a!.reason).toBe('run 2 of 5: Agent exited with code 1');
    expect(a!.spread).toMatchObject({ scored: 3, unscored: 1, failed: 1, median: 60, reliability: 0.75 });
    // One good run of five still completes the pair; its headline is that run, reliability 1/5.
    expect(b).toMatchObject({ status: 'completed', runsFailed: 4 });
    expect(b!.spread!.reliability).toBe(0.2);
    expect(m.summary).toMatchObject({ total: 2, completed: 2, failed: 0, runsTotal: 10, runsFailed: 5 });
    expect(m.summary.scores).toMatchObject({
      total: 2,
      scored: 2,
      failed: 0,
      runs: { total: 10, scored: 4, unscored: 1, failed: 5, cancelled: 0 },
      // 4 completed of 9 counted
      reliability: 0.444,
      averageAxisScore: 80,
    });
  });

  it('runs 3, 100 / crash / 33: the headline is 33, never the flattering 100', () => {
    const m = manifestOf([
      job('a', 1, 3, scored(100)),
      { ...job('a', 2, 3, failed()), status: 'failed' as const },
      job('a', 3, 3, scored(33)),
    ]);
    expect(m.results[0]!.score!.axisScore).toBe(33);
    expect(m.results[0]!.representativeRun).toBe(3);
    expect(m.summary.averageAxisScore).toBe(33);
  });

  it('cancelled runs get no failed score and leave reliability alone', () => {
    const cancelled = (n: number) => ({
      ...job('a', n, 3, undefined),
      status: 'cancelled' as const,
      reason: 'Run cancelled by SIGINT',
    });
    const m = manifestOf([job('a', 1, 3, scored(70)), cancelled(2), cancelled(3)]);
    const [a] = m.results;
    expect(a!.status).toBe('completed');
    expect(a!.runs.map((r) => r.scoreStatus)).toEqual(['scored', undefined, undefined]);
    expect(a!.spread).toMatchObject({ cancelled: 2, failed: 0, reliability: 1 });
    expect(m.summary).toMatchObject({ failed: 0, runsFailed: 0, runsCancelled: 2 });
    expect(m.summary.scores).toMatchObject({ reliability: 1, runs: { cancelled: 2, failed: 0 } });
  });

  it('leaves a report without scores (--no-score) untouched', () => {
    const m = manifestOf([job('a', 1, 1, undefined)]);
    expect(m.summary.averageAxisScore).toBeUndefined();
    expect(m.summary.scores).toBeUndefined();
    expect(m.results[0]!.score).toBeUndefined();
    expect(m.results[0]!.runs[0]!.axisScore).toBeUndefined();
  });

  it('a job that never reached scoring (setup failed) counts as a failed run with its reason', () => {
    const setupFailed = {
      ...job('b', 1, 1, undefined),
      status: 'failed' as const,
      reason: 'setup[0] exited with code 3',
    };
    const m = manifestOf([job('a', 1, 1, scored(90)), setupFailed]);
    const b = m.results.find((e) => e.scenarioKey === 'b')!;
    expect(b.score).toMatchObject({ status: 'failed', axisScore: 0, reason: 'setup[0] exited with code 3' });
    expect(m.summary.scores).toMatchObject({ scored: 1, failed: 1, reliability: 0.5 });
    expect(m.summary.averageAxisScore).toBe(90);
  });

  it('no scored pair gives a null average, never 0', () => {
    const m = manifestOf([job('a', 1, 1, failed())]);
    expect(m.summary.averageAxisScore).toBeNull();
    expect(m.summary.scores).toMatchObject({ failed: 1, reliability: 0 });
  });
});

describe('scoreText', () => {
  it('prints the composite with its dimensions, or the reason', () => {
    expect(scoreText(scored(88))).toBe('AXIS 88 · goal 88 · env 88 · svc 88 · agent 88');
    expect(scoreText(unscored())).toBe('unscored: goal judge failed: HTTP 500');
    expect(scoreText(failed())).toBe('failed: Agent exited with code 1');
  });
});
