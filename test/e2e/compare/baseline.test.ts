/**
 * The CI verdict end to end: `node bin/axis.js` with the toy `command` agent (test/fixtures/command-agent)
 * under the simulator, which also plays the judge from each tape's `judge` answers. A baseline from 3
 * runs; an unchanged rerun passes; a degraded scenario, a now-crashing pair and a threshold each exit 1.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidReport } from '../../helpers/report-schema.js';
import { axis, buildDist, ROOT, unfoldCrosses } from '../run/helpers.js';
import { AGENT, tape } from './helpers.js';

const T = 240_000;

let dir = '';
const write = (rel: string, content: unknown) => {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
};
const config = (settings: Record<string, unknown> = {}) =>
  write('axis.config.json', {
    scenarios: './scenarios',
    agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
    settings: { simulate: true, runs: 3, ...settings },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
const scenario = (key: string, prompt = 'Write out.txt', extra: Record<string, unknown> = {}) =>
  write(`scenarios/${key}.json`, { name: key, prompt, judge: [{ check: 'out.txt was written' }], ...extra });

beforeAll(() => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-verdict-e2e-')));
  config();
  scenario('hello');
  scenario('docs/search');
  write('tapes/hello.json', tape(9));
  write('tapes/docs/search.json', tape(9));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('baselines and the CI verdict through the CLI', () => {
  it(
    'a baseline from 3 runs; an unchanged rerun with --compare-baseline exits 0',
    async () => {
      const first = await axis(['run'], dir);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.stdout).toContain('  hello · toy: AXIS 95 · 3 runs (3 scored): median 95');

      const set = await axis(['baseline', 'set'], dir);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toMatch(
        /^Baseline "main" created: 2 pairs \(2 scenarios, 1 agent\) from report \S+\n/,
      );
      const file = readFileSync(join(dir, '.axis/baselines/main.json'), 'utf8');
      const b = JSON.parse(file);
      expect(b.results.hello.toy).toMatchObject({ axisScore: 95, runs: 3, reliability: 1, sigma: 0 });
      expect(file).toContain('"axisScore": [95, 95, 95]');

      const again = await axis(['run', '--compare-baseline'], dir);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('tolerance 1 point');
      expect(again.stdout).toMatch(
        /\n {4}AXIS Result +95\.0 → 95\.0 +d=\+0\.00 +p=1\.000 +○ not significant\n/,
      );
      expect(again.stdout).toContain('Result: no regression');

      // --json: exactly one document holding the run, the verdict and the comparison.
      const json = await axis(['run', '--json', '--compare-baseline', 'main'], dir);
      expect(json.code, json.stderr).toBe(0);
      const doc = JSON.parse(json.stdout);
      expect(doc.results).toHaveLength(2);
      expect(doc.verdict).toEqual({
        pass: true,
        thresholds: null,
        baseline: { name: 'main', tolerance: 1 },
        pairs: [
          { scenarioKey: 'docs/search', agent: 'toy', failures: [] },
          { scenarioKey: 'hello', agent: 'toy', failures: [] },
        ],
      });
      expect(doc.comparison).toMatchObject({
        baselineName: 'main',
        regressed: false,
        summary: { unchanged: 2 },
      });
      expect(doc.comparison.entries[0].metrics[0].significance).toMatchObject({ p: 1, marker: '○' });
      expect(doc.comparison.summary.significant.tested).toBeGreaterThan(0);
      expectValidReport(join(dir, doc.reportDir));

      const cmp = await axis(['baseline', 'compare', '--json'], dir);
      expect(cmp.code).toBe(0);
      expect(JSON.parse(cmp.stdout).reportId).toBe(doc.reportId);
    },
    T,
  );

  it(
    'a degraded scenario exits 1 and is named',
    async () => {
      write('tapes/docs/search.json', tape(3));
      try {
        const r = await axis(['run', '--compare-baseline'], dir);
        expect(r.code, r.stdout + r.stderr).toBe(1);
        expect(r.stdout).toMatch(/\ndocs\/search +toy +95 +\d+ +-\d+ ▼\n/);
        expect(r.stdout).toMatch(/✗ AXIS Result \d+ is \d+ below the baseline 95 \(tolerance ±1\)/);
        expect(r.stdout).toMatch(/\nhello +toy +95 +95 +0\n/);
        expect(r.stdout).toContain('Gate: fail');
        expect(r.stdout).toMatch(/ {2}✗ docs\/search · toy: AXIS Result \d+ is \d+ below the baseline 95/);
        expect(r.stdout).toContain('Result: regression detected');
        // The same verdict from the stored report.
        expect((await axis(['baseline', 'compare'], dir)).code).toBe(1);

        // A hand-edited σ without the samples it comes from cannot widen the band to pass the drop.
        const main = join(dir, '.axis/baselines/main.json');
        const saved = readFileSync(main, 'utf8');
        const edited = JSON.parse(saved);
        delete edited.results['docs/search'].toy.samples;
        edited.results['docs/search'].toy.sigma = 40;
        try {
          write('.axis/baselines/main.json', edited);
          const trusted = await axis(['baseline', 'compare'], dir);
          expect(trusted.code, trusted.stdout + trusted.stderr).toBe(2);
          expect(trusted.stderr).toContain(
            'results.docs/search.toy.sigma: 40 has no samples.axisScore of 2 or more runs to bear it out',
          );
        } finally {
          write('.axis/baselines/main.json', saved);
        }
      } finally {
        write('tapes/docs/search.json', tape(9));
      }
    },
    T,
  );

  it(
    'a now-crashing pair is a regression, never skipped',
    async () => {
      scenario('hello', 'CRASH now');
      try {
        const r = await axis(['run', '--compare-baseline'], dir);
        expect(r.code, r.stdout + r.stderr).toBe(1);
        expect(r.stdout).toMatch(/\nhello +toy +95 +– +▼\n/);
        expect(unfoldCrosses(r.stdout)).toMatch(
          /\n {2}✗ hello · toy: No run completed: .*run 1: command agent "toy" exited with code 3/,
        );
        expect(r.stdout).toContain('Gate: fail');
        const doc = JSON.parse((await axis(['baseline', 'compare', '--json'], dir)).stdout);
        expect(doc.entries.find((e: { scenarioKey: string }) => e.scenarioKey === 'hello')).toMatchObject({
          change: 'regressed',
          regressions: [{ kind: 'failed' }],
        });
      } finally {
        scenario('hello');
      }
    },
    T,
  );

  it(
    'thresholds: axis run exits 1 and lists every pair below one, with the metric and the value',
    async () => {
      config({ thresholds: { axis_score: 99.5 } });
      scenario('docs/search', 'Write out.txt', { thresholds: { axis_score: 90, goal_achievement: 95 } });
      try {
        const r = await axis(['run'], dir);
        expect(r.code, r.stdout + r.stderr).toBe(1);
        expect(r.stdout).toContain('Gate: fail');
        // The scenario's own threshold wins over the settings' (90 < 95 passes, its goal 90 < 95 does not).
        expect(r.stdout).toContain('  ✗ docs/search · toy: Goal Achievement 90 is below the threshold 95\n');
        expect(r.stdout).not.toContain('docs/search · toy: AXIS Result');
        expect(r.stdout).toContain('  ✗ hello · toy: AXIS Result 95 is below the threshold 99.5\n');
        const json = JSON.parse((await axis(['run', '--json', '-s', 'hello'], dir)).stdout);
        expect(json.verdict.pairs[0].failures).toEqual([
          {
            kind: 'threshold',
            metric: 'axis_score',
            value: 95,
            limit: 99.5,
            message: 'AXIS Result 95 is below the threshold 99.5',
          },
        ]);
      } finally {
        config();
        scenario('docs/search');
      }
    },
    T,
  );

  it(
    'baseline list, show, delete; bad input exits 2 with a clear message',
    async () => {
      const list = await axis(['baseline', 'list'], dir);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^Name +Updated +Scenarios +Agents +Pairs\nmain +\S+ \S+ UTC +2 +1 +2\n$/);
      const show = await axis(['baseline', 'show', 'main'], dir);
      expect(show.stdout).toMatch(/\nhello +toy +95 +90 +100 +n\/a +100 +\S+ +3 +0\.0 +100% +\S+\n/);

      const missing = await axis(['baseline', 'compare', 'v9'], dir);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe('Baseline "v9" not found in .axis/baselines. Baselines: main\n');
      const bad = await axis(['baseline', 'set', '../escape'], dir);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^Invalid baseline name "\.\.\/escape": expected 1-64 letters/);
      const noReport = await axis(['baseline', 'set', '--from', '2020-01-01-000000'], dir);
      expect(noReport.code).toBe(2);
      expect(noReport.stderr).toContain('Report "2020-01-01-000000" not found');
      const runMissing = await axis(['run', '--compare-baseline', 'nope'], dir);
      expect(runMissing.code).toBe(2);
      expect(runMissing.stderr).toContain('Baseline "nope" not found');

      const del = await axis(['baseline', 'delete'], dir);
      expect(del.code).toBe(0);
      expect(existsSync(join(dir, '.axis/baselines/main.json'))).toBe(false);
      expect((await axis(['baseline', 'delete'], dir)).code).toBe(2);
      // A file that cannot be removed is a failed write (exit 1, as for set), not bad input.
      mkdirSync(join(dir, '.axis/baselines/main.json'));
      const stuck = await axis(['baseline', 'delete'], dir);
      expect(stuck.code, stuck.stderr).toBe(1);
      expect(stuck.stderr).toBe('Cannot delete .axis/baselines/main.json: a directory is in the way.\n');
    },
    T,
  );

  it(
    'a pair no longer run: set keeps it and says so, --replace drops it; a corrupt baseline: list exits 2, --replace and delete still work',
    async () => {
      expect((await axis(['run', '--runs', '1'], dir)).code).toBe(0);
      const first = await axis(['baseline', 'set', 'v2'], dir);
      expect(first.stdout).toContain('Baseline "v2" created: 2 pairs');
      expect((await axis(['run', '--runs', '1', '-s', 'hello'], dir)).code).toBe(0);

      const kept = await axis(['baseline', 'set', 'v2'], dir);
      expect(kept.code, kept.stderr).toBe(0);
      expect(kept.stdout).toContain(
        'Kept from before, not in this report (--replace drops them):\n  docs/search · toy\n',
      );
      const stale = await axis(['baseline', 'compare', 'v2'], dir);
      expect(stale.code).toBe(1); // the kept pair is missing from the report: a regression

      const replaced = await axis(['baseline', 'set', 'v2', '--replace', '--json'], dir);
      expect(replaced.code, replaced.stderr).toBe(0);
      const doc = JSON.parse(replaced.stdout) as { merged: unknown[]; kept: unknown[]; dropped: unknown[] };
      expect(doc.merged).toEqual([{ scenarioKey: 'hello', agentName: 'toy' }]);
      expect(doc.dropped).toEqual([{ scenarioKey: 'docs/search', agentName: 'toy' }]);
      expect(doc.kept).toEqual([]);
      const fresh = await axis(['baseline', 'compare', 'v2'], dir);
      expect(fresh.code, fresh.stdout).toBe(0);
      expect(fresh.stdout).not.toContain('docs/search');

      write('.axis/baselines/v2.json', '{bad');
      const list = await axis(['baseline', 'list'], dir);
      expect(list.code).toBe(2);
      expect(list.stdout).toMatch(/\nv2 +unreadable: .*not valid JSON/);
      expect((await axis(['baseline', 'set', 'v2'], dir)).code).toBe(2); // merging needs the old file
      const over = await axis(['baseline', 'set', 'v2', '--replace'], dir);
      expect(over.code, over.stderr).toBe(0);
      expect(
        JSON.parse(readFileSync(join(dir, '.axis/baselines/v2.json'), 'utf8')).results.hello,
      ).toBeDefined();
      write('.axis/baselines/v2.json', '{bad');
      const del = await axis(['baseline', 'delete', 'v2'], dir);
      expect(del.code, del.stderr).toBe(0);
      expect(existsSync(join(dir, '.axis/baselines/v2.json'))).toBe(false);
    },
    T,
  );
});

describe('baselines in a project without reports', () => {
  it(
    'set and compare find no report to read: bad input, exit 2 (1 would read as a regression in CI)',
    async () => {
      const empty = realpathSync(mkdtempSync(join(tmpdir(), 'axis-verdict-e2e-')));
      try {
        mkdirSync(join(empty, '.axis/baselines'), { recursive: true });
        writeFileSync(join(empty, 'axis.config.json'), '{}');
        const at = '2026-01-01T00:00:00.000Z';
        const file = { version: 1, name: 'main', createdAt: at, updatedAt: at, results: {} };
        writeFileSync(join(empty, '.axis/baselines/main.json'), JSON.stringify(file));
        for (const args of [
          ['baseline', 'compare'],
          ['baseline', 'set', 'v2'],
          ['baseline', 'compare', '--json'],
        ]) {
          const r = await axis(args, empty);
          expect(r.code, args.join(' ')).toBe(2);
          expect(r.stderr).toContain('No reports found in .axis/reports/. Run `axis run` to generate one.');
        }
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    },
    T,
  );
});

describe('programmatic parity', () => {
  it(
    'run() scores exactly like axis run; run({ config: "path" }) is a clear error',
    async () => {
      const { run } = (await import(join(ROOT, 'dist/index.js'))) as typeof import('../../../src/index.js');
      const out = await run({ configPath: dir, cwd: dir, scenarios: 'hello' });
      expect(out.exitCode).toBe(0);
      expect(out.manifest.results[0]!.score).toMatchObject({ status: 'scored', axisScore: 95 });
      expect(out.manifest.summary.averageAxisScore).toBe(95);
      expect(out.verdict.pass).toBe(true);
      await expect(run({ config: dir as never })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('pass a path as run({ configPath })'),
      });
    },
    T,
  );
});
