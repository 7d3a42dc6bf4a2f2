import { describe, expect, it } from 'vitest';
import {
  SLOWEST,
  SPEED_BUCKETS,
  speed,
  speedCategory,
  speedScore,
} from '../../../../src/scoring/signals/speed.js';
import { call, classified, result, text, toolIx } from '../helpers.js';

describe('speed: interpolated between the anchor points', () => {
  it.each([
    // environment anchors: 0.5 s → 1, 2 s → 0.9, 5 s → 0.8, 10 s → 0.6, 20 s → 0.4
    [0, 'environment', 1],
    [500, 'environment', 1],
    [1_250, 'environment', 0.95],
    [2_000, 'environment', 0.9],
    [3_500, 'environment', 0.85],
    [5_000, 'environment', 0.8],
    [7_500, 'environment', 0.7],
    [10_000, 'environment', 0.6],
    [15_000, 'environment', 0.5],
    [20_000, 'environment', SLOWEST],
    [600_000, 'environment', SLOWEST],
    // service: 2 s / 5 s / 10 s / 25 s, then 50 s → 0.4
    [2_000, 'service', 1],
    [3_500, 'service', 0.95],
    [10_000, 'service', 0.8],
    [25_000, 'service', 0.6],
    [37_500, 'service', 0.5],
    // agent: 2 s / 5 s / 15 s / 30 s, then 60 s → 0.4
    [0, 'agent', 1],
    [5_000, 'agent', 0.9],
    [15_000, 'agent', 0.8],
    [30_000, 'agent', 0.6],
    [60_000, 'agent', 0.4],
  ] as const)('%d ms as %s → %d', (ms, category, expected) => {
    expect(speedScore(ms, category)).toBeCloseTo(expected, 9);
  });

  it('has no cliffs: 494 ms and 515 ms differ by a hundredth of a point at most', () => {
    const a = speedScore(494, 'environment');
    const b = speedScore(515, 'environment');
    expect(a).toBe(1);
    expect(b).toBeLessThan(a);
    expect(a - b).toBeLessThan(0.002);
    let maxStep = 0;
    for (let ms = 0; ms < 60_000; ms += 10)
      maxStep = Math.max(maxStep, speedScore(ms, 'environment') - speedScore(ms + 10, 'environment'));
    expect(maxStep).toBeLessThan(0.001);
  });

  it('exports tables that cannot drift from the copies it scores with', () => {
    for (const list of Object.values(SPEED_BUCKETS)) {
      expect(Object.isFrozen(list)).toBe(true);
      for (const b of list) expect(Object.isFrozen(b)).toBe(true);
    }
    expect(Object.isFrozen(SPEED_BUCKETS)).toBe(true);
    expect(() => {
      (SPEED_BUCKETS.environment[0] as { maxMs: number }).maxMs = 5;
    }).toThrow(TypeError);
    expect(speedScore(500, 'environment')).toBe(1);
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
      value: 0.9 + ((0.8 - 0.9) * 1_000) / 3_000,
      unambiguous: true,
      evidence: 'took 3s: speed 86/100 for an environment step',
    });
    const curl = toolIx('Bash', { command: 'curl x' }, { durationMs: 3_000 });
    expect(speed.evaluate([curl]).values[0]!.value).toBeCloseTo(1 - (0.1 * 1_000) / 3_000, 9);
  });

  it('says when the duration was measured on receipt times', () => {
    const [ix] = classified([call('a', 'Read', {}, 0, 'received'), result('a', 'x', { at: 40 })]);
    expect(speed.evaluate([ix!]).values[0]!.evidence).toBe(
      'took 40ms (timed as AXIS received the output): speed 100/100 for an environment step',
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
    expect(speed.evaluate(list).values[1]).toMatchObject({ interactionId: 2 });
    expect(speed.evaluate(list).values[1]!.value).toBeCloseTo(0.8 - (0.2 * 5_000) / 15_000, 9);
  });
});
