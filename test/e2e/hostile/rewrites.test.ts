/**
 * Rewriting a stored report when a write fails: `axis score` and `axis reports <id> --html` with the real
 * CLI on a real report whose files cannot be replaced (a directory in the way of a file). Each must fail
 * loudly (exit 1, the file named, no internal error) and leave report.json readable.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidReport } from '../../helpers/report-schema.js';
import { AGENT, tape } from '../compare/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

const T = 60_000;
const dirs: string[] = [];
let source = '';

function write(dir: string, rel: string, content: unknown): void {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : `${JSON.stringify(content)}\n`);
}

/** A fresh copy of the scored two-job project made in beforeAll; returns its dir and report dir. */
function copy(): { dir: string; reportDir: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-rewrites-')));
  dirs.push(dir);
  cpSync(source, dir, { recursive: true });
  const reports = join(dir, '.axis/reports');
  return { dir, reportDir: join(reports, readdirSync(reports)[0]!) };
}

beforeAll(async () => {
  buildDist();
  source = realpathSync(mkdtempSync(join(tmpdir(), 'axis-rewrites-src-')));
  dirs.push(source);
  write(source, 'axis.config.json', {
    scenarios: './scenarios',
    agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
    settings: { simulate: true },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
  for (const key of ['a', 'b']) {
    write(source, `scenarios/${key}.json`, {
      name: key,
      prompt: 'Write out.txt',
      judge: [{ check: 'written' }],
    });
    write(source, `tapes/${key}.json`, tape(9));
  }
  const r = await axis(['run'], source);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}, T);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const NO_BUG = /Internal error|This is a bug|\n\s+at /;

describe('rewriting a stored report when a write fails', () => {
  it(
    'axis score: report.html cannot be replaced → exit 1 naming it and saying it shows the old scores',
    async () => {
      const { dir, reportDir } = copy();
      rmSync(join(reportDir, 'report.html'));
      mkdirSync(join(reportDir, 'report.html/in-the-way'), { recursive: true });
      const r = await axis(['score'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: could not write \S*report\.html: a directory is in the way/);
      expect(r.stderr).toContain('still shows the old scores');
      expect(r.stderr).not.toMatch(NO_BUG);
      expect(r.stdout).toContain('1 file(s) could not be written');
      expectValidReport(reportDir);
    },
    T,
  );

  it(
    'axis score: a per-run file cannot be replaced → exit 1 naming it; the other runs and report.json are written',
    async () => {
      const { dir, reportDir } = copy();
      const sparse = join(reportDir, 'scenarios/a/toy.sparse-index.txt');
      rmSync(sparse);
      mkdirSync(join(sparse, 'in-the-way'), { recursive: true });
      const r = await axis(['score', '--no-cache'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain('scenarios/a/toy.sparse-index.txt');
      expect(r.stderr).not.toMatch(NO_BUG);
      // Run b was rescored and report.json rewritten with it: the failure cost one run, not the command.
      expect(r.stdout).toMatch(/^ {2}b {2}toy {2}AXIS/m);
      const m = expectValidReport(reportDir);
      expect(Date.parse(m.updatedAt!)).toBeGreaterThan(Date.parse(m.timestamp));
      const list = await axis(['reports', 'latest'], dir);
      expect(list.code, list.stderr).toBe(0);
    },
    T,
  );

  it(
    'axis score: a run it cannot rescore keeps its old score, and report.json still counts it',
    async () => {
      const { dir, reportDir } = copy();
      const before = expectValidReport(reportDir);
      expect(before.summary.scores?.scored).toBe(2);
      writeFileSync(join(reportDir, 'scenarios/a/toy.json'), '{"cut off');
      const r = await axis(['score', '--no-cache'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain('scenarios/a/toy.json');
      // Not expectValidReport: it would read the detail file spoiled above.
      const m = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as typeof before;
      const a = m.results.find((e) => e.scenarioKey === 'a')!;
      expect(a.score?.axisScore).toBe(before.results.find((e) => e.scenarioKey === 'a')!.score?.axisScore);
      // The summary is over every pair with a score, not only the ones this command rescored.
      expect(m.summary.scores?.scored).toBe(2);
      expect(m.summary.averageAxisScore).toBe(before.summary.averageAxisScore);
    },
    T,
  );

  it(
    'axis reports <id> --html: report.html cannot be written → exit 1 naming it, no internal error',
    async () => {
      const { dir, reportDir } = copy();
      rmSync(join(reportDir, 'report.html'));
      mkdirSync(join(reportDir, 'report.html/in-the-way'), { recursive: true });
      const r = await axis(['reports', 'latest', '--html'], dir, { CI: '1' });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(/Cannot write \S*report\.html: /);
      expect(r.stderr).not.toMatch(NO_BUG);
    },
    T,
  );
});
