import { describe, expect, it } from 'vitest';
import { SLOWEST, speed, speedCategory, speedScore } from '../../../../src/scoring/signals/speed.js';
import { call, classified, result, text, toolIx } from '../helpers.js';

describe('speed buckets (thresholds inclusive)', () => {
  it.each([
    // environment: 0.5 s / 2 s / 5 s / 10 s
    [500, 'environment', 1],
    [501, 'environment', 0.9],
    [2_000, 'environment', 0.9],
    [5_000, 'environment', 0.8],
    [10_000, 'environment', 0.6],
    [10_001, 'environment', SLOWEST],
    // service: 2 s / 5 s / 10 s / 25 s
    [2_000, 'service', 1],
    [2_001, 'service', 0.9],
    [10_000, 'service', 0.8],
    [25_000, 'service', 0.6],
    [25_001, 'service', 0.4],
    // agent: 2 s / 5 s / 15 s / 30 s
    [0, 'agent', 1],
    [5_000, 'agent', 0.9],
    [15_000, 'agent', 0.8],
    [30_000, 'agent', 0.6],
    [60_000, 'agent', 0.4],
  ] as const)('%d ms as %s → %d', (ms, category, expected) => {
    expect(speedScore(ms, category)).toBe(expected);
  });

  it('uses the service table first, then environment, else agent', () => {
    expect(speedCategory(['environment', 'service'])).toBe('service');
    expect(speedCategory(['environment'])).toBe('environment');
    expect(speedCategory(['agent'])).toBe('agent');
  });
});

describe('speed signal', () => {
  it('scores measured interactions with evidence naming the bucket', () => {
    const ix = toolIx('Bash', { command: 'npm ci' }, { durationMs: 3_000 });
    expect(speed.evaluate([ix]).values[0]).toEqual({
      interactionId: 1,
      value: 0.8,
      unambiguous: true,
      evidence: '3s: environment bucket ≤ 5s → 0.8',
    });
    const curl = toolIx('Bash', { command: 'curl x' }, { durationMs: 3_000 });
    expect(speed.evaluate([curl]).values[0]!.value).toBe(0.9);
  });

  it('says when the duration was measured on receipt times', () => {
    const [ix] = classified([call('a', 'Read', {}, 0, 'received'), result('a', 'x', { at: 40 })]);
    expect(speed.evaluate([ix!]).values[0]!.evidence).toBe(
      '40ms (AXIS receipt times): environment bucket ≤ 500ms → 1',
    );
  });

  it('does not measure interactions without a duration (no free 1.0)', () => {
    const list = classified([text('hello'), call('a', 'Bash', {})]);
    expect(speed.evaluate(list).values.map((v) => v.value)).toEqual([null, null]);
  });

  it('rates slow reasoning with the agent table', () => {
    const list = classified([
      call('a', 'Read', {}, 0),
      result('a', 'x', { at: 1_000 }),
      text('thinking hard', 1_000 + 20_000),
    ]);
    expect(speed.evaluate(list).values[1]).toMatchObject({ interactionId: 2, value: 0.6 });
  });
});
