import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { abVerdict, compareAb, splitVariant } from '../../../src/compare/ab.js';
import { formatAbComparison } from '../../../src/compare/format-ab.js';
import { manifest } from './helpers.js';

const VARIANTS = { variants: ['plain', 'with-mcp'] as [string, string] };

describe('compareAb: variants', () => {
  it('a variant that clearly helps, 3 runs a side: better, with Welch tests on every metric', () => {
    const m = manifest([
      { key: 'cms/post@plain', runs: [70, 71, 72] },
      { key: 'cms/post@with-mcp', runs: [88, 89, 90] },
    ]);
    const c = compareAb(m, VARIANTS);
    expect(c.mode).toBe('variants');
    expect(c.names).toEqual(['plain', 'with-mcp']);
    expect(c.entries).toHaveLength(1);
    const e = c.entries[0]!;
    expect(e).toMatchObject({
      scenario: 'cms/post',
      agent: 'claude-code',
      a: 'cms/post@plain',
      b: 'cms/post@with-mcp',
      baseline: 71,
      current: 89,
      delta: 18,
      change: 'improved',
      runs: { baseline: 3, current: 3 },
    });
    // The band is A's: 2σ of [70, 71, 72] = 2, wider than the 1-point floor.
    expect(e.band).toEqual({ value: 2, floor: 1, sigma: 1, widened: true });
    expect(e.metrics.map((x) => x.metric)).toEqual([
      'axisScore',
      'goalAchievement',
      'environment',
      'service',
      'agent',
      'durationMs',
      'tokens',
    ]);
    const axis = e.metrics[0]!.significance!;
    expect(axis).toMatchObject({ verdict: 'improvement', n: [3, 3] });
    expect(axis.p).toBeLessThan(0.001);
    // Duration and tokens are the same on both sides in these manifests: no significant change.
    expect(e.metrics[5]!.significance!.verdict).toBeNull();
    expect(c.counts).toEqual({ better: 1, worse: 0, unclear: 0 });
    expect(c.verdict).toBe('better');
    const text = formatAbComparison(c);
    expect(text).toContain('Variant "with-mcp" vs "plain" in report');
    expect(text).toMatch(/\ncms\/post +claude-code +71 +89 +\+18 ▲\n/);
    expect(text).toMatch(/\n {4}AXIS Result +71\.0 → 89\.0 +d=\+\d+\.\d\d +p<0\.001 +/);
    expect(text).toContain('1 better, 0 worse, 0 no clear difference');
    expect(text).toContain('Verdict: "with-mcp" is better ▲ than "plain"\n');
  });

  it('within the band is no clear difference; one better and one worse is worse (ties go down)', () => {
    const m = manifest([
      { key: 'a@plain', runs: [80, 84, 76] },
      { key: 'a@with-mcp', runs: [82, 78, 86] },
      { key: 'b@plain', runs: [80] },
      { key: 'b@with-mcp', runs: [90] },
      { key: 'c@plain', runs: [80] },
      { key: 'c@with-mcp', runs: [70] },
    ]);
    const c = compareAb(m, VARIANTS);
    expect(c.entries.map((e) => [e.scenario, e.change])).toEqual([
      ['a', 'unchanged'],
      ['b', 'improved'],
      ['c', 'regressed'],
    ]);
    expect(c.entries[0]!.metrics[0]!.significance!.verdict).toBeNull();
    expect(c.counts).toEqual({ better: 1, worse: 1, unclear: 1 });
    expect(c.verdict).toBe('worse');
    const only = compareAb(
      manifest([
        { key: 'a@plain', runs: [80, 84, 76] },
        { key: 'a@with-mcp', runs: [82, 78, 86] },
      ]),
      VARIANTS,
    );
    expect(only.verdict).toBe('no clear difference');
    expect(formatAbComparison(only)).toContain('Verdict: no clear difference between "with-mcp" and "plain"');
  });

  it('pairs missing on one side, or with no scored A, are not comparable; a crashing B is worse', () => {
    const m = manifest([
      { key: 'only-a@plain', runs: [80] },
      { key: 'only-b@with-mcp', runs: [80] },
      { key: 'a-crashed@plain', runs: ['crash'] },
      { key: 'a-crashed@with-mcp', runs: [90] },
      { key: 'b-crashed@plain', runs: [90] },
      { key: 'b-crashed@with-mcp', runs: ['crash'] },
      { key: 'other@third', runs: [10] },
      { key: 'plain-key', runs: [10] },
    ]);
    const c = compareAb(m, VARIANTS);
    expect(c.notComparable).toEqual([
      {
        scenario: 'a-crashed',
        agent: 'claude-code',
        side: 'a',
        message: 'variant "plain" has no scored AXIS Result: Agent exited with code 1',
      },
      {
        scenario: 'only-a',
        agent: 'claude-code',
        side: 'b',
        message: 'No variant "with-mcp" in this report',
      },
      { scenario: 'only-b', agent: 'claude-code', side: 'a', message: 'No variant "plain" in this report' },
    ]);
    expect(c.entries.map((e) => [e.scenario, e.change, e.regressions[0]?.kind])).toEqual([
      ['b-crashed', 'regressed', 'failed'],
    ]);
    expect(c.verdict).toBe('worse');
    expect(formatAbComparison(c)).toContain(
      '  – only-a · claude-code: not comparable (No variant "with-mcp" in this report)',
    );
  });

  it('a B side that never ran (the run was cancelled) is not comparable, never worse', () => {
    const m = manifest([
      { key: 'post@plain', runs: [90, 90, 90] },
      { key: 'post@with-mcp', runs: ['cancelled', 'cancelled', 'cancelled'] },
      { key: 'search@plain', runs: [80, 80, 80] },
      { key: 'search@with-mcp', runs: [80, 80, 80] },
    ]);
    const c = compareAb(m, VARIANTS);
    expect(c.notComparable).toEqual([
      {
        scenario: 'post',
        agent: 'claude-code',
        side: 'b',
        message:
          'variant "with-mcp" has no scored AXIS Result: 3 of 3 runs did not complete; run 1: Run cancelled by SIGINT',
      },
    ]);
    expect(c.entries.map((e) => [e.scenario, e.change])).toEqual([['search', 'unchanged']]);
    expect(c.counts).toEqual({ better: 0, worse: 0, unclear: 1 });
    expect(c.verdict).toBe('no clear difference');
  });

  it('variants pair per agent, never across agents', () => {
    const m = manifest([
      { key: 's@plain', agent: 'x', runs: [50] },
      { key: 's@with-mcp', agent: 'x', runs: [60] },
      { key: 's@plain', agent: 'y', runs: [50] },
      { key: 's@with-mcp', agent: 'z', runs: [40] },
    ]);
    const c = compareAb(m, VARIANTS);
    expect(c.entries.map((e) => [e.agent, e.change])).toEqual([['x', 'improved']]);
    expect(c.notComparable.map((n) => [n.agent, n.side])).toEqual([
      ['y', 'b'],
      ['z', 'a'],
    ]);
  });
});

