/**
 * The CI gate on a merged report: `axis reports merge --compare-baseline` against a baseline saved from an
 * unsharded run, and the config's thresholds, which apply only when the config is the one the shards ran.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from './helpers.js';
import { newProject } from './shard-fixture.js';

const T = 240_000;
const SHARDS = 2;

interface Edit {
  /** Every `count` answer misses its check: the agent got worse at one scenario. */
  degrade?: boolean;
  /** `thresholds` of the greet scenario. */
  greetThresholds?: object;
}

function project(edit: Edit = {}): string {
  const dir = newProject();
  if (edit.degrade) {
    const agent = join(dir, 'agent.mjs');
    writeFileSync(agent, readFileSync(agent, 'utf8').replace(": 'count: 42'", ": 'count: unsure'"));
  }
  if (edit.greetThresholds) {
    const file = join(dir, 'scenarios/greet.json');
    writeFileSync(file, JSON.stringify({ ...readJson(file), thresholds: edit.greetThresholds }));
  }
  return dir;
}

/** Runs the suite as SHARDS shards, each in its own copy of the project; returns the blob directories. */
async function shardBlobs(edit: Edit = {}): Promise<string[]> {
  const dirs = Array.from({ length: SHARDS }, () => project(edit));
  const runs = await Promise.all(
    dirs.map((dir, i) =>
      axis(['run', '--no-cache', '--runs', '1', '--shard', `${i + 1}/${SHARDS}`, '-o', 'out'], dir),
    ),
  );
  for (const [i, r] of runs.entries()) expect(r.stdout, r.stderr).toContain(`Shard ${i + 1}/${SHARDS} (`);
  return dirs.map((d) => join(d, 'out'));
}

type Doc = {
  verdict: {
    pass: boolean;
    thresholds?: { source: string; metrics: string[] } | null;
    pairs: { scenarioKey: string; agent: string; failures: { kind: string }[] }[];
  };
  comparison?: { entries: unknown[] };
};
const failing = (doc: Doc) =>
  doc.verdict.pairs
    .filter((p) => p.failures.length > 0)
    .map((p) => `${p.scenarioKey}/${p.agent}:${p.failures.map((f) => f.kind).join(',')}`)
    .sort();
const reportsIn = (dir: string) =>
  existsSync(join(dir, '.axis/reports')) ? readdirSync(join(dir, '.axis/reports')) : [];

/** The project with the baseline `main`, saved from one unsharded run. */
let home: string;
let same: string[];
let degraded: string[];
let strict: string[];

beforeAll(async () => {
  buildDist();
  home = project();
  const r = await axis(['run', '--no-cache', '--runs', '1'], home);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const saved = await axis(['baseline', 'set'], home);
  expect(saved.code, saved.stderr).toBe(0);
  [same, degraded, strict] = await Promise.all([
    shardBlobs(),
    shardBlobs({ degrade: true }),
    shardBlobs({ greetThresholds: { goal_achievement: 100 } }),
  ]);
}, T);

afterAll(removeTempDirs);

describe('axis reports merge --compare-baseline', () => {
  it('an unchanged suite passes against the baseline of an unsharded run (exit 0)', async () => {
    const r = await axis(['reports', 'merge', ...same, '--compare-baseline'], home);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const j = await axis(['reports', 'merge', '--json', '--compare-baseline', 'main', ...same], home);
    expect(j.code, j.stderr).toBe(0);
    const doc = JSON.parse(j.stdout) as Doc;
    expect(doc.verdict.pass).toBe(true);
    expect(doc.comparison?.entries).toHaveLength(6);
  });

  it('a degraded scenario fails the merge (exit 1) and is named', async () => {
    const r = await axis(['reports', 'merge', ...degraded, '--compare-baseline'], home);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/count[^\n]*below the baseline|below the baseline[^\n]*count/);
    const j = await axis(['reports', 'merge', '--json', '--compare-baseline', 'main', ...degraded], home);
    expect(j.code, j.stderr).toBe(1);
    const doc = JSON.parse(j.stdout) as Doc & { reportDir: string };
    expect(failing(doc)).toEqual(['count/alpha:regression', 'count/beta:regression']);
    // The merged report.json holds the same verdict, with the baseline it was compared with.
    const file = readJson<{ verdict: Doc['verdict'] }>(join(home, doc.reportDir, 'report.json'));
    expect(file.verdict).toEqual(doc.verdict);
    expect(file.verdict).toMatchObject({ pass: false, baseline: { name: 'main', tolerance: 1 } });
  });

  it('--allow-partial: the missing shard is the reason, its pairs are not blamed as gone', async () => {
    const r = await axis(
      ['reports', 'merge', same[0]!, '--json', '--allow-partial', '--compare-baseline'],
      home,
    );
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc & { verdict: { incomplete?: string } };
    expect(doc.verdict.incomplete).toContain('shard 2/2 missing');
    expect(failing(doc)).toEqual([]);
    expect(r.stderr).not.toMatch(/✗ \S+ · \S+: In the baseline but missing/);
  });

  it('a missing baseline is an error (exit 2) and writes no report', async () => {
    const before = reportsIn(home);
    const r = await axis(['reports', 'merge', '--compare-baseline', 'nightly', ...same], home);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('nightly');
    expect(r.stderr).not.toContain('Internal error');
    expect(reportsIn(home)).toEqual(before);
  });
});

