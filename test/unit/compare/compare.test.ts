import { describe, expect, it } from 'vitest';
import { mergeBaseline, type Baseline } from '../../../src/compare/baseline.js';
import { compare, type ComparisonEntry } from '../../../src/compare/compare.js';
import { formatComparison } from '../../../src/compare/format.js';
import { manifest, type PairSpec } from './helpers.js';

const baselineOf = (pairs: PairSpec[]): Baseline =>
  mergeBaseline(undefined, manifest(pairs, '2026-01-01-000000'), 'main', new Date('2026-01-01T01:00:00Z'))
    .baseline;
const entry = (c: { entries: ComparisonEntry[] }, key: string) =>
  c.entries.find((e) => e.scenarioKey === key)!;

describe('compare: the band', () => {
  it('a single-run baseline: 1 point either way is unchanged, more is improved or regressed', () => {
    const base = baselineOf([
      { key: 'a', runs: [80] },
      { key: 'b', runs: [80] },
      { key: 'c', runs: [80] },
      { key: 'd', runs: [80] },
    ]);
    const c = compare(
      base,
      manifest([
        { key: 'a', runs: [81] },
        { key: 'b', runs: [79] },
        { key: 'c', runs: [82] },
        { key: 'd', runs: [78] },
      ]),
    );
    expect(c.entries.map((e) => [e.scenarioKey, e.change, e.delta])).toEqual([
      ['a', 'unchanged', 1],
      ['b', 'unchanged', -1],
      ['c', 'improved', 2],
      ['d', 'regressed', -2],
    ]);
    expect(entry(c, 'd').band).toEqual({ value: 1, floor: 1, sigma: null, widened: false });
    expect(entry(c, 'd').regressions).toEqual([
      {
        kind: 'score',
        metric: 'axis_score',
        value: 78,
        limit: 79,
        message: 'AXIS Result 78 is 2 below the baseline 80 (tolerance ±1)',
      },
    ]);
    expect(c.summary).toMatchObject({ improved: 1, regressed: 1, unchanged: 2, new: 0, missing: 0 });
    expect(c.regressed).toBe(true);
  });

  it("widens to 2σ of the baseline's measured spread, keeping the floor", () => {
    // σ of 80, 84, 88 = 4 → band ±8
    const base = baselineOf([
      { key: 'noisy', runs: [80, 84, 88] },
      { key: 'steady', runs: [84, 84, 84.4] },
    ]);
    const c = compare(
      base,
      manifest([
        { key: 'noisy', runs: [76, 77, 78] },
        { key: 'steady', runs: [82, 82, 82] },
      ]),
    );
    expect(entry(c, 'noisy')).toMatchObject({
      change: 'unchanged',
      delta: -7,
      band: { value: 8, sigma: 4, widened: true },
    });
    // σ 0.23 → 2σ under the floor: the band stays at 1 and a 2-point drop is a regression
    expect(entry(c, 'steady')).toMatchObject({ change: 'regressed', band: { value: 1, widened: false } });
  });

  it('the tolerance floor is configurable', () => {
    const base = baselineOf([{ key: 'a', runs: [80] }]);
    expect(compare(base, manifest([{ key: 'a', runs: [77] }]), { tolerance: 3 }).regressed).toBe(false);
    expect(compare(base, manifest([{ key: 'a', runs: [76] }]), { tolerance: 3 }).regressed).toBe(true);
  });
  it('the tolerance prints as precisely as the verdict uses it: a drop of 5 fails ±4.98, never "±5.0"', () => {
    const base = baselineOf([{ key: 'a', runs: [95] }]);
    base.results.a!['claude-code']!.sigma = 2.49; // band 4.98
    const c = compare(base, manifest([{ key: 'a', runs: [90] }]));
    expect(entry(c, 'a').change).toBe('regressed');
    expect(entry(c, 'a').regressions[0]!.message).toBe(
      'AXIS Result 90 is 5 below the baseline 95 (tolerance ±4.98)',
    );
    const text = formatComparison(c);
    expect(text).toContain("  ↳ tolerance ±4.98 from the baseline's measured run spread\n");
    expect(text).not.toContain('±5.0');
  });
  it('the heading states the configured floor as the rows use it: 1.25 points, not "1.3"', () => {
    const base = baselineOf([{ key: 'a', runs: [80] }]);
    const c = compare(base, manifest([{ key: 'a', runs: [79] }]), { tolerance: 1.25 });
    const text = formatComparison(c);
    expect(text).toMatch(/^Baseline "main" vs report \S+ · tolerance 1\.25 points, widened/);
    expect(text).toContain('  ↳ tolerance ±1.25 (single-run baseline: no measured spread)\n');
    // A floor finer than hundredths is the band as it is, never rounded wider.
    const fine = formatComparison(compare(base, manifest([{ key: 'a', runs: [80] }]), { tolerance: 0.125 }));
    expect(fine).toMatch(/ · tolerance 0\.125 points, widened/);
    expect(fine).toContain('  ↳ tolerance ±0.125 (single-run');
  });
  it('the band never rounds wider than 2σ: σ 1.496 is no licence for a 3-point drop', () => {
    // 2σ of these seven runs is 2.992; rounding σ to 1.50 made the band 3.00, and a drop of 3 passed.
    const base = baselineOf([{ key: 'a', runs: [80, 80, 80, 80, 80, 81, 84] }]);
    const c = compare(base, manifest([{ key: 'a', runs: [77] }]));
    expect(entry(c, 'a').band!.value).toBeLessThan(3);
    expect(entry(c, 'a').change).toBe('regressed');
    expect(compare(base, manifest([{ key: 'a', runs: [78] }])).regressed).toBe(false);
  });
});

