/**
 * The gate's verdict in report.json: a CI step reading `.axis/reports/<id>/report.json` (or `axis reports
 * <id> --json`) learns what `axis run` printed and exited with: pass or fail, each missed threshold and
 * regression with its figures, and the baseline compared against (or null). Old reports without it load.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectValidReport } from '../../helpers/report-schema.js';
import { axis, buildDist } from '../run/helpers.js';
import { simProject, tape, writeJson } from './helpers.js';

let dir = '';
beforeAll(() => buildDist());
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Failure {
  kind: string;
  metric?: string;
  value?: number;
  limit?: number;
  message: string;
}
interface Verdict {
  pass: boolean;
  baseline: { name: string; tolerance: number } | null;
  pairs: { scenarioKey: string; agent: string; failures: Failure[] }[];
}

const stored = (reportDir: string) =>
  JSON.parse(readFileSync(join(dir, reportDir, 'report.json'), 'utf8')) as { verdict?: Verdict };

describe('report.json holds the verdict axis run exited with', () => {
  it('a missed threshold: fail, the metric with value and limit, no baseline; axis reports shows it', async () => {
    dir = simProject('axis-stored-verdict-', { thresholds: { axis_score: 99 } }, ['a']);
    writeJson(dir, 'tapes/a.json', tape(5));
    const r = await axis(['run', '--json'], dir);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { reportId: string; reportDir: string; verdict: Verdict };
    const file = stored(doc.reportDir);
    expect(file.verdict).toEqual(doc.verdict);
    expect(file.verdict!.pass).toBe(false);
    expect(file.verdict!.baseline).toBeNull();
    const [failure] = file.verdict!.pairs.find((p) => p.scenarioKey === 'a')!.failures;
    expect(failure).toMatchObject({ kind: 'threshold', metric: 'axis_score', limit: 99 });
    expect(failure!.value).toBeLessThan(99);
    expectValidReport(join(dir, doc.reportDir));

    const shown = await axis(['reports', doc.reportId], dir);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Gate: fail');
    expect(shown.stdout).toContain(`✗ a · toy: ${failure!.message}`);
    const json = await axis(['reports', doc.reportId, '--json'], dir);
    expect((JSON.parse(json.stdout) as { verdict: Verdict }).verdict).toEqual(doc.verdict);
  }, 60_000);

  it('a passing run against a baseline: pass, and the baseline name and tolerance', async () => {
    dir = simProject('axis-stored-verdict-', { thresholds: { baseline_tolerance: 2 } }, ['a']);
    expect((await axis(['run'], dir)).code).toBe(0);
    expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
    const r = await axis(['run', '--json', '--compare-baseline'], dir);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { reportId: string; reportDir: string; verdict: Verdict };
    expect(stored(doc.reportDir).verdict).toEqual(doc.verdict);
    // baseline_tolerance is no minimum: no threshold was applied, and the verdict says so.
    expect(doc.verdict).toMatchObject({
      pass: true,
      thresholds: null,
      baseline: { name: 'main', tolerance: 2 },
    });
    const shown = await axis(['reports', doc.reportId], dir);
    expect(shown.stdout).toContain('Gate: pass · no thresholds · baseline main (tolerance floor 2)\n');
  }, 60_000);

  it('a regression against the baseline: fail, with the score and the limit it fell below', async () => {
    dir = simProject('axis-stored-verdict-', {}, ['a']);
    expect((await axis(['run'], dir)).code).toBe(0);
    expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
    writeJson(dir, 'tapes/a.json', tape(1));
    const r = await axis(['run', '--json', '--compare-baseline', 'main'], dir);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { reportDir: string; verdict: Verdict };
    const v = stored(doc.reportDir).verdict!;
    expect(v).toEqual(doc.verdict);
    expect(v.baseline).toEqual({ name: 'main', tolerance: 1 });
    const [failure] = v.pairs[0]!.failures;
    expect(failure).toMatchObject({ kind: 'regression', metric: 'axis_score' });
    expect(failure!.value).toBeLessThan(failure!.limit!);
  }, 60_000);

  it('a report.json written before the verdict was stored still loads, without a gate line', async () => {
    dir = simProject('axis-stored-verdict-', {}, ['a']);
    const r = await axis(['run', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { reportId: string; reportDir: string };
    const path = join(dir, doc.reportDir, 'report.json');
    const { verdict, ...old } = JSON.parse(readFileSync(path, 'utf8')) as { verdict?: Verdict };
    expect(verdict?.pass).toBe(true);
    writeFileSync(path, JSON.stringify(old));
    const shown = await axis(['reports', doc.reportId], dir);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toContain('Gate:');
    expect((await axis(['reports'], dir)).code).toBe(0);
  }, 60_000);

  it('a damaged verdict is an error naming the file and field, not a crash', async () => {
    dir = simProject('axis-stored-verdict-', {}, ['a']);
    const doc = JSON.parse((await axis(['run', '--json'], dir)).stdout) as {
      reportId: string;
      reportDir: string;
    };
    const path = join(dir, doc.reportDir, 'report.json');
    writeFileSync(
      path,
      JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), verdict: { pass: 'yes', pairs: [] } }),
    );
    const shown = await axis(['reports', doc.reportId], dir);
    expect(shown.stderr).toContain('report.json: verdict.pass: expected true or false, found "yes"');
    expect(shown.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('axis score rewrites the verdict with the scores it was judged on', () => {
  it('a rescore that drops a pair below a threshold stores (and shows) the failing gate', async () => {
    dir = simProject('axis-stored-verdict-', { thresholds: { goal_achievement: 50 } }, ['a']);
    const r = await axis(['run', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { reportId: string; reportDir: string };
    expect(stored(doc.reportDir).verdict?.pass).toBe(true);
    writeJson(dir, 'tapes/a.json', tape(1));
    const score = await axis(['score', '--no-cache'], dir);
    expect(score.code, score.stderr).toBe(0);
    const v = stored(doc.reportDir).verdict!;
    expect(v.pass).toBe(false);
    expect(v.pairs[0]!.failures).toMatchObject([
      { kind: 'threshold', metric: 'goal_achievement', limit: 50 },
    ]);
    expect((await axis(['reports', doc.reportId], dir)).stdout).toContain('Gate: fail');
  }, 60_000);

  it('compares again with the baseline the run was compared with; one since deleted drops the verdict, said', async () => {
    dir = simProject('axis-stored-verdict-', {}, ['a']);
    expect((await axis(['run'], dir)).code).toBe(0);
    expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
    const r = await axis(['run', '--json', '--compare-baseline'], dir);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { reportId: string; reportDir: string };
    writeJson(dir, 'tapes/a.json', tape(1));
    const again = await axis(['score', '--no-cache', doc.reportId], dir);
    expect(again.code, again.stderr).toBe(0);
    const v = stored(doc.reportDir).verdict!;
    expect(v).toMatchObject({ pass: false, baseline: { name: 'main' } });
    expect(v.pairs[0]!.failures[0]).toMatchObject({ kind: 'regression', metric: 'axis_score' });
    rmSync(join(dir, '.axis/baselines/main.json'));
    const gone = await axis(['score', doc.reportId], dir);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stderr).toContain('baseline "main"');
    expect(stored(doc.reportDir).verdict).toBeUndefined();
    expect((await axis(['reports', doc.reportId], dir)).stdout).not.toContain('Gate:');
  }, 60_000);
});
