/**
 * A report.json written by an earlier AXIS, read by every reader of this one: no crash, no NaN or
 * `undefined` shown, and no cost shown as complete when it was not. Before AXIS counted the judged runs
 * without a judge cost (`summary.scores.judge.runsWithoutCost`), its judge total was a partial sum with
 * nothing saying so; the pairs' own judge records show the gap, and the report is upgraded where it is
 * read (parseManifest), once for every reader.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject, writeJson } from '../compare/helpers.js';

const T = 60_000;
let dir = '';
let id = '';
beforeAll(async () => {
  buildDist();
  dir = simProject('axis-old-report-', {}, ['a', 'b']);
  const run = await axis(['run', '--json'], dir);
  expect(run.code, run.stderr).toBe(0);
  const doc = JSON.parse(run.stdout) as { reportId: string; reportDir: string };
  id = doc.reportId;
  const file = join(dir, doc.reportDir, 'report.json');
  writeJson(
    dir,
    join(doc.reportDir, 'report.json'),
    asOlderAxisWroteIt(JSON.parse(readFileSync(file, 'utf8'))),
  );
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Judge {
  costUsd?: number;
  simulated?: boolean;
  label?: string;
}
interface Old {
  verdict?: unknown;
  settings: { simulate: boolean };
  summary: Record<string, unknown> & {
    scores: Record<string, unknown> & { judge: Judge & { runs: number } };
  };
  results: {
    simulated?: boolean;
    costUsd?: number;
    runs: { costUsd?: number }[];
    score: { judge: Judge };
  }[];
}

/**
 * As before the verdict, the run counts and reliability were stored, against a real provider: pair a's
 * judge reported a cost, pair b's (an agent judge) none, and the total says nothing of b.
 */
function asOlderAxisWroteIt(m: Old): Old {
  delete m.verdict;
  for (const k of ['cancelled', 'runsTotal', 'runsFailed', 'runsCancelled', 'skipped']) delete m.summary[k];
  delete m.summary.scores.runs;
  delete m.summary.scores.reliability;
  m.settings.simulate = false;
  for (const r of m.results) {
    r.simulated = false;
    r.score.judge.simulated = false;
  }
  m.results[0]!.score.judge.costUsd = 0.0125;
  m.results[0]!.runs[0]!.costUsd = 0.5;
  m.results[0]!.costUsd = 0.5;
  m.summary.scores.judge.costUsd = 0.0125;
  return m;
}

const clean = (text: string) => {
  expect(text).not.toMatch(/NaN|undefined|Infinity|\[object/);
  return text;
};

describe('a report written by an earlier AXIS', () => {
  it(
    "axis reports <id> says the judge's cost leaves a run out, as it does for a report of today",
    async () => {
      const shown = await axis(['reports', id], dir);
      expect(shown.code, shown.stderr).toBe(0);
      // The header's values fold at 80 columns, going on under the value's column (13).
      expect(clean(shown.stdout).replace(/\n {13}(?=\S)/g, ' ')).toMatch(
        /^Judge .*≥ \$0\.0125 \(1 of 2 runs without a cost\)$/m,
      );
      const json = await axis(['reports', id, '--json'], dir);
      const doc = JSON.parse(json.stdout) as Old;
      expect(doc.summary.scores.judge).toMatchObject({ costUsd: 0.0125, runsWithoutCost: 1 });
    },
    T,
  );

  it(
    'the list, the history and a baseline read it without NaN or undefined',
    async () => {
      const list = await axis(['reports'], dir);
      expect(list.code, list.stderr).toBe(0);
      expect(clean(list.stdout)).toContain('≥ $0.5000 (1 of 2 runs without a cost)');
      const history = await axis(['history'], dir);
      expect(history.code, history.stderr).toBe(0);
      clean(history.stdout);
      const json = await axis(['history', '--json'], dir);
      expect(json.code, json.stderr).toBe(0);
      clean(json.stdout);
      const baseline = await axis(['baseline', 'set', id], dir);
      expect(baseline.code, baseline.stderr).toBe(0);
      clean(baseline.stdout + baseline.stderr);
    },
    T,
  );
});
