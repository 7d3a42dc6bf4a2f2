/**
 * A run that fails before its reporters report (invalid config: exit 2; beforeAll: exit 1) still gives CI
 * its reason: one GitHub `::error` annotation, and a JUnit file with one testcase in error when
 * `--reporter junit=<file>` was asked for. A failure after the report keeps the report's outputs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simProject, writeJson } from '../compare/helpers.js';
import { axis, buildDist, ROOT } from './helpers.js';

const XSD = join(ROOT, 'test/fixtures/junit/junit-10.xsd');
const SECRET = 's3cr3t-token-value-4711';
const dirs: string[] = [];
const GH = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '', AXIS_TEST_TOKEN: SECRET };

beforeAll(() => buildDist());
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(settings: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const dir = simProject('axis-failure-outputs-', settings, ['a']);
  dirs.push(dir);
  const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'));
  writeJson(dir, 'axis.config.json', { ...config, ...extra });
  return dir;
}

/** Throws when xmllint finds the file invalid against the JUnit XSD. */
function validJunit(file: string): string {
  execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
  return readFileSync(file, 'utf8');
}

const annotations = (out: string) => out.split('\n').filter((l) => /^::(error|warning)/.test(l));

describe('a run that fails before reporting', () => {
  it('invalid config: exit 2, one ::error annotation and a JUnit file with the error', async () => {
    const dir = project({ runs: 'x' });
    const r = await axis(['run', '--reporter', 'junit=out/junit.xml'], dir, GH);
    expect(r.code, r.stderr).toBe(2);
    const notes = annotations(r.stdout);
    expect(notes).toEqual([
      '::error title=AXIS run failed::Invalid configuration (1 problem):%0A  axis.config.json: settings.runs: expected an odd integer from 1 to 19, found "x"',
    ]);
    const xml = validJunit(join(dir, 'out/junit.xml'));
    expect(xml).toMatch(/<testsuites name="AXIS" tests="1" failures="0" errors="1"/);
    expect(xml).toMatch(
      /<testcase classname="AXIS" name="Invalid configuration \(1 problem\):" time="0\.000">\s*<error type="config" message="Invalid configuration \(1 problem\):&#10; {2}axis\.config\.json: settings\.runs: /,
    );
    expect(xml).not.toContain('<failure');
  }, 60_000);

  it('beforeAll: exit 1, its output neutralised and its secrets masked in both', async () => {
    const hook = `echo ${SECRET}; echo '::warning::injected'; exit 3`;
    const dir = project({}, { beforeAll: [{ action: 'run_script', command: hook }] });
    const r = await axis(['run', '--json', '--reporter', 'junit=junit.xml'], dir, GH);
    expect(r.code, r.stderr).toBe(1);
    // stdout holds the one JSON document: the annotation goes to stderr, as the github reporter's do.
    expect(JSON.parse(r.stdout).error.exitCode).toBe(1);
    const notes = annotations(r.stderr);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^::error title=AXIS run failed::beforeAll failed, no job was run:%0A/);
    expect(notes[0]).toContain('[REDACTED]');
    expect(r.stderr + r.stdout).not.toContain(SECRET);
    const xml = validJunit(join(dir, 'junit.xml'));
    expect(xml).toMatch(/<error type="usage" message="beforeAll failed, no job was run:&#10;/);
    expect(xml).toContain('[REDACTED]');
    expect(xml).not.toContain(SECRET);
  }, 60_000);

  it('axis reports merge: the same outputs', async () => {
    const dir = project({});
    const r = await axis(['reports', 'merge', 'no-such-blob', '--reporter', 'junit=merge.xml'], dir, GH);
    expect(r.code, r.stderr).toBe(2);
    expect(annotations(r.stdout)).toHaveLength(1);
    expect(validJunit(join(dir, 'merge.xml'))).toContain('<error type="usage"');
  }, 60_000);

  it('a failure after the report keeps the JUnit file of the run and adds no annotation', async () => {
    const dir = project({});
    // The job summary cannot be appended to a directory: the github reporter fails after its annotations.
    mkdirSync(join(dir, 'summary'));
    const env = { ...GH, GITHUB_STEP_SUMMARY: join(dir, 'summary') };
    const r = await axis(['run', '--reporter', 'junit=junit.xml'], dir, env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('Cannot append the job summary');
    expect(annotations(r.stdout)).toEqual([]);
    const xml = validJunit(join(dir, 'junit.xml'));
    expect(xml).toContain('<testcase classname="a" name="toy"');
    expect(xml).not.toContain('<error');
  }, 60_000);
});
