/**
 * What `axis baseline set` says about the pairs it did not save from the report: a pair the report ran
 * but could not score is in the report, so it is never listed as "not in this report".
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject, writeJson } from './helpers.js';

let dir = '';
beforeAll(() => {
  buildDist();
  dir = simProject('axis-baseline-set-', {}, ['a', 'b']);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('axis baseline set over a report with an unscored pair', () => {
  it('names the kept (or, with --replace, dropped) pair as not scored in this report', async () => {
    expect((await axis(['run'], dir)).code).toBe(0);
    expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
    // No judge answers: the judge fails, so pair a runs but has no AXIS Result.
    writeJson(dir, 'tapes/a.json', { turns: [{ text: 'unused' }] });
    await axis(['run'], dir);
    const set = await axis(['baseline', 'set'], dir);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/Not included \(no scored AXIS Result\):\n {2}a · toy: unscored: /);
    expect(set.stdout).toContain(
      'Kept from before, not scored in this report (--replace drops them):\n  a · toy\n',
    );
    expect(set.stdout).not.toContain('not in this report');
    const replaced = await axis(['baseline', 'set', '--replace'], dir);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toContain('Dropped, not scored in this report:\n  a · toy');
    expect(replaced.stdout).not.toContain('not in this report');
  }, 120_000);
});

describe('axis baseline set over an incomplete report', () => {
  let stopped = '';
  beforeAll(() => {
    // The second job takes the run past 200 tokens: pair a keeps 1 of its 3 runs, pair b none.
    stopped = simProject(
      'axis-baseline-set-stopped-',
      { runs: 3, concurrency: 1, limits: { run: { tokens: 200 } } },
      ['a', 'b'],
    );
  });
  afterAll(() => rmSync(stopped, { recursive: true, force: true }));

  it('saves what finished and warns on stderr, naming the report and why; --json carries it as a field', async () => {
    expect((await axis(['run'], stopped)).code).toBe(1);
    const id = JSON.parse((await axis(['reports', '--json'], stopped)).stdout)[0].reportId as string;
    const warning =
      `report ${id} is incomplete (Overall token limit reached (200 tokens); 1 of 6 runs completed): ` +
      'its pairs in the baseline hold only the runs that finished';
    const set = await axis(['baseline', 'set'], stopped);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain(`warning: ${warning}\n`);
    expect(set.stdout).toContain('Baseline "main" created: 1 pair');
    const json = await axis(['baseline', 'set', '--json'], stopped);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ fromReportId: id, warning });
    expect(json.stderr).toContain(`warning: ${warning}\n`);
  }, 120_000);
});
