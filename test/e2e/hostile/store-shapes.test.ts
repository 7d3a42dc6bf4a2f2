/**
 * Valid JSON of the wrong shape in a stored report: every command reading it names the file, the field
 * and what was expected (exit 2), never an internal error, a NaN/Infinity in its output, or a rescore
 * that rewrites some files and then dies. A per-run file of the wrong shape is named for that run.
 * One scored run (the toy agent, the simulator as judge) is copied and edited per case.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { axis, project, ROOT, type Outcome } from './helpers.js';
import { tape } from '../compare/helpers.js';
import { DATA_ELEMENT_ID, decodeReportData } from '../../../src/report/html/render.js';

const AGENT = join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh');
const T = 60_000;
let base: string;
let id: string;

beforeAll(async () => {
  const toy = (name: string) => ({ agent: 'command', name, command: AGENT, output: 'ndjson' });
  base = project({
    'axis.config.json': {
      scenarios: './scenarios',
      agents: [toy('toy'), toy('toy2')],
      settings: { simulate: true },
      judge: { provider: 'anthropic', max_retries: 0 },
    },
    'scenarios/hello.json': { name: 'hello', prompt: 'Write out.txt', judge: 'out.txt was written' },
    'tapes/hello.json': tape(8),
  });
  const r = await axis(['run'], base, { budgetMs: 60_000 });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  id = readdirSync(join(base, '.axis/reports'))[0]!;
  expect((await axis(['baseline', 'set'], base)).code).toBe(0);
}, T);

type Json = Record<string, unknown>;
/** A copy of the project whose file `rel` (in the report folder) went through `edit`. */
function tampered(rel: string, edit: (j: Json) => void): { dir: string; file: string } {
  const dir = project();
  cpSync(base, dir, { recursive: true });
  const file = join(dir, '.axis/reports', id, rel);
  const j = JSON.parse(readFileSync(file, 'utf8')) as Json;
  edit(j);
  writeFileSync(file, JSON.stringify(j));
  return { dir, file };
}
const result0 = (j: Json) => (j.results as Json[])[0]!;

function expectNamed(r: Outcome, field: string, expected: string): void {
  expect(r.hung).toBe(false);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).toContain(`.axis/reports/${id}/report.json: ${field}: expected ${expected}`);
  expect(r.stdout + r.stderr).not.toMatch(/Internal error|bug in AXIS|NaN|Infinity|undefined/);
}

describe('report.json of the wrong shape', () => {
  const cases: [string, (j: Json) => void, string, string, string[][]][] = [
    ['summary null', (j) => (j.summary = null), 'summary', 'an object, found null', [['score']]],
    [
      'a score that is a string',
      (j) => (result0(j).score = 'x'),
      'results[0].score',
      'an object, found "x"',
      [
        ['reports', 'ID'],
        ['reports', 'ID', '--html'],
      ],
    ],
    [
      'token usage null',
      (j) => (result0(j).tokenUsage = null),
      'results[0].tokenUsage',
      'an object, found null',
      [
        ['baseline', 'set', 'other'],
        ['baseline', 'compare'],
        ['compare', 'ID', '--agents', 'toy,toy2'],
      ],
    ],
    [
      'a huge AXIS Result',
      (j) => ((result0(j).score as Json).axisScore = 1e308),
      'results[0].score.axisScore',
      'a number from 0 to 100, found 1e+308',
      [
        ['baseline', 'compare'],
        ['compare', 'ID', '--agents', 'toy,toy2'],
      ],
    ],
    ['a numeric timestamp', (j) => (j.timestamp = 5), 'timestamp', 'a string, found 5', [['reports', 'ID']]],
    ['an object name', (j) => (j.name = {}), 'name', 'a string, found an object', [['reports', 'ID']]],
    [
      'a numeric profile',
      (j) => (j.profile = 5),
      'profile',
      'a string, found 5',
      [['score'], ['run', '--failed'], ['baseline', 'compare']],
    ],
  ];
  for (const [name, edit, field, expected, commands] of cases)
    test(
      `${name}: ${commands.map((c) => c.join(' ')).join(', ')}`,
      async () => {
        const { dir, file } = tampered('report.json', edit);
        const before = readFileSync(file, 'utf8');
        for (const args of commands) {
          const r = await axis(
            args.map((a) => (a === 'ID' ? id : a)),
            dir,
            { env: { CI: '1' } },
          );
          expectNamed(r, field, expected);
        }
        expect(readFileSync(file, 'utf8')).toBe(before);
        expect(existsSync(join(dir, '.axis/reports', id, 'score.pending'))).toBe(false);
      },
      T,
    );

  test(
    'a report.json that is an array: --html exits 2 like every other view',
    async () => {
      const dir = project();
      cpSync(base, dir, { recursive: true });
      writeFileSync(join(dir, '.axis/reports', id, 'report.json'), '[1, 2]');
      const r = await axis(['reports', id, '--html'], dir, { env: { CI: '1' } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('report.json: not an AXIS report');
    },
    T,
  );
});

describe('a per-run file of the wrong shape', () => {
  const detail = 'scenarios/hello/toy.json';

  test(
    'a score that is a string: the scenario view names it for that run, report.html still renders',
    async () => {
      const { dir } = tampered(detail, (j) => (j.score = 'x'));
      const view = await axis(['reports', id, 'hello'], dir);
      expect(view.code, view.stderr).toBe(0);
      expect(view.stdout).toContain(
        `Detail file unavailable: .axis/reports/${id}/${detail}: score: expected an object, found "x"`,
      );
      expect(view.stdout).toContain('hello · toy2'); // the other agent's run is shown in full
      const html = await axis(['reports', id, '--html'], dir, { env: { CI: '1' } });
      expect(html.code, html.stderr).toBe(0);
      expect(html.stdout).toContain(`.axis/reports/${id}/report.html`);
      const page = readFileSync(join(dir, '.axis/reports', id, 'report.html'), 'utf8');
      const payload = new RegExp(`<script id="${DATA_ELEMENT_ID}"[^>]*>([^<]*)</script>`).exec(page)![1]!;
      const runs = (agent: string) =>
        decodeReportData(payload).pairs.find((p) => p.agentName === agent)!.runs;
      // The damaged run: its summary and score from report.json, said so, and no transcript drawn.
      const stored = JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8')) as {
        results: { agentName: string; score: { axisScore: number } }[];
      };
      const [toy] = runs('toy');
      expect(toy).toMatchObject({ status: 'scored', events: [], interactions: [] });
      expect(toy!.scores?.axis).toBe(stored.results.find((r) => r.agentName === 'toy')!.score.axisScore);
      expect(toy!.warnings).toContain(
        "This run's detail file could not be read: only its summary from report.json is shown",
      );
      // The other agent's run is drawn whole.
      expect(runs('toy2')[0]!.events.length).toBeGreaterThan(0);
      expect(runs('toy2')[0]!.warnings).toEqual([]);
    },
    T,
  );

  test(
    'a transcript event of the wrong type is not rescored: named, left as it was, exit 1',
    async () => {
      const { dir, file } = tampered(detail, (j) => ((j.transcript as Json).events = [{ kind: 5 }]));
      const before = readFileSync(file, 'utf8');
      const r = await axis(['score'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `warning: hello · toy run 1: ${detail}: transcript.events[0].kind: expected a string, found 5; left as it was`,
      );
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(r.stdout).toMatch(/hello {2}toy2 {2}AXIS \d+/);
    },
    T,
  );
});
