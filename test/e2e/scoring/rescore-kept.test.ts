/**
 * `axis score` on a report where one run's per-run file cannot be read: that run keeps its old score
 * (docs/cli.md), so the pair's spread and reliability in report.json and `axis reports` must still count
 * it, as its `runs[]` entry does, rather than describe a pair of fewer runs.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject, tape, writeJson } from '../compare/helpers.js';

let dir = '';
beforeAll(() => buildDist());
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('axis score with a run it cannot read', () => {
  it('counts the run it kept in the pair spread: 3 runs, its old 95 beside the new 65s', async () => {
    dir = simProject('axis-rescore-kept-', { runs: 3 }, ['a']);
    const run = await axis(['run', '--json'], dir);
    expect(run.code, run.stderr).toBe(0);
    const reportDir = join(dir, '.axis/reports', JSON.parse(run.stdout).reportId as string);
    writeFileSync(join(reportDir, 'scenarios/a/toy.run-2.json'), '{broken');
    writeJson(dir, 'tapes/a.json', tape(3));
    const r = await axis(['score', '--no-cache'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('warning: a · toy run 2: scenarios/a/toy.run-2.json: invalid JSON');
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as {
      results: { runs: { axisScore: number }[]; spread: { sigma: number } }[];
    };
    const entry = report.results[0]!;
    expect(entry.runs.map((x) => x.axisScore)).toEqual([65, 95, 65]);
    expect(entry.spread).toMatchObject({ runs: 3, scored: 3, median: 65, min: 65, max: 95 });
    expect(entry.spread.sigma).toBe(17.3);
    const view = await axis(['reports', 'latest'], dir);
    expect(view.stdout).toContain('3 runs (3 scored): median 65, range 65–95, σ 17.3');
  }, 60_000);
});