describe('compareAb: agents', () => {
  it('the second agent against the first on every scenario', () => {
    const m = manifest([
      { key: 'hello', agent: 'claude-code', runs: [60, 61, 62] },
      { key: 'hello', agent: 'codex', runs: [61, 62, 60] },
      { key: 'docs', agent: 'claude-code', runs: [90] },
      { key: 'docs', agent: 'codex', runs: [70] },
      { key: 'solo', agent: 'codex', runs: [70] },
    ]);
    const c = compareAb(m, { agents: ['claude-code', 'codex'] }, { tolerance: 3 });
    expect(c.mode).toBe('agents');
    expect(c.tolerance).toBe(3);
    expect(c.entries.map((e) => [e.scenario, e.agent, e.a, e.b, e.change])).toEqual([
      ['docs', null, 'claude-code', 'codex', 'regressed'],
      ['hello', null, 'claude-code', 'codex', 'unchanged'],
    ]);
    expect(c.notComparable).toEqual([
      { scenario: 'solo', agent: null, side: 'a', message: 'No agent "claude-code" in this report' },
    ]);
    expect(c.verdict).toBe('worse');
    const text = formatAbComparison(c);
    expect(text).toContain('Agent "codex" vs "claude-code"');
    expect(text).toMatch(/\nScenario +Agents +claude-code +codex +Delta\n/);
    expect(text).toMatch(/\ndocs +claude-code → codex +90 +70 +-20 ▼\n/);
  });
});

describe('abVerdict and splitVariant', () => {
  it('counts per scenario; ties go down', () => {
    expect(abVerdict({ better: 0, worse: 0 })).toBe('no clear difference');
    expect(abVerdict({ better: 2, worse: 1 })).toBe('better');
    expect(abVerdict({ better: 1, worse: 1 })).toBe('worse');
    expect(abVerdict({ better: 0, worse: 1 })).toBe('worse');
  });
  it('splits on the last @, and only when the variant matches', () => {
    expect(splitVariant({ scenarioKey: 'cms/post@plain' })).toEqual({ base: 'cms/post', variant: 'plain' });
    expect(splitVariant({ scenarioKey: 'a@b@c', variant: 'b@c' })).toEqual({ base: 'a', variant: 'b@c' });
    expect(splitVariant({ scenarioKey: 'hello' })).toEqual({ base: 'hello', variant: null });
  });
});

describe('docs', () => {
  it('docs/reports.md names every field of the JSON document and of a not-comparable entry', () => {
    const doc = readFileSync(new URL('../../../docs/reports.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('### Did my change help agents?'));
    const c = compareAb(
      manifest([
        { key: 'a@plain', runs: [80] },
        { key: 'a@with-mcp', runs: [81] },
        { key: 'b@plain', runs: [80] },
      ]),
      VARIANTS,
    );
    const keys = [
      ...Object.keys(c),
      ...Object.keys(c.counts),
      ...Object.keys(c.notComparable[0]!),
      ...['scenario', 'agent', 'a', 'b'],
    ];
    for (const key of keys) expect(section, key).toMatch(new RegExp(`\\b${key}\\b`));
  });
});