describe('compare: what else is a regression', () => {
  it('a reliability drop is a regression on its own, even when the score holds', () => {
    const base = baselineOf([{ key: 'a', runs: [80, 81, 82] }]);
    const c = compare(base, manifest([{ key: 'a', runs: [80, 'crash', 82] }]));
    expect(entry(c, 'a').change).toBe('regressed');
    expect(entry(c, 'a').regressions).toEqual([
      expect.objectContaining({
        kind: 'reliability',
        value: 0.667,
        limit: 1,
        message: "Reliability 66% is below the baseline's 100%",
      }),
    ]);
  });

  it('a pair that now fails, or is now unscored, is a regression, never skipped', () => {
    const base = baselineOf([
      { key: 'a', runs: [80, 81, 82] },
      { key: 'b', runs: [80] },
    ]);
    const c = compare(
      base,
      manifest([
        { key: 'a', runs: ['crash', 'crash', 'crash'] },
        { key: 'b', runs: ['unscored'] },
      ]),
    );
    expect(entry(c, 'a')).toMatchObject({
      change: 'regressed',
      current: null,
      regressions: [{ kind: 'failed' }],
    });
    expect(entry(c, 'a').regressions[0]!.message).toBe(
      'No run completes any more: 3 of 3 runs did not complete; run 1: Agent exited with code 1',
    );
    expect(entry(c, 'b')).toMatchObject({ change: 'regressed', regressions: [{ kind: 'unscored' }] });
  });

  it('a pair missing from the report is a regression; a new pair is reported as new', () => {
    const base = baselineOf([
      { key: 'a', runs: [80] },
      { key: 'gone', runs: [80] },
    ]);
    const c = compare(
      base,
      manifest([
        { key: 'a', runs: [80] },
        { key: 'fresh', runs: [70] },
      ]),
    );
    expect(entry(c, 'gone')).toMatchObject({ change: 'missing', regressions: [{ kind: 'missing' }] });
    expect(entry(c, 'fresh')).toMatchObject({ change: 'new', current: 70, regressions: [] });
    expect(c.summary).toMatchObject({ unchanged: 1, new: 1, missing: 1, regressed: 0 });
    expect(c.regressed).toBe(true);
  });

  it('matches by scenarioKey + agent: another agent or variant is a different pair', () => {
    const base = baselineOf([
      { key: 'a@plain', runs: [80] },
      { key: 'a@plain', agent: 'codex', runs: [60] },
    ]);
    const c = compare(
      base,
      manifest([
        { key: 'a@plain', agent: 'codex', runs: [60] },
        { key: 'a@mcp', runs: [90] },
      ]),
    );
    expect(c.entries.map((e) => [e.scenarioKey, e.agentName, e.change])).toEqual([
      ['a@plain', 'codex', 'unchanged'],
      ['a@mcp', 'claude-code', 'new'],
      ['a@plain', 'claude-code', 'missing'],
    ]);
  });
});

