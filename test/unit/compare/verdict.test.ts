/**
 * The verdict records what the gate checked (the minimums applied and where from, the baseline and its
 * tolerance floor), and the Gate line says it: a pass that checked nothing but completion must not read
 * like one that held the run to minimums and a baseline.
 */
import { describe, expect, it } from 'vitest';
import { runVerdict } from '../../../src/compare/verdict.js';
import { gateLine, gateChecks, type RunVerdict } from '../../../src/report/verdict.js';
import { verdictSchema } from '../../../src/report/verdict-schema.js';
import { manifest } from './helpers.js';

const results = manifest([
  { key: 'a', runs: [90] },
  { key: 'b', runs: [80] },
]).results;

describe('runVerdict: what the gate checked', () => {
  it('no minimums and no baseline: recorded as none, and the Gate line says only completion was checked', () => {
    const v = runVerdict({ results });
    expect(v.pass).toBe(true);
    expect(v.thresholds).toBeNull();
    expect(v.baseline).toBeNull();
    expect(gateLine(v)).toBe('Gate: pass · no thresholds · no baseline (checked only that pairs completed)');
  });

  it('a config with no minimum set (only baseline_tolerance) applies none', () => {
    const v = runVerdict({
      results,
      thresholds: { settings: {}, scenarios: {}, source: 'axis.config.json' },
    });
    expect(v.thresholds).toBeNull();
  });

  it('records the minimums any pair was held to, in a fixed order, and the config they came from', () => {
    const v = runVerdict({
      results,
      thresholds: {
        settings: { reliability: 0.5 },
        scenarios: { b: { axis_score: 70 }, gone: { agent: 99 } },
        source: 'axis.config.json, profile ci',
      },
    });
    expect(v.pass).toBe(true);
    // `agent` is set only for a scenario the report does not hold: no pair was held to it.
    expect(v.thresholds).toEqual({
      source: 'axis.config.json, profile ci',
      metrics: ['axis_score', 'reliability'],
    });
    expect(gateLine(v)).toBe(
      'Gate: pass · thresholds axis_score, reliability (axis.config.json, profile ci) · no baseline',
    );
  });

  it('names the baseline with its tolerance floor', () => {
    const v: RunVerdict = {
      pass: false,
      thresholds: { source: 'axis.config.json', metrics: ['axis_score'] },
      baseline: { name: 'main', tolerance: 2.5 },
      pairs: [],
      incomplete: 'Run cancelled by SIGINT',
    };
    expect(gateChecks(v)).toBe(
      'thresholds axis_score (axis.config.json) · baseline main (tolerance floor 2.5)',
    );
    expect(gateLine(v)).toBe(
      'Gate: fail (the run is incomplete: Run cancelled by SIGINT) · thresholds axis_score (axis.config.json) · baseline main (tolerance floor 2.5)',
    );
    expect(gateLine({ ...v, pass: true, incomplete: undefined, thresholds: null })).toBe(
      'Gate: pass · no thresholds · baseline main (tolerance floor 2.5)',
    );
  });

  it('a verdict stored before AXIS recorded its thresholds loads and says they are not recorded', () => {
    const old = { pass: true, baseline: { name: 'main', tolerance: 1 }, pairs: [] };
    expect(verdictSchema.safeParse(old).success).toBe(true);
    expect(gateLine(old)).toBe('Gate: pass · thresholds not recorded · baseline main (tolerance floor 1)');
    expect(gateLine({ ...old, baseline: null })).toBe('Gate: pass · thresholds not recorded · no baseline');
    const now = runVerdict({
      results,
      thresholds: { settings: { axis_score: 1 }, source: 'axis.config.json' },
    });
    expect(verdictSchema.parse(JSON.parse(JSON.stringify(now)))).toEqual(now);
    expect(verdictSchema.safeParse({ ...now, thresholds: { source: 'x', metrics: ['speed'] } }).success).toBe(
      false,
    );
  });
});
