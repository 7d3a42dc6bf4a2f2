/**
 * A bare `--reporter junit` writes `<reportDir>/junit.xml`. A run that fails before it has a report
 * (invalid config, a usage error, a failed beforeAll) still writes one there: in a report folder of its
 * own, the newest, so the glob CI uploads finds this run's failure and not an earlier run's file. A bad
 * `--reporter` value beside good ones no longer leaves their files of an earlier run in place.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simProject, writeJson } from '../compare/helpers.js';
import { axis, buildDist, ROOT } from './helpers.js';

const XSD = join(ROOT, 'test/fixtures/junit/junit-10.xsd');
const ENV = { GITHUB_ACTIONS: '' };
const EARLIER = '2020-01-01-000000';
const dirs: string[] = [];

beforeAll(() => buildDist());
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(settings: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const dir = simProject('axis-bare-junit-', settings, ['a']);
  dirs.push(dir);
  const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'));
  writeJson(dir, 'axis.config.json', { ...config, ...extra });
  return dir;
}

/** An earlier run's report folder whose JUnit file is all green. */
function earlierGreenRun(dir: string): string {
  const file = join(dir, '.axis/reports', EARLIER, 'junit.xml');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '<testsuites name="AXIS" tests="1" failures="0" errors="0"/>\n');
  return readFileSync(file, 'utf8');
}

/** The newest report folder's junit.xml, checked against the JUnit XSD; stderr must name it. */
function newestJunit(dir: string, stderr: string): string {
  const ids = readdirSync(join(dir, '.axis/reports')).sort();
  const id = ids.at(-1)!;
  expect(id).not.toBe(EARLIER);
  expect(readdirSync(join(dir, '.axis/reports', id))).toEqual(['junit.xml']);
  expect(stderr).toContain(`JUnit report: .axis/reports/${id}/junit.xml`);
  const file = join(dir, '.axis/reports', id, 'junit.xml');
  execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
  return readFileSync(file, 'utf8');
}

describe('a bare --reporter junit when the run fails before reporting', () => {
  it('invalid config: the failure in a new report folder; the earlier run kept; no report listed', async () => {
    const dir = project({ runs: 'x' });
    const green = earlierGreenRun(dir);
    const r = await axis(['run', '--reporter', 'junit'], dir, ENV);
    expect(r.code, r.stderr).toBe(2);
    const xml = newestJunit(dir, r.stderr);
    expect(xml).toMatch(/<testsuites name="AXIS" tests="1" failures="0" errors="1"/);
    expect(xml).toContain('<error type="config" message="Invalid configuration (1 problem):');
    expect(readFileSync(join(dir, '.axis/reports', EARLIER, 'junit.xml'), 'utf8')).toBe(green);
    // The folder holds no report: `axis reports` lists none.
    const list = await axis(['reports', '--json'], dir, ENV);
    expect(JSON.parse(list.stdout)).toEqual([]);
  }, 60_000);

  it('a usage error: into the .axis of the config -c names, not the current folder', async () => {
    const dir = project({});
    const cwd = join(dir, 'elsewhere');
    mkdirSync(cwd);
    const r = await axis(['run', '-c', '../axis.config.json', '--reporter=junit', '--bogus'], cwd, ENV);
    expect(r.code, r.stderr).toBe(2);
    const id = readdirSync(join(dir, '.axis/reports'))[0]!;
    const xml = readFileSync(join(dir, '.axis/reports', id, 'junit.xml'), 'utf8');
    expect(xml).toContain(`<error type="usage" message="unknown option '--bogus'"`);
    expect(readdirSync(cwd)).toEqual([]);
  }, 60_000);

  it('a failed beforeAll (exit 1) and axis reports merge (exit 2) write it too', async () => {
    const dir = project({}, { beforeAll: [{ action: 'run_script', command: 'exit 3' }] });
    const hook = await axis(['run', '--reporter', 'junit'], dir, ENV);
    expect(hook.code, hook.stderr).toBe(1);
    expect(newestJunit(dir, hook.stderr)).toContain('message="beforeAll failed, no job was run:');

    const merge = await axis(['reports', 'merge', 'no-such.blob', '--reporter', 'junit'], dir, ENV);
    expect(merge.code, merge.stderr).toBe(2);
    expect(readdirSync(join(dir, '.axis/reports'))).toHaveLength(2);
    expect(newestJunit(dir, merge.stderr)).toContain('<error type="usage"');
  }, 60_000);
});

describe('a bad --reporter value beside good ones', () => {
  it('the good ones still get the failure: no earlier file is left looking current', async () => {
    const dir = project({});
    writeFileSync(join(dir, 'out.xml'), 'earlier\n');
    writeFileSync(join(dir, 'err.json'), 'earlier\n');
    const r = await axis(
      ['run', '--reporter', 'junit=out.xml,json=err.json', '--reporter', 'nosuch'],
      dir,
      ENV,
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--reporter: unknown reporter "nosuch"');
    expect(readFileSync(join(dir, 'out.xml'), 'utf8')).toContain('message="--reporter: unknown reporter');
    const doc = JSON.parse(readFileSync(join(dir, 'err.json'), 'utf8'));
    expect(doc.error).toMatchObject({ exitCode: 2, kind: 'usage' });
  }, 60_000);
});
