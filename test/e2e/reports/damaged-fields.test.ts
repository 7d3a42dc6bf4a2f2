/**
 * A report.json or per-run detail file with one field deleted, null or of the wrong type (a hand edit, a
 * bad merge): every reader either accepts it (the gap shown as unknown, never NaN or a pass) or refuses
 * it naming the file and the field (exit 2), never an internal error. The fields are those a sweep of
 * every field path × (deleted, null, wrong type, empty) found reaching a crash or a NaN; each case runs
 * the commands that did.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject } from '../compare/helpers.js';

const T = 60_000;
let dir = '';
let id = '';
const pristine: Record<string, string> = {};

beforeAll(async () => {
  buildDist();
  dir = simProject('axis-damaged-fields-', { runs: 3 }, ['hello']);
  const run = await axis(['run'], dir);
  expect(run.code, run.stderr).toBe(0);
  id = readdirSync(join(dir, '.axis/reports'))[0]!;
  expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
  for (const f of [REPORT, DETAIL]) pristine[f] = readFileSync(join(dir, rel(f)), 'utf8');
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REPORT = 'report.json';
const DETAIL = 'scenarios/hello/toy.run-2.json';
const rel = (file: string) => `.axis/reports/${id}/${file}`;

type Variant = 'deleted' | 'null' | 'string' | 'object' | 'empty';
type Json = Record<string | number, unknown>;

/** The file with the field at `path` (dot-separated, numbers index arrays) replaced as `variant` says. */
function mutate(file: string, path: string, variant: Variant, project = dir): void {
  const root = JSON.parse(pristine[file]!) as Json;
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce((o, k) => o[k] as Json, root);
  const empty = Array.isArray(parent[last]) ? [] : {};
  const values = { null: null, string: '7', object: Array.isArray(parent[last]) ? {} : [], empty };
  if (variant === 'deleted') delete parent[last];
  else parent[last] = values[variant];
  writeFileSync(join(project, rel(file)), JSON.stringify(root));
}

const VIEW = () => ['reports', id];
const SCENARIO = () => ['reports', id, 'hello'];
const HTML = () => ['reports', id, '--html'];
const COMPARE = () => ['baseline', 'compare', '--json'];

/** [file, field path, variant, commands, the field as the error names it (absent: the file is accepted)] */
const CASES: [string, string, Variant, (() => string[])[], string?][] = [
  [REPORT, 'summary.scores.runs.total', 'deleted', [VIEW], 'summary.scores.runs.total: missing'],
  [REPORT, 'summary.scores.runs', 'empty', [VIEW], 'summary.scores.runs.total: missing'],
  [REPORT, 'summary.scores.reliability', 'deleted', [VIEW]],
  [REPORT, 'summary.scores.judge.tokens', 'deleted', [VIEW], 'summary.scores.judge.tokens: missing'],
  [REPORT, 'summary.scores.judge.tokens.input', 'deleted', [VIEW], 'summary.scores.judge.tokens.input'],
  [REPORT, 'summary.scores.judge.judges', 'deleted', [VIEW], 'summary.scores.judge.judges: missing'],
  [REPORT, 'results.0.tokenUsage', 'deleted', [COMPARE], 'results[0].tokenUsage: expected'],
  [REPORT, 'results.0.runs.0', 'empty', [SCENARIO], 'results[0].runs[0].run: missing'],
  [REPORT, 'results.0.runs.0.status', 'deleted', [SCENARIO], 'results[0].runs[0].status: missing'],
  [REPORT, 'results.0.runs.0.durationMs', 'deleted', [COMPARE], 'results[0].runs[0].durationMs'],
  [REPORT, 'results.0.runs.0.tokenUsage', 'deleted', [COMPARE], 'results[0].runs[0].tokenUsage'],
  [REPORT, 'results.0.runs.0.tokenUsage', 'empty', [COMPARE], 'results[0].runs[0].tokenUsage.input'],
  [REPORT, 'results.0.score.axisScore', 'deleted', [VIEW, COMPARE], 'results[0].score.axisScore'],
  [REPORT, 'results.0.score.goalAchievement', 'empty', [VIEW], 'results[0].score.goalAchievement.score'],
  [REPORT, 'results.0.score.environment', 'empty', [VIEW], 'results[0].score.environment.score'],
  [REPORT, 'results.0.score.agent.score', 'deleted', [VIEW], 'results[0].score.agent.score: missing'],
  [REPORT, 'verdict.thresholds', 'empty', [VIEW, HTML], 'verdict.thresholds.source: missing'],
  [REPORT, 'verdict.thresholds', 'object', [VIEW], 'verdict.thresholds: expected an object'],
  [DETAIL, 'transcript', 'empty', [HTML, SCENARIO], 'transcript.events: missing'],
  [DETAIL, 'transcript.events.0.text', 'deleted', [HTML], 'transcript.events[0].text: missing'],
  [DETAIL, 'transcript.events.0.text', 'null', [HTML], 'transcript.events[0].text: expected'],
  [DETAIL, 'simulator', 'empty', [SCENARIO], 'simulator.events: missing'],
  [DETAIL, 'simulator.events', 'object', [SCENARIO], 'simulator.events: expected an array'],
  [DETAIL, 'simulator.tape', 'deleted', [SCENARIO], 'simulator.tape: missing'],
  [DETAIL, 'score.axisScore', 'deleted', [SCENARIO], 'score.axisScore: missing'],
  [DETAIL, 'score.goalAchievement.criteria', 'deleted', [SCENARIO, HTML], 'criteria: missing'],
  [DETAIL, 'score.goalAchievement.criteria.0.check', 'deleted', [SCENARIO], 'criteria[0].check'],
  [DETAIL, 'score.goalAchievement.criteria.0.weight', 'deleted', [SCENARIO], 'criteria[0].weight'],
  [DETAIL, 'score.environment.dimensions', 'deleted', [SCENARIO], 'environment.dimensions: missing'],
  [DETAIL, 'score.service.audits', 'deleted', [HTML, SCENARIO], 'score.service.audits: missing'],
  [DETAIL, 'score.weights', 'deleted', [HTML, SCENARIO], 'score.weights: missing'],
  [DETAIL, 'score.weights.environment', 'deleted', [SCENARIO], 'score.weights.environment: missing'],
  [DETAIL, 'score.patterns', 'object', [HTML], 'score.patterns: expected an array'],
  [DETAIL, 'score.necessity.unnecessaryIds', 'deleted', [HTML, SCENARIO], 'unnecessaryIds: missing'],
  [DETAIL, 'score.interactions.0.categories', 'deleted', [HTML], 'categories: missing'],
  [DETAIL, 'score.judge.label', 'deleted', [SCENARIO], 'score.judge.label: missing'],
];

