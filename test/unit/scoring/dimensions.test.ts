import { describe, expect, it } from 'vitest';
import { mapScore } from '../../../src/scoring/calibration.js';
import { scoreDimension, scoreDimensions } from '../../../src/scoring/dimensions.js';
import { evaluateSignals } from '../../../src/scoring/signals/index.js';
import type { Audit, ClassifiedInteraction } from '../../../src/scoring/types.js';
import { call, classified, result, text } from './helpers.js';

/** #1 `ls` exit 0 in 200 ms, #2 `nosuch` exit 127 in 1 s. */
function twoShellCalls(): ClassifiedInteraction[] {
  return classified([
    call('a', 'Bash', { command: 'ls' }, 0),
    result('a', 'a.txt', { at: 200, exitCode: 0 }),
    call('b', 'Bash', { command: 'nosuch' }, 1_000),
    result('b', 'command not found', { at: 2_000, exitCode: 127, isError: true }),
  ]);
}
const signalAudits = (list: ClassifiedInteraction[]) => evaluateSignals(list).audits;
// speed: 1 (≤ 0.5 s) and 1 − 0.1·500/1500 for #2, which failed: no speed credit (× success 0) → 1 and 0
const SPEED = (1 * 1 + 0 * 5) / (1 + 5);
// success: 1 and 0 weigh 1 and 5
const SUCCESS = (1 * 1 + 0 * 5) / (1 + 5);

describe('environment and service dimensions', () => {
  it('combine success 0.7 and speed 0.3 from signal audits', () => {
    const list = twoShellCalls();
    const env = scoreDimension('environment', { interactions: list, audits: signalAudits(list) });
    const raw = 0.7 * SUCCESS + 0.3 * SPEED;
    expect(env.raw).toBeCloseTo(raw, 12);
    expect(env.score).toBe(mapScore(raw));
    expect(env.dimensions).toEqual({
      success: 17,
      speed: 17,
      weight: null,
      relevance: null,
      necessity: null,
    });
    expect(env).toMatchObject({ notApplicable: false, interactionCount: 2, auditedCount: 2, judgedCount: 0 });
    expect(env.audits[1]).toMatchObject({
      interactionId: 2,
      category: 'environment',
      success: 0,
      speed: 0,
      source: 'signal',
      fieldSources: { success: 'signal', speed: 'signal' },
    });
    expect(env.audits[1]!.rationale).toContain('exit code 127: command not found');
    expect(env.audits[1]!.rationale).toContain('failed work earns no speed credit');
  });

  it('gives an all-failed dimension about 0: fast failures earn no speed points', () => {
    const list = classified([
      call('a', 'Bash', { command: 'nosuch' }, 0),
      result('a', 'command not found', { at: 10, exitCode: 127, isError: true }),
      call('b', 'Bash', { command: 'nosuch2' }, 20),
      result('b', 'command not found', { at: 30, exitCode: 127, isError: true }),
    ]);
    const env = scoreDimension('environment', { interactions: list, audits: signalAudits(list) });
    expect(env.score).toBe(0);
    expect(env.dimensions.speed).toBe(0);
  });

  it('is not applicable when no interaction touched it — never a free 100', () => {
    const list = twoShellCalls();
    const service = scoreDimension('service', { interactions: list, audits: signalAudits(list) });
    expect(service).toMatchObject({ score: null, notApplicable: true, interactionCount: 0, audits: [] });
  });

  it('gives speed weight to success when no duration was measured', () => {
    const list = classified([call('a', 'Read', { file_path: 'x' }), result('a', 'x')]);
    const env = scoreDimension('environment', { interactions: list, audits: signalAudits(list) });
    expect(env.raw).toBe(1);
    expect(env.dimensions.speed).toBeNull();
    expect(env.score).toBe(100);
  });

  it('lets a judge settle an ambiguous signal but never overrule an unambiguous one', () => {
    const list = classified([
      call('a', 'Bash', { command: 'npm test' }),
      result('a', '2 failing', { exitCode: 1, isError: true }),
      call('b', 'Bash', { command: 'rm -rf /' }),
      result('b', 'denied', { permissionDenied: true, isError: true }),
    ]);
    const judge: Audit[] = [
      {
        interactionId: 1,
        category: 'environment',
        success: 1,
        rationale: 'tests ran; failures are the code',
        source: 'judge',
      },
      { interactionId: 2, category: 'environment', success: 1, rationale: 'looks fine', source: 'judge' },
    ];
    const env = scoreDimension('environment', {
      interactions: list,
      audits: [...signalAudits(list), ...judge],
    });
    expect(env.audits.map((a) => [a.success, a.source, a.fieldSources?.success])).toEqual([
      [1, 'judge', 'judge'],
      [0, 'signal', 'signal'],
    ]);
    expect(env.audits[0]!.rationale).toBe('tests ran; failures are the code');
    expect(env.judgedCount).toBe(1);
    // success (1·1 + 0·5)/(1 + 5), no durations → raw = success
    expect(env.raw).toBeCloseTo(1 / 6, 12);

    // Without the judge, #1 has only the signal's best guess: shown, but the dimension is not scored.
    const unjudged = scoreDimension('environment', { interactions: list, audits: signalAudits(list) });
    expect(unjudged.audits[0]).toMatchObject({ success: 0, source: 'signal' });
    expect(unjudged).toMatchObject({
      score: null,
      raw: null,
      unscoredReason: 'no success verdict for 1 of 2 interactions (#1)',
    });
  });

  it('is unscored, not guessed, when nothing says whether calls succeeded', () => {
    const list = classified([call('a', 'Bash', { command: 'sleep 99' })]);
    const env = scoreDimension('environment', { interactions: list, audits: signalAudits(list) });
    expect(env).toMatchObject({
      score: null,
      notApplicable: false,
      unscoredReason: 'no verdict for success',
    });
    expect(env.audits[0]).toMatchObject({ source: 'default', rationale: 'not audited' });
    expect(env.auditedCount).toBe(0);
  });

  it('rejects audit values outside 0..1', () => {
    const list = twoShellCalls();
    const bad: Audit = {
      interactionId: 1,
      category: 'environment',
      success: 1.5,
      rationale: '',
      source: 'judge',
    };
    expect(() => scoreDimension('environment', { interactions: list, audits: [bad] })).toThrow(
      'audit of interaction #1 (environment, judge): success must be between 0 and 1, found 1.5',
    );
  });
});

