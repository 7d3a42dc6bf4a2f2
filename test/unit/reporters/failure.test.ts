import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportFailure } from '../../../src/reporters/failure.js';
import type { Screen } from '../../../src/reporters/index.js';
import { AxisError } from '../../../src/util/errors.js';

const XSD = join(import.meta.dirname, '../../fixtures/junit/junit-10.xsd');
const dir = mkdtempSync(join(tmpdir(), 'axis-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function screen(env: Record<string, string>): Screen & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env,
    cwd: dir,
  };
}

describe('reportFailure', () => {
  it('masks the secrets of the environment and neutralises workflow commands in both outputs', async () => {
    const s = screen({ GITHUB_ACTIONS: 'true', DEPLOY_TOKEN: 'tok-abcdef-123456' });
    const message =
      'clone of https://x:tok-abcdef-123456@git.example failed:\n::add-mask::oops\r\x1b[31m100%';
    await reportFailure({ reporter: ['junit=r.xml'], json: false }, new AxisError(message), 1, s);
    expect(s.out).toEqual([
      '::error title=AXIS run failed::clone of https://x:[REDACTED]@git.example failed:%0A::add-mask::oops%0D[31m100%25\n',
    ]);
    const file = join(dir, 'r.xml');
    execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
    const xml = readFileSync(file, 'utf8');
    expect(xml).not.toContain('tok-abcdef-123456');
    expect(xml).toContain('<property name="exit_code" value="1"/>');
    expect(xml).toMatch(
      /<testcase classname="AXIS" name="clone of https:\/\/x:\[REDACTED\]@git\.example failed:"/,
    );
  });

  it('says an internal error is a bug; puts the annotation on stderr when --json holds stdout', async () => {
    const s = screen({});
    await reportFailure({ reporter: ['github'], json: true }, new Error('boom'), 1, s);
    expect(s.out).toEqual([]);
    expect(s.err).toEqual(['::error title=AXIS run failed::Internal error (a bug in AXIS): boom\n']);
  });

  it('a bad --reporter value is the error: the valid outputs beside it still say so', async () => {
    const s = screen({ GITHUB_ACTIONS: 'true' });
    const err = new AxisError('--reporter: unknown reporter "x"', { exitCode: 2 });
    await reportFailure({ reporter: ['x', 'junit=bad.xml'], json: false }, err, 2, s);
    expect(s.out).toEqual(['::error title=AXIS run failed::--reporter: unknown reporter "x"\n']);
    expect(readFileSync(join(dir, 'bad.xml'), 'utf8')).toContain('message="--reporter: unknown reporter');
  });

  it('the job summary section drops control characters and lists at most 50 lines of the message', async () => {
    const file = join(dir, 'summary.md');
    const s = screen({ GITHUB_STEP_SUMMARY: file });
    const problems = Array.from({ length: 53 }, (_, i) => `  scenarios/s${i}.json: bad \x1b[31mred`);
    const err = new AxisError(`Invalid configuration (53 problems):\n${problems.join('\n')}`, {
      exitCode: 2,
    });
    await reportFailure({ reporter: ['github'], json: false }, err, 2, s);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '## AXIS run failed (exit code 2)',
      '',
      'Invalid configuration (53 problems):',
      '',
    ]);
    expect(lines[4]).toBe('- scenarios/s0.json: bad \\[31mred');
    expect(lines.filter((l) => l.startsWith('- scenarios/'))).toHaveLength(50);
    expect(lines.at(-3)).toBe('- … and 3 more (in the log)');
  });

  it('writes nothing outside GitHub Actions without github or junit', async () => {
    const s = screen({});
    await reportFailure({ reporter: ['list'], json: false }, new AxisError('nope'), 2, s);
    expect([...s.out, ...s.err]).toEqual([]);
  });

  it('a bare junit: a report folder of its own under the .axis of the current folder, without a config', async () => {
    const cwd = join(dir, 'bare');
    mkdirSync(cwd);
    const s = { ...screen({}), cwd };
    await reportFailure({ reporter: ['junit'], json: false }, new AxisError('nope'), 2, s);
    const [id, ...more] = readdirSync(join(cwd, '.axis/reports'));
    expect(more).toEqual([]);
    expect(s.err).toEqual([`JUnit report: .axis/reports/${id}/junit.xml\n`]);
    expect(readFileSync(join(cwd, '.axis/reports', id!, 'junit.xml'), 'utf8')).toContain('message="nope"');
  });

  it('a bare junit whose report folder cannot be made says why on stderr', async () => {
    const cwd = join(dir, 'blocked');
    mkdirSync(cwd);
    writeFileSync(join(cwd, '.axis'), 'a file\n');
    const s = { ...screen({}), cwd };
    await reportFailure({ reporter: ['junit'], json: false }, new AxisError('nope'), 2, s);
    expect(s.err).toHaveLength(1);
    expect(s.err[0]).toMatch(
      /^--reporter junit: cannot write the JUnit file: Cannot create a report in .*is a file, not a directory/,
    );
  });
});
