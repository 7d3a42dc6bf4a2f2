import { describe, expect, it } from 'vitest';
import {
  mergeBaseline,
  parseBaseline,
  serializeBaseline,
  validateBaselineName,
} from '../../../src/compare/baseline.js';
import { manifest } from './helpers.js';

const NOW = new Date('2026-02-01T10:00:00.000Z');
const LATER = new Date('2026-02-02T10:00:00.000Z');

describe('baseline model', () => {
  it('records headline, reliability, σ and per-run samples of repeated pairs', () => {
    const m = manifest([
      { key: 'cms/post', runs: [85, 87, 90] },
      { key: 'hello', runs: [70, 'crash', 72] },
    ]);
    const { baseline, merged, skipped } = mergeBaseline(undefined, m, 'main', NOW);
    expect(merged).toHaveLength(2);
    expect(skipped).toEqual([]);
    expect(baseline).toMatchObject({
      version: 1,
      name: 'main',
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
    });
    const post = baseline.results['cms/post']!['claude-code']!;
    expect(post).toMatchObject({
      axisScore: 87,
      reliability: 1,
      runs: 3,
      sigma: 2.52,
      fromReportId: m.reportId,
    });
    expect(post.samples!.axisScore).toEqual([85, 87, 90]);
    expect(post.samples!.durationMs).toEqual([61_000, 62_000, 63_000]);
    expect(post.samples!.tokens).toEqual([150_100, 150_200, 150_300]);
    expect(post.samples!.goalAchievement).toEqual([85, 87, 90]);
    // 70 / crash / 72: the tie goes to 70; the crash counts against reliability
    expect(baseline.results.hello!['claude-code']).toMatchObject({
      axisScore: 70,
      reliability: 0.667,
      runs: 3,
    });
    expect(baseline.results.hello!['claude-code']!.samples!.axisScore).toEqual([70, 72]);
  });

  it('single runs have no samples and no σ (the band stays at its floor)', () => {
    const { baseline } = mergeBaseline(undefined, manifest([{ key: 'a', runs: [80] }]), 'main', NOW);
    const a = baseline.results.a!['claude-code']!;
    expect(a.sigma).toBeUndefined();
    expect(a.samples).toBeUndefined();
  });

  it('accumulates across partial runs and skips pairs without a scored headline, saying why', () => {
    const first = mergeBaseline(
      undefined,
      manifest([
        { key: 'a', runs: [80] },
        { key: 'b', runs: [60] },
      ]),
      'main',
      NOW,
    );
    const second = mergeBaseline(
      first.baseline,
      manifest([
        { key: 'b', runs: [65] },
        { key: 'c', runs: ['crash'] },
        { key: 'd', runs: ['unscored'] },
      ]),
      'main',
      LATER,
    );
    expect(Object.keys(second.baseline.results).sort()).toEqual(['a', 'b']);
    expect(second.baseline.results.a!['claude-code']!.axisScore).toBe(80);
    expect(second.baseline.results.b!['claude-code']!.axisScore).toBe(65);
    expect(second.baseline.createdAt).toBe(NOW.toISOString());
    expect(second.baseline.updatedAt).toBe(LATER.toISOString());
    expect(second.skipped).toEqual([
      { scenarioKey: 'c', agentName: 'claude-code', reason: 'failed: Agent exited with code 1' },
      { scenarioKey: 'd', agentName: 'claude-code', reason: 'unscored: goal judge failed: HTTP 500' },
    ]);
    expect(second.kept).toEqual([{ scenarioKey: 'a', agentName: 'claude-code' }]);
    expect(second.dropped).toEqual([]);
  });

  it("replace: the baseline becomes exactly the report's scored pairs, naming the ones it drops", () => {
    const first = mergeBaseline(
      undefined,
      manifest([
        { key: 'a', runs: [80] },
        { key: 'b', runs: [60] },
        { key: 'c', runs: [70] },
      ]),
      'main',
      NOW,
    );
    const second = mergeBaseline(
      first.baseline,
      manifest([
        { key: 'b', runs: [65] },
        { key: 'c', runs: ['crash'] },
      ]),
      'main',
      LATER,
      { replace: true },
    );
    expect(Object.keys(second.baseline.results)).toEqual(['b']);
    expect(second.baseline.results.b!['claude-code']!.axisScore).toBe(65);
    expect(second.baseline.createdAt).toBe(NOW.toISOString());
    expect(second.merged).toEqual([{ scenarioKey: 'b', agentName: 'claude-code' }]);
    // c was in the report but not scored: it leaves the baseline too, and says so in both lists.
    expect(second.dropped).toEqual([
      { scenarioKey: 'a', agentName: 'claude-code' },
      { scenarioKey: 'c', agentName: 'claude-code' },
    ]);
    expect(second.skipped.map((s) => s.scenarioKey)).toEqual(['c']);
    expect(second.kept).toEqual([]);
    expect(first.baseline.results.a).toBeDefined(); // the old baseline object is untouched
  });

  it('variants are distinct keys', () => {
    const { baseline } = mergeBaseline(
      undefined,
      manifest([
        { key: 'cms/post@plain', runs: [70] },
        { key: 'cms/post@with-mcp', runs: [90] },
      ]),
      'main',
      NOW,
    );
    expect(Object.keys(baseline.results)).toEqual(['cms/post@plain', 'cms/post@with-mcp']);
  });

  it('serializes with a stable key order, sorted pairs, samples on one line, and a final newline', () => {
    const m = manifest([
      { key: 'z', agent: 'b', runs: [85, 87, 90] },
      { key: 'a', agent: 'y', runs: [80] },
      { key: 'a', agent: 'x', runs: [81] },
    ]);
    const { baseline } = mergeBaseline(undefined, m, 'main', NOW);
    const text = serializeBaseline(baseline);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"z"'));
    expect(text.indexOf('"x"')).toBeLessThan(text.indexOf('"y"'));
    expect(text).toContain('"axisScore": [85, 87, 90]');
    const keys = Object.keys(JSON.parse(text).results.z.b);
    expect(keys).toEqual([
      'axisScore',
      'goalAchievement',
      'environment',
      'service',
      'agent',
      'durationMs',
      'tokens',
      'reliability',
      'runs',
      'sigma',
      'samples',
      'fromReportId',
      'timestamp',
    ]);
    // Round trip, and the same input always gives the same bytes.
    expect(parseBaseline(text, 'main.json')).toEqual(baseline);
    expect(serializeBaseline(parseBaseline(text, 'main.json'))).toBe(text);
  });

  it('reads an upstream (netlify/axis) baseline: no reliability, runs or samples', () => {
    const upstream = {
      name: 'default',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      results: {
        hello: {
          'claude-code': {
            axisScore: 88,
            goalAchievement: 90,
            environment: 85,
            service: 80,
            agent: 92,
            durationMs: 12000,
            tokens: 4000,
            fromReportId: '2026-01-01-000000',
            timestamp: '2026-01-01T00:00:00.000Z',
          },
        },
      },
    };
    const b = parseBaseline(JSON.stringify(upstream), 'default.json');
    expect(b.results.hello!['claude-code']).toMatchObject({ axisScore: 88, reliability: 1, runs: 1 });
  });

  it('a broken file names the file and the field', () => {
    expect(() => parseBaseline('{', 'x.json')).toThrow(/^x\.json: not valid JSON/);
    expect(() =>
      parseBaseline(
        JSON.stringify({
          name: 'x',
          createdAt: '',
          updatedAt: '',
          results: { a: { b: { axisScore: 'high' } } },
        }),
        'x.json',
      ),
    ).toThrow(/x\.json: not an AXIS baseline:\n {2}results\.a\.b\.axisScore: /);
  });

  it('a baseline of a newer format is refused, not read as this one', () => {
    const doc = { version: 2, name: 'x', createdAt: '', updatedAt: '', results: {} };
    expect(() => parseBaseline(JSON.stringify(doc), 'x.json')).toThrow(
      'x.json: not an AXIS baseline:\n  version: format 2 is newer than this AXIS reads (1); upgrade AXIS, or set the baseline again with this one',
    );
  });

  it("samples are held to their metric's range and σ to their spread (a hand edit cannot widen the band)", () => {
    const pair = (extra: Record<string, unknown>) =>
      JSON.stringify({
        name: 'x',
        createdAt: '',
        updatedAt: '',
        results: {
          hello: {
            toy: {
              axisScore: 95,
              goalAchievement: 90,
              environment: null,
              service: null,
              agent: null,
              durationMs: 100,
              tokens: 10,
              runs: 3,
              fromReportId: 'r',
              timestamp: 't',
              ...extra,
            },
          },
        },
      });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ samples: { axisScore: [1e308, -1e308, 95] } }, /results\.hello\.toy\.samples\.axisScore\.0: /],
      [{ samples: { goalAchievement: [500, 90, 90] } }, /samples\.goalAchievement\.0: /],
      [{ samples: { tokens: [-5, 7, 9] } }, /samples\.tokens\.0: /],
      [{ samples: { durationMs: [1e300, 1, 2] } }, /samples\.durationMs\.0: /],
      // A scored pair always has a reliability; null switched the reliability check off.
      [{ reliability: null }, /results\.hello\.toy\.reliability: /],
      [
        { sigma: 40, samples: { axisScore: [93, 95, 97] } },
        /results\.hello\.toy\.sigma: 40 does not match the spread of samples\.axisScore \(σ 2\)/,
      ],
      // set writes σ only beside the samples it comes from: alone it would widen the band on trust.
      [
        { sigma: 40 },
        /results\.hello\.toy\.sigma: 40 has no samples\.axisScore of 2 or more runs to bear it out/,
      ],
      [
        { sigma: 40, samples: { axisScore: [95], tokens: [10, 12] } },
        /results\.hello\.toy\.sigma: 40 has no samples\.axisScore of 2 or more runs/,
      ],
    ];
    for (const [extra, message] of bad) expect(() => parseBaseline(pair(extra), 'x.json')).toThrow(message);
    const ok = parseBaseline(pair({ sigma: 2, samples: { axisScore: [93, 95, 97] } }), 'x.json');
    expect(ok.results.hello!.toy!.sigma).toBe(2);
  });

  it('names: letters, digits, . _ -; never a path', () => {
    for (const ok of ['main', 'v1.0', 'release_2-rc']) expect(validateBaselineName(ok)).toBe(ok);
    for (const bad of ['', '../x', '.hidden', 'a/b', 'a..b', 'x'.repeat(65), 'sp ace'])
      expect(() => validateBaselineName(bad)).toThrow(/Invalid baseline name/);
  });
});