describe('a report file with one field damaged', () => {
  it.each(CASES)(
    '%s: %s %s',
    async (file, path, variant, commands, field) => {
      mutate(file, path, variant);
      try {
        for (const command of commands) {
          const args = command();
          const r = await axis(args, dir, { CI: '1' });
          const all = r.stdout + r.stderr;
          const what = `${args.join(' ')}\n${all}`;
          expect(all, what).not.toMatch(/Internal error|bug in AXIS|\n\s+at |NaN|Infinity|undefined/);
          if (!field) expect(r.code, what).toBe(0);
          else if (file === REPORT) {
            expect(r.code, what).toBe(2);
            expect(r.stderr, what).toContain(`${rel(file)}: `);
            expect(r.stderr, what).toContain(field);
          } else if (args.includes('--html')) {
            // The page is written; the run whose file is damaged is shown as unreadable.
            expect(r.code, what).toBe(0);
          } else {
            expect(all, what).toContain(`${rel(file)}: `);
            expect(all, what).toContain(field);
          }
        }
      } finally {
        writeFileSync(join(dir, rel(file)), pristine[file]!);
      }
    },
    T,
  );
});

/** `axis score` rewrites the files it reads: each case runs on its own copy of the project. */
const SCORE_CASES: [string, string, Variant, string][] = [
  [REPORT, 'results.0.status', 'deleted', 'results[0].status: missing'],
  [DETAIL, 'scenarioName', 'deleted', 'scenarioName: missing'],
  [DETAIL, 'agent', 'null', 'agent: expected'],
  [DETAIL, 'prompt', 'deleted', 'prompt: missing'],
  [DETAIL, 'criteria.0.weight', 'deleted', 'criteria[0].weight: missing'],
  [DETAIL, 'transcript.result', 'deleted', 'transcript.result: missing'],
  [DETAIL, 'transcript.usage', 'deleted', 'transcript.usage: missing'],
];

describe('axis score of a report file with one field damaged', () => {
  it.each(SCORE_CASES)(
    '%s: %s %s',
    async (file, path, variant, field) => {
      const copy = mkdtempSync(join(tmpdir(), 'axis-damaged-score-'));
      try {
        cpSync(dir, copy, { recursive: true });
        mutate(file, path, variant, copy);
        const r = await axis(['score'], copy, { CI: '1' });
        const all = r.stdout + r.stderr;
        expect(all, all).not.toMatch(/Internal error|bug in AXIS|\n\s+at |NaN|Infinity|undefined/);
        expect(all, all).toContain(`${file === REPORT ? rel(file) : file}: ${field}`);
        // A report.json it cannot rewrite is refused before any per-run file is rewritten.
        if (file === REPORT) {
          expect(r.code, all).toBe(2);
          expect(readFileSync(join(copy, rel(DETAIL)), 'utf8')).toBe(pristine[DETAIL]);
        }
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    },
    T,
  );
});