describe('thresholds on a merged report', () => {
  it("the config's thresholds gate the merge (exit 1, the pair and the threshold named)", async () => {
    const dir = project({ greetThresholds: { goal_achievement: 100 } });
    const r = await axis(['reports', 'merge', '--json', ...strict], dir);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    expect(failing(doc)).toEqual(['greet/alpha:threshold', 'greet/beta:threshold']);
    expect(doc.verdict.thresholds).toEqual({ source: 'axis.config.json', metrics: ['goal_achievement'] });
    const text = await axis(['reports', 'merge', ...strict], dir);
    expect(text.code).toBe(1);
    expect(text.stdout + text.stderr).toMatch(/greet[\s\S]*below the threshold/i);
    expect(text.stdout).toContain(
      'Gate: fail · thresholds goal_achievement (axis.config.json) · no baseline\n',
    );
  });

  it('a config other than the one the shards ran is refused (exit 2), never gated on', async () => {
    const before = reportsIn(home);
    const r = await axis(['reports', 'merge', ...strict], home);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('config hash');
    expect(r.stderr).toContain('axis.config.json');
    expect(r.stderr).not.toContain('Internal error');
    expect(reportsIn(home)).toEqual(before);
  });

  it('--allow-partial in the checkout: the config still checks out, the incomplete merge exits 1', async () => {
    const dir = project({ greetThresholds: { goal_achievement: 100 } });
    const r = await axis(['reports', 'merge', '--json', '--allow-partial', strict[0]!], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toContain('not applied');
    expect((JSON.parse(r.stdout) as { incomplete?: boolean }).incomplete).toBe(true);
    // Another config cannot be checked with a shard missing: its thresholds are left out, and said so.
    const other = await axis(['reports', 'merge', '--allow-partial', strict[0]!], home);
    expect(other.code, other.stderr).toBe(1);
    expect(other.stderr).toContain('not applied');
    // … and the verdict, not only stderr, says none was applied.
    // The Gate line is folded to 80 columns (gate-lines.test.ts): read as one line again.
    expect(other.stdout.replace(/\n {6}/g, ' ')).toMatch(
      /^Gate: fail \(the run is incomplete: .*\) · no thresholds · no baseline/m,
    );
  });

  it('--allow-partial with an unchecked config says the baseline tolerance is left out too', async () => {
    const dir = project();
    const config = join(dir, 'axis.config.json');
    const json = readJson(config) as { settings?: object };
    const settings = { ...json.settings, thresholds: { baseline_tolerance: 5 } };
    writeFileSync(config, JSON.stringify({ ...json, settings }));
    mkdirSync(join(dir, '.axis/baselines'), { recursive: true });
    copyFileSync(join(home, '.axis/baselines/main.json'), join(dir, '.axis/baselines/main.json'));
    const r = await axis(['reports', 'merge', strict[0]!, '--allow-partial', '--compare-baseline'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('not applied');
    expect(r.stderr).toContain(
      'So the baseline is compared with the default tolerance (1 point), not its baseline_tolerance (5).',
    );
  });

  it('without a config only failed pairs gate, and the merge says so', async () => {
    const r = await axis(['reports', 'merge', ...strict], makeProject({}));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('gated on failed pairs only');
    // The stored verdict says so too: a pass that checked nothing but completion.
    expect(r.stdout).toContain(
      'Gate: pass · no thresholds · no baseline (checked only that pairs completed)\n',
    );
  });
});
