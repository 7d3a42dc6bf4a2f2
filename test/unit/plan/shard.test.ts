import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { planJobs, selectShard } from '../../../src/plan/index.js';
import { jobKeyString, parseShard, splitJobs, weighJobs, type JobKey } from '../../../src/plan/shard.js';
// Imported with the file, not inside a test: its afterAll (removing the projects) must be registered
// while the file is collected (imported inside the test, it never ran and each run left a dir behind).
import { hello, project } from '../config/helpers.js';
import { AxisError } from '../../../src/util/errors.js';

const ROOT = join(import.meta.dirname, '../../..');

/** Scenario keys that sort differently by code unit and by locale (accents, case, digits). */
const SCENARIOS = [
  'Zeta',
  'alpha',
  'Ärger',
  'beta-10',
  'beta-9',
  'école',
  'cms/post',
  'cms/Post',
  'cms/post@b',
];
const AGENTS = ['claude-code', 'codex', 'Gemini', 'claude-code|opus'];
const keys: JobKey[] = SCENARIOS.flatMap((scenarioKey) =>
  AGENTS.flatMap((agentName) => [1, 2, 3].map((run) => ({ scenarioKey, agentName, run }))),
);

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const asObject = (m: Map<string, number>) =>
  Object.fromEntries([...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)));

describe('parseShard', () => {
  test('accepts k/n with 1 ≤ k ≤ n', () => {
    expect(parseShard('1/1')).toEqual({ index: 1, total: 1 });
    expect(parseShard(' 2 / 3 ')).toEqual({ index: 2, total: 3 });
    expect(parseShard('10/10')).toEqual({ index: 10, total: 10 });
  });

  test.each(['0/3', '4/3', '1/0', '1.5/3', '-1/3', '2', '2/3/4', 'a/b', '', '1/1001', '1e1/20'])(
    'refuses %j with exit 2 and says what it expected',
    (value) => {
      let err: unknown;
      try {
        parseShard(value);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AxisError);
      expect((err as AxisError).exitCode).toBe(2);
      expect((err as AxisError).message).toContain('--shard: expected <k>/<n>');
      expect((err as AxisError).message).toContain(JSON.stringify(value));
    },
  );
});

describe('splitJobs', () => {
  test('every job lands in exactly one shard, counts differ by at most one without durations', () => {
    for (const n of [1, 2, 3, 5, 7, 200]) {
      const split = splitJobs(weighJobs(keys), n);
      expect(split.size).toBe(keys.length);
      for (const k of keys) expect(split.get(jobKeyString(k))).toBeGreaterThanOrEqual(1);
      const sizes = Array.from(
        { length: n },
        (_, i) => [...split.values()].filter((s) => s === i + 1).length,
      );
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(keys.length);
    }
  });

  test("a pair's runs are spread over shards when counts are balanced", () => {
    const split = splitJobs(weighJobs(keys), 3);
    const runs = [1, 2, 3].map((run) =>
      split.get(jobKeyString({ scenarioKey: 'alpha', agentName: 'codex', run })),
    );
    expect(new Set(runs).size).toBe(3);
  });

  test('the split does not depend on the order the jobs arrive in', () => {
    const durations = new Map(keys.map((k, i) => [jobKeyString(k), 100 + ((i * 37) % 500)]));
    const reference = asObject(splitJobs(weighJobs(keys, durations), 4));
    for (const seed of [1, 2, 3, 42, 1234]) {
      expect(asObject(splitJobs(weighJobs(shuffled(keys, seed), durations), 4))).toEqual(reference);
    }
    expect(asObject(splitJobs(weighJobs(shuffled(keys, 9)), 4))).toEqual(
      asObject(splitJobs(weighJobs(keys), 4)),
    );
  });

  test('durations balance the load: longest first, each to the lightest shard', () => {
    const k = (scenarioKey: string): JobKey => ({ scenarioKey, agentName: 'a', run: 1 });
    const jobs = [k('a'), k('b'), k('c'), k('d'), k('e')];
    const ms = { a: 9000, b: 1000, c: 1000, d: 1000, e: 8000 } as Record<string, number>;
    const durations = new Map(jobs.map((j) => [jobKeyString(j), ms[j.scenarioKey]!]));
    const split = splitJobs(weighJobs(jobs, durations), 2);
    // a (9000) → 1, e (8000) → 2, b → 2 (9000), c → 1 (10000)... ties go to the lower shard with fewer jobs.
    expect(asObject(split)).toEqual({
      [jobKeyString(k('a'))]: 1,
      [jobKeyString(k('b'))]: 2,
      [jobKeyString(k('c'))]: 1,
      [jobKeyString(k('d'))]: 2,
      [jobKeyString(k('e'))]: 2,
    });
    // By count alone it would deal a, b, c, d, e out as 1, 2, 1, 2, 1.
    expect([...splitJobs(weighJobs(jobs), 2).values()]).toEqual([1, 2, 1, 2, 1]);
  });

  test('a job missing from the durations weighs its pair mean, else the median of all', () => {
    const known = new Map([
      [jobKeyString({ scenarioKey: 's', agentName: 'a', run: 1 }), 100],
      [jobKeyString({ scenarioKey: 's', agentName: 'a', run: 2 }), 301],
      [jobKeyString({ scenarioKey: 't', agentName: 'a', run: 1 }), 50],
    ]);
    const w = weighJobs(
      [
        { scenarioKey: 's', agentName: 'a', run: 3 },
        { scenarioKey: 'u', agentName: 'a', run: 1 },
        { scenarioKey: 't', agentName: 'a', run: 1 },
      ],
      known,
    );
    expect(w.map((x) => x.weight)).toEqual([201, 100, 50]);
  });
});