describe('compare: names that are also Object properties', () => {
  it('a scenario or agent called constructor or toString is a pair like any other', () => {
    const pairs: PairSpec[] = [
      { key: 'constructor', runs: [90] },
      { key: 'hello', agent: 'toString', runs: [90] },
    ];
    const base = baselineOf(pairs);
    expect(Object.keys(base.results).sort()).toEqual(['constructor', 'hello']);
    expect(Object.hasOwn(base.results.hello!, 'toString')).toBe(true);
    const same = compare(base, manifest(pairs));
    expect(same.entries.map((e) => e.change)).toEqual(['unchanged', 'unchanged']);
    // A pair the baseline lacks is new, not compared with Object.prototype.constructor.
    const other = compare(
      baselineOf([{ key: 'hello', runs: [90] }]),
      manifest([{ key: 'hello', agent: 'constructor', runs: [70] }]),
    );
    expect(entry(other, 'hello').change).toBe('new');
    expect(() => formatComparison(other)).not.toThrow();
  });
});

describe('compare: an infinite effect size', () => {
  it('keeps its sign: two constant samples that dropped read d=-∞, not d=∞', () => {
    const base = baselineOf([{ key: 'a', runs: [95, 95, 95] }]);
    const down = formatComparison(compare(base, manifest([{ key: 'a', runs: [90, 90, 90] }])));
    expect(down).toMatch(/ {4}AXIS Result +95\.0 → 90\.0 +d=-∞ +p<0\.001 +● large regression\n/);
    const up = formatComparison(
      compare(baselineOf([{ key: 'a', runs: [80, 80, 80] }]), manifest([{ key: 'a', runs: [90, 90, 90] }])),
    );
    expect(up).toMatch(/ {4}AXIS Result +80\.0 → 90\.0 +d=\+∞ +p<0\.001 +● large improvement\n/);
  });
});

