/**
 * A run that fails before its reporters report (invalid config: exit 2; beforeAll: exit 1) still gives CI
 * its reason: one GitHub `::error` annotation, and a JUnit file with one testcase in error when
 * `--reporter junit=<file>` was asked for. A failure after the report keeps the report's outputs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

  it('under GitHub Actions the job summary says the run failed and why, masked and escaped', async () => {
    const hook = `echo ${SECRET}; echo '![x](http://127.0.0.1:9/x.png) <img src=x> **bold**'; exit 3`;
    const dir = project({}, { beforeAll: [{ action: 'run_script', command: hook }] });
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, 'an earlier step\n');
    const r = await axis(['run'], dir, { ...GH, GITHUB_STEP_SUMMARY: summary });
    expect(r.code, r.stderr).toBe(1);
    const md = readFileSync(summary, 'utf8');
    expect(md).toMatch(
      /^an earlier step\n## AXIS run failed \(exit code 1\)\n\nbeforeAll failed, no job was run:\n\n- /,
    );
    expect(md).toContain('- \\[REDACTED\\]\n');
    expect(md).toContain('!\\[x\\](http://127.0.0.1:9/x.png) &lt;img src=x&gt; \\*\\*bold\\*\\*');
    expect(md).not.toContain(SECRET);

    const bad = project({ runs: 'x' });
    const badSummary = join(bad, 'summary.md');
    const c = await axis(['run'], bad, { ...GH, GITHUB_STEP_SUMMARY: badSummary });
    expect(c.code, c.stderr).toBe(2);
    expect(readFileSync(badSummary, 'utf8')).toBe(
      '## AXIS run failed (exit code 2)\n\nInvalid configuration (1 problem):\n\n' +
        '- axis.config.json: settings.runs: expected an odd integer from 1 to 19, found "x"\n\n',
    );
  }, 60_000);

  it('a job summary that cannot be appended to is said on stderr; the exit code and annotation stay', async () => {
    const dir = project({ runs: 'x' });
    mkdirSync(join(dir, 'summary'));
    const r = await axis(['run'], dir, { ...GH, GITHUB_STEP_SUMMARY: join(dir, 'summary') });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `Cannot append the job summary to GITHUB_STEP_SUMMARY (${join(dir, 'summary')})`,
    );
    expect(annotations(r.stdout)).toHaveLength(1);
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

describe('a usage error from the flag parser (commander) gives the same outputs', () => {
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'axis-usage-outputs-'));
    dirs.push(dir);
    return dir;
  };

  // --reporter before the failing flag (commander parsed it) and after it (commander never got there).
  const [A, B] = [['--reporter', 'junit=out/a.xml'], ['--reporter=junit=b.xml']];
  it.each([
    [['run', ...A, '--bogus', ...B], "unknown option '--bogus'"],
    [['run', ...A, ...B, '--runs'], "option '--runs <n>' argument missing"],
    [['run', ...A, '--shard', '1/4', '--shard', '2/4', ...B], "option '--shard <k/n>' given twice"],
    [['reports', 'merge', 'x.blob', ...A, '--bogus', ...B], "unknown option '--bogus'"],
  ])(
    'axis %j: exit 2, one ::error annotation, both JUnit files',
    async (argv, message) => {
      const dir = fresh();
      const r = await axis(argv, dir, GH);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`error: ${message}`);
      const notes = annotations(r.stdout);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain(`::error title=AXIS run failed::${message}`);
      for (const file of ['out/a.xml', 'b.xml']) {
        const xml = validJunit(join(dir, file));
        const escaped = message.replaceAll('<', '&lt;').replaceAll('>', '&gt;');
        expect(xml).toContain(`<error type="usage" message="${escaped}`);
      }
    },
    60_000,
  );

  it('--reporter itself missing its value: the annotation, and the files of the values before it', async () => {
    const dir = fresh();
    const r = await axis(['run', '--reporter', 'junit=ok.xml', '--reporter'], dir, GH);
    expect(r.code, r.stderr).toBe(2);
    expect(annotations(r.stdout)).toEqual([
      "::error title=AXIS run failed::option '--reporter <name>' argument missing",
    ]);
    expect(validJunit(join(dir, 'ok.xml'))).toContain('errors="1"');
  }, 60_000);

  it("a --reporter that is another flag's value writes nothing; --json and json=<file> get the { error } document", async () => {
    const dir = fresh();
    // -s takes "--reporter" as its value, so junit=x.xml is a stray argument: no reporter was asked for.
    const stray = await axis(['run', '-s', '--reporter', 'junit=x.xml'], dir, GH);
    expect(stray.code, stray.stderr).toBe(2);
    expect(annotations(stray.stdout)).toHaveLength(1);
    expect(existsSync(join(dir, 'x.xml'))).toBe(false);

    const json = await axis(['run', '--json', '--reporter', 'json=err.json', '--bogus'], dir, GH);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({ exitCode: 2, kind: 'usage' });
    expect(annotations(json.stderr)).toHaveLength(1);
    const doc = JSON.parse(readFileSync(join(dir, 'err.json'), 'utf8'));
    expect(doc.error).toEqual({ message: "unknown option '--bogus'", exitCode: 2, kind: 'usage' });
  }, 60_000);

  it('commands without --reporter are left as they were: no annotation', async () => {
    const r = await axis(['validate', '--bogus'], fresh(), GH);
    expect(r.code).toBe(2);
    expect(annotations(r.stdout + r.stderr)).toEqual([]);
  }, 60_000);
});