describe('the split is the same on every machine', () => {
  // dist/ is rebuilt from src/ by test/global-setup.ts before the tests run.
  test('another process with another locale, LANG and time zone computes the same split', () => {
    const durations = keys.map((k, i) => [jobKeyString(k), 100 + ((i * 53) % 700)] as const);
    const script = `
      import { splitJobs, weighJobs } from './dist/plan/shard.js';
      const input = JSON.parse(process.argv[1]);
      const split = splitJobs(weighJobs(input.keys, new Map(input.durations)), 3);
      process.stdout.write(JSON.stringify(Object.fromEntries([...split].sort((a, b) => (a[0] < b[0] ? -1 : 1)))));
    `;
    const input = JSON.stringify({ keys: shuffled(keys, 77).reverse(), durations: shuffled(durations, 5) });
    const here = asObject(splitJobs(weighJobs(keys, new Map(durations)), 3));
    for (const locale of ['tr_TR.UTF-8', 'sv_SE.UTF-8', 'C']) {
      const out = spawnSync(process.execPath, ['--input-type=module', '-e', script, input], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, LANG: locale, LC_ALL: locale, LANGUAGE: locale, TZ: 'Pacific/Chatham' },
      });
      expect(out.stderr).toBe('');
      expect(JSON.parse(out.stdout)).toEqual(here);
    }
  });
});

describe('selectShard', () => {
  test('keeps plan order, re-indexes the shard from 0 and records each job’s place in the whole plan', async () => {
    const dir = project({
      'axis.config.json': { agents: ['claude-code', 'codex'], settings: { runs: 1 } },
      'scenarios/a.json': hello,
      'scenarios/b.json': hello,
    });
    const plan = planJobs(await loadConfig(undefined, { cwd: dir }));
    expect(plan.jobs).toHaveLength(4);
    const picked = [1, 2, 3, 4, 5, 6].map((index) => selectShard(plan, { index, total: 6 }));
    expect(picked.map((s) => s.jobs.map((j) => j.index))).toEqual([[0], [1], [2], [3], [], []]);
    for (const s of picked) {
      expect(s.plan.jobs.map((j) => j.index)).toEqual(s.jobs.map((_, i) => i));
      expect(s.planJobs).toBe(4);
      expect(s.splitHash).toBe(picked[0]!.splitHash);
      expect(s.weighted).toBe(false);
    }
    expect(picked[4]!.plan.scenarios).toEqual([]);
    expect(picked[0]!.plan.agents.map((a) => a.name)).toEqual(['claude-code']);
    // Durations that change who runs what change the split's fingerprint; ones that do not, do not.
    const key = (s: string, a: string) => jobKeyString({ scenarioKey: s, agentName: a, run: 1 });
    const same = selectShard(plan, { index: 1, total: 6 }, new Map([[key('a', 'codex'), 500]]));
    expect(same.weighted).toBe(true);
    expect(same.splitHash).toBe(picked[0]!.splitHash);
    const durations = new Map([
      [key('a', 'claude-code'), 10],
      [key('a', 'codex'), 20],
      [key('b', 'claude-code'), 30],
      [key('b', 'codex'), 40],
    ]);
    const other = selectShard(plan, { index: 1, total: 6 }, durations);
    expect(other.jobs.map((j) => `${j.scenarioKey}/${j.agentName}`)).toEqual(['b/codex']);
    expect(other.splitHash).not.toBe(picked[0]!.splitHash);
  });
});