describe('compare: significance beside the band', () => {
  it('every metric gets a direction-aware Welch test when both sides ran more than once', () => {
    const base = baselineOf([
      {
        key: 'cms/create-post',
        runs: [
          { axis: 85, goal: 86, durationMs: 61_000, tokens: 150_000 },
          { axis: 87, goal: 88, durationMs: 62_000, tokens: 149_000 },
          { axis: 89, goal: 90, durationMs: 63_000, tokens: 151_000 },
        ],
      },
    ]);
    const c = compare(
      base,
      manifest([
        {
          key: 'cms/create-post',
          runs: [
            { axis: 72, goal: 68, durationMs: 90_000, tokens: 150_000 },
            { axis: 74, goal: 70, durationMs: 91_000, tokens: 156_000 },
            { axis: 76, goal: 72, durationMs: 92_000, tokens: 148_000 },
          ],
        },
      ]),
    );
    const e = entry(c, 'cms/create-post');
    expect(e).toMatchObject({ baseline: 87, current: 74, delta: -13, change: 'regressed' });
    const m = Object.fromEntries(e.metrics.map((x) => [x.metric, x]));
    expect(m.axisScore!.significance).toMatchObject({ marker: '●', verdict: 'regression', n: [3, 3] });
    expect(m.axisScore!.significance!.d).toBeCloseTo(-6.5, 3); // (74 − 87) / 2
    // Duration went up: lower is better, so a regression
    expect(m.durationMs!.significance).toMatchObject({ verdict: 'regression', label: 'large regression' });
    expect(m.tokens!.significance).toMatchObject({ verdict: null, marker: '○', label: 'not significant' });
    expect(c.summary.significant.tested).toBe(7);
    expect(c.summary.significant.regressions).toBeGreaterThanOrEqual(3);
    const text = formatComparison(c);
    expect(text).toContain('cms/create-post  claude-code        87       74  -13 ▼');
    expect(text).toContain("  ↳ tolerance ±4.0 from the baseline's measured run spread");
    // docs/cli.md's example; p and d as SciPy computes them: p 0.00135 (t −7.961, df 4), tokens d 0.440 p 0.639.
    expect(text).toMatch(/ {4}AXIS Result +87\.0 → 74\.0 +d=-6\.50 +p=0\.001 +● large regression/);
    expect(text).toMatch(/ {4}Duration +62\.0s → 91\.0s +d=\+29\.00 +p<0\.001 +● large regression/);
    expect(text).toMatch(/ {4}Tokens +150,000 → 151,333 +d=\+0\.44 +p=0\.639 +○ not significant/);
    expect(text).toContain('  ✗ AXIS Result 74 is 13 below the baseline 87 (tolerance ±4)');
    expect(text).toContain('Result: regression detected');
  });

  it('the exit code follows the band, never the test', () => {
    // A consistent 1-point drop over 9 runs: significant, yet inside the 1-point band.
    const nine = (shift: number) => [80, 81, 82, 80, 81, 82, 80, 81, 82].map((v) => v + shift);
    const c = compare(baselineOf([{ key: 'a', runs: nine(0) }]), manifest([{ key: 'a', runs: nine(-1) }]));
    const e = entry(c, 'a');
    expect(e.metrics[0]!.significance!.verdict).toBe('regression');
    expect(e.change).toBe('unchanged');
    expect(c.regressed).toBe(false);
    expect(c.summary.significant.regressions).toBeGreaterThan(0);
  });

  it('single runs: no test, but every dimension that moved has its line under the row', () => {
    const c = compare(
      baselineOf([
        { key: 'a', runs: [{ axis: 80, goal: 90 }] },
        { key: 'b', runs: [70] },
      ]),
      manifest([
        { key: 'a', runs: [{ axis: 80, goal: 60 }] },
        { key: 'b', runs: [70] },
      ]),
    );
    const text = formatComparison(c);
    expect(text).toMatch(
      /\na +claude-code +80 +80 +0\n {2}↳ tolerance ±1\.0 \(single-run baseline: no measured spread\)\n/,
    );
    expect(text).toMatch(/\n {4}Goal Achievement +90 → 60 +-30\n/);
    expect(text).toMatch(/\n {4}Environment +73\.3 → 93\.3 +\+20\n/);
    expect(text).not.toMatch(/AXIS Result +80/); // the row has it
    // An unchanged pair gets no metric lines at all.
    expect(text).toMatch(/\nb +claude-code +70 +70 +0\n {2}↳ tolerance ±1\.0 [^\n]*\n\n/);
  });

  it('p and d never print across their thresholds: p 0.04993 is not "p=0.050", d 0.7975 not "d=+0.80"', () => {
    // Reference (SciPy ttest_ind(b, a, equal_var=False)): t 2.540, df 5.214, p 0.049926; d 1.741.
    const p = compare(
      baselineOf([{ key: 'a', runs: [72, 80, 82] }]),
      manifest([{ key: 'a', runs: [99, 90, 84, 82, 89] }]),
    );
    const sp = entry(p, 'a').metrics[0]!.significance!;
    expect(sp.p).toBeCloseTo(0.049926, 5);
    expect(sp.df).toBeCloseTo(5.2136, 3);
    expect(formatComparison(p)).toMatch(
      / {4}AXIS Result +78\.0 → 88\.8 +d=\+1\.74 +p=0\.0499 +● large improvement\n/,
    );

    // Durations 60..78 s against the same + 4.488 s: d = 4488 / 5627.3 = 0.7975 (pooled sd of 0..18 s).
    const runs = (shift: number) =>
      Array.from({ length: 19 }, (_, i) => ({ axis: 80, durationMs: 60_000 + i * 1000 + shift }));
    const d = compare(baselineOf([{ key: 'a', runs: runs(0) }]), manifest([{ key: 'a', runs: runs(4488) }]));
    const sd = entry(d, 'a').metrics.find((m) => m.metric === 'durationMs')!.significance!;
    expect(sd.d).toBeCloseTo(4488 / Math.sqrt((19 * 20) / 12) / 1000, 6);
    expect(sd.p).toBeLessThan(0.05);
    expect(formatComparison(d)).toMatch(
      / {4}Duration +69\.0s → 73\.5s +d=\+0\.797 +p=0\.\d{3} +◐ regression\n/,
    );
  });

  it('single-run pairs get no test', () => {
    const c = compare(baselineOf([{ key: 'a', runs: [80] }]), manifest([{ key: 'a', runs: [80, 81, 82] }]));
    expect(entry(c, 'a').metrics.every((m) => m.significance === undefined)).toBe(true);
    expect(c.summary.significant.tested).toBe(0);
  });
});
