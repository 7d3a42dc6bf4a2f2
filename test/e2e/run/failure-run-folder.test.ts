/**
 * One run, one report folder: a run that fails after its report folder is made (here `-o` can no longer
 * be written when the jobs are done) puts its failure's junit.xml in that folder, not in a second one.
 * And `-o <dir>` holds this run's outcome in every case: the `{ "error" }` document when the command
 * fails before it has a report, newer than any earlier run's file there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simProject, writeJson } from '../compare/helpers.js';
import { axis, buildDist, ROOT } from './helpers.js';

const XSD = join(ROOT, 'test/fixtures/junit/junit-10.xsd');
const ENV = { GITHUB_ACTIONS: '' };
const EARLIER = 'axis-report-2020-01-01-000000.json';
const T = 60_000;
const dirs: string[] = [];

beforeAll(() => buildDist());
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(settings: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const dir = simProject('axis-failure-folder-', settings, ['a']);
  dirs.push(dir);
  const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'));
  writeJson(dir, 'axis.config.json', { ...config, ...extra });
  return dir;
}

const reportIds = (dir: string): string[] =>
  existsSync(join(dir, '.axis/reports')) ? readdirSync(join(dir, '.axis/reports')).sort() : [];

/** An earlier run's -o file that passed the gate. */
function earlierPass(dir: string): void {
  mkdirSync(join(dir, 'out'), { recursive: true });
  writeFileSync(
    join(dir, 'out', EARLIER),
    JSON.stringify({ reportId: '2020-01-01-000000', verdict: { pass: true } }),
  );
}

describe('a failure after the run made its report folder', () => {
  it(
    'a bare --reporter junit writes into that folder: one run, one folder, listed once',
    async () => {
      // beforeAll runs after -o is checked: it puts a file where the folder was.
      const dir = project({}, { beforeAll: [{ action: 'run_script', command: 'rm -rf out && touch out' }] });
      const r = await axis(['run', '--no-score', '-o', 'out', '--reporter', 'junit'], dir, ENV);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('-o/--output-dir: cannot write');
      const ids = reportIds(dir);
      expect(ids).toHaveLength(1);
      const [id] = ids as [string];
      expect(readdirSync(join(dir, '.axis/reports', id)).sort()).toEqual([
        'junit.xml',
        'report.html',
        'report.json',
        'scenarios',
      ]);
      expect(r.stderr).toContain(`JUnit report: .axis/reports/${id}/junit.xml\n`);
      const file = join(dir, '.axis/reports', id, 'junit.xml');
      execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
      expect(readFileSync(file, 'utf8')).toContain(
        '<error type="usage" message="-o/--output-dir: cannot write',
      );
      const list = await axis(['reports', '--json'], dir, ENV);
      expect((JSON.parse(list.stdout) as { reportId: string }[]).map((e) => e.reportId)).toEqual([id]);
    },
    T,
  );
});

describe('-o <dir> when the command fails before it has a report', () => {
  it(
    'invalid config: the error document, named newer than the earlier run’s file, with the junit folder’s id',
    async () => {
      const dir = project({ runs: 'x' });
      earlierPass(dir);
      const r = await axis(['run', '-o', 'out', '--reporter', 'junit'], dir, ENV);
      expect(r.code, r.stderr).toBe(2);
      const [id] = reportIds(dir) as [string];
      const files = readdirSync(join(dir, 'out')).sort();
      expect(files).toEqual([EARLIER, `axis-report-${id}.json`]);
      const doc = JSON.parse(readFileSync(join(dir, 'out', files[1]!), 'utf8'));
      expect(doc.error).toMatchObject({ exitCode: 2, kind: 'config' });
      expect(doc.error.message).toContain('Invalid configuration (1 problem):');
      expect(r.stderr).toContain(`Error document: out/axis-report-${id}.json\n`);
    },
    T,
  );

  it(
    'a usage error, no junit: the folder is made and gets the error document alone',
    async () => {
      const dir = project({});
      const r = await axis(['run', '--bogus', '-o', 'out/ci'], dir, ENV);
      expect(r.code, r.stderr).toBe(2);
      const files = readdirSync(join(dir, 'out/ci'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^axis-report-\d{4}-\d{2}-\d{2}-\d{6}\.json$/);
      const doc = JSON.parse(readFileSync(join(dir, 'out/ci', files[0]!), 'utf8'));
      expect(doc.error).toMatchObject({ exitCode: 2, kind: 'usage', message: "unknown option '--bogus'" });
      // No report folder is made for it.
      expect(reportIds(dir)).toEqual([]);
    },
    T,
  );

  it(
    'a failed beforeAll (exit 1): the error document too; the run made no report',
    async () => {
      const dir = project({}, { beforeAll: [{ action: 'run_script', command: 'exit 3' }] });
      earlierPass(dir);
      const r = await axis(['run', '-o', 'out'], dir, ENV);
      expect(r.code, r.stderr).toBe(1);
      const files = readdirSync(join(dir, 'out')).sort();
      expect(files).toHaveLength(2);
      expect(files[0]).toBe(EARLIER);
      const doc = JSON.parse(readFileSync(join(dir, 'out', files[1]!), 'utf8'));
      expect(doc.error).toMatchObject({ exitCode: 1, kind: 'usage' });
      expect(doc.error.message).toContain('beforeAll failed, no job was run:');
    },
    T,
  );
});
