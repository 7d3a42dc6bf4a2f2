/**
 * A run whose judging failed for every pair (a wrong judge key, the judge unreachable) measured nothing:
 * the gate must not read `pass` on any surface, while a run with some pair scored, or run with
 * `--no-score`, still passes.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject, tape, writeJson } from './helpers.js';

const judgeDown = {
  turns: [{ text: 'unused: the toy agent has no model' }],
  judge: [{ match: 'AXIS judge', fault: { status: 500 } }],
};

let dir = '';
beforeAll(() => buildDist());
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the gate of a run where no pair could be scored', () => {
  it('fails on every surface, naming the judge failure, with no pair blamed', async () => {
    dir = simProject('axis-unscored-gate-', {}, ['a', 'b']);
    for (const key of ['a', 'b']) writeJson(dir, `tapes/${key}.json`, judgeDown);
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const r = await axis(['run', '--json'], dir, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toContain('Gate: pass');
    expect(r.stderr).toMatch(/Gate: fail \(no pair was scored: .*judge/);
    expect(r.stderr).toMatch(/CI gate: fail: no pair was scored: /);
    const doc = JSON.parse(r.stdout);
    expect(doc.verdict.pass).toBe(false);
    expect(doc.verdict.unscored).toMatch(/judge/);
    expect(doc.verdict.pairs.filter((p: { failures: unknown[] }) => p.failures.length > 0)).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toContain('gate **fail** (no pair was scored)');
  }, 60_000);

  it('passes when one pair was scored, the other unscored (a warning, as before)', async () => {
    dir = simProject('axis-unscored-gate-', {}, ['a', 'b']);
    writeJson(dir, 'tapes/b.json', judgeDown);
    writeJson(dir, 'tapes/a.json', tape(9));
    const r = await axis(['run'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('Gate: pass');
  }, 60_000);

  it('passes a --no-score run: nothing was asked to be scored', async () => {
    dir = simProject('axis-unscored-gate-', {}, ['a']);
    writeJson(dir, 'tapes/a.json', judgeDown);
    const r = await axis(['run', '--no-score'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('Gate: pass');
  }, 60_000);
});

describe('axis score where no run could be scored', () => {
  it('exits 1 naming the judge failure, as the run gate would; a judged rescore exits 0', async () => {
    dir = simProject('axis-unscored-score-', {}, ['a', 'b']);
    expect((await axis(['run', '--no-score'], dir)).code).toBe(0);
    for (const key of ['a', 'b']) writeJson(dir, `tapes/${key}.json`, judgeDown);
    const r = await axis(['score'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: no run was scored: goal judge failed: .*HTTP 500/);
    const json = await axis(['score', '--json'], dir);
    expect(json.code, json.stderr).toBe(1);
    expect(JSON.parse(json.stdout).summary.scores.scored).toBe(0);
    writeJson(dir, 'tapes/a.json', tape(9));
    const one = await axis(['score'], dir);
    expect(one.code, one.stdout + one.stderr).toBe(0);
    expect(one.stdout).toContain('(1 scored, 1 unscored, 0 failed)');
    expect(one.stderr).not.toContain('no run was scored');
  }, 60_000);
});