describe('agent dimension', () => {
  it('audits every interaction and needs the judge for necessity, relevance and weight', () => {
    const list = twoShellCalls();
    const agent = scoreDimension('agent', { interactions: list, audits: signalAudits(list) });
    expect(agent).toMatchObject({
      score: null,
      interactionCount: 2,
      unscoredReason: 'no verdict for weight, relevance, necessity',
    });
    expect(agent.dimensions).toMatchObject({
      success: 17,
      speed: 17,
      weight: null,
      relevance: null,
      necessity: null,
    });
  });

  it('weighs necessity 0.4, relevance 0.2, weight 0.2, success 0.1, speed 0.1', () => {
    const list = twoShellCalls();
    const judge: Audit[] = [
      { interactionId: 1, category: 'agent', weight: 1, relevance: 1, rationale: 'needed', source: 'judge' },
      { interactionId: 2, category: 'agent', weight: 0.5, relevance: 0, rationale: 'typo', source: 'judge' },
    ];
    const necessity = { score: 0.8, unnecessaryIds: [2], rationale: 'one wasted call' };
    const agent = scoreDimension('agent', {
      interactions: list,
      audits: [...signalAudits(list), ...judge],
      necessity,
    });
    const weight = (1 * 1 + 0.5 * 2) / (1 + 2); // 0.5 weighs 1 + 4·0.25 = 2
    const relevance = (1 * 1 + 0 * 5) / (1 + 5);
    const raw = 0.4 * 0.8 + 0.2 * relevance + 0.2 * weight + 0.1 * SUCCESS + 0.1 * SPEED;
    expect(agent.raw).toBeCloseTo(raw, 12);
    expect(agent.score).toBe(mapScore(raw));
    expect(agent.dimensions).toEqual({ success: 17, speed: 17, weight: 67, relevance: 17, necessity: 80 });
  });

  it('counts reasoning in the agent pool only', () => {
    const list = classified([text('plan'), call('a', 'Read', {}), result('a', 'x')]);
    const all = scoreDimensions({ interactions: list, audits: signalAudits(list) });
    expect([
      all.environment.interactionCount,
      all.service.interactionCount,
      all.agent.interactionCount,
    ]).toEqual([1, 0, 2]);
  });

  it('is not applicable for an empty transcript (upstream gave 94)', () => {
    expect(
      scoreDimension('agent', {
        interactions: [],
        audits: [],
        necessity: { score: 1, unnecessaryIds: [], rationale: '' },
      }),
    ).toMatchObject({
      notApplicable: true,
      score: null,
    });
  });
});
