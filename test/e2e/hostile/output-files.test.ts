/**
 * Files named on the command line for AXIS to write (`axis badge -o`, `--reporter json=…`/`junit=…`):
 * a directory is refused up front with exit 2, and a device or a symlink is written through, as a shell
 * redirection would, never replaced by a regular file.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { axis, project } from './helpers.js';

checkLeaks();

const files = {
  'axis.config.json': { agents: [{ agent: 'command', name: 'a', command: 'echo', args: ['hi'] }] },
  'scenarios/hello.json': { name: 'Hello', prompt: 'hi', checks: [{ result_matches: 'hi' }] },
};
let dir: string;

beforeAll(async () => {
  dir = project(files);
  const r = await axis(['run'], dir, { budgetMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
}, 90_000);

describe('axis badge -o', () => {
  test('a directory is refused with exit 2, naming it', async () => {
    mkdirSync(join(dir, 'out'));
    const r = await axis(['badge', '-o', 'out'], dir);
    expect(r.stderr).not.toMatch(/Internal error|bug in AXIS/);
    expect(r.stderr).toContain('-o out: a directory; expected a file to write');
    expect(r.code).toBe(2);
  });

  test('a symlink to /dev/null stays that symlink', async () => {
    symlinkSync('/dev/null', join(dir, 'null.svg'));
    const r = await axis(['badge', '-o', 'null.svg'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(dir, 'null.svg')).isSymbolicLink()).toBe(true);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  test('a symlink to a file stays a symlink; the file it points at gets the badge', async () => {
    mkdirSync(join(dir, 'site'));
    symlinkSync('site/badge.svg', join(dir, 'badge.svg'));
    const r = await axis(['badge', '-o', 'badge.svg'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(dir, 'badge.svg')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'site/badge.svg'), 'utf8')).toMatch(/^<svg/);
  });
});

describe('axis run --reporter <name>=<directory>', () => {
  test.each(['json', 'junit'])('%s: refused before any job runs, exit 2', async (name) => {
    const fresh = project(files);
    mkdirSync(join(fresh, 'out'));
    const r = await axis(['run', '--reporter', `${name}=out`], fresh, { budgetMs: 60_000 });
    expect(r.stderr).toContain(`--reporter ${name}=out: a directory; expected a file to write`);
    expect(r.code).toBe(2);
    expect(existsSync(join(fresh, '.axis/reports'))).toBe(false);
  });
});

describe('axis run --reporter <name>=<file>/<name>: a file where a folder must be', () => {
  test.each(['json', 'junit'])('%s: refused before any job runs, exit 2, naming the file', async (name) => {
    const fresh = project(files);
    const r = await axis(['run', '--reporter', `${name}=axis.config.json/out`], fresh, { budgetMs: 60_000 });
    expect(r.stderr).toContain(
      `--reporter ${name}=axis.config.json/out: axis.config.json is a file, not a folder; expected a path to write`,
    );
    expect(r.stderr).not.toMatch(/EEXIST|Internal error/);
    expect(r.code).toBe(2);
    expect(existsSync(join(fresh, '.axis/reports'))).toBe(false);
  });
});

describe('axis run --reporter <name>=<stdout itself>', () => {
  // A document written to stdout by its name is stdout's alone: the terminal lines go to stderr, as
  // for `--json`, whether stdout is named /dev/stdout, /proc/self/fd/1 or by the file it is redirected to.
  test.each(['/dev/stdout', '/proc/self/fd/1'])(
    'json=%s: stdout holds the JSON document only',
    async (out) => {
      const fresh = project(files);
      const r = await axis(['run', '--reporter', `json=${out}`], fresh, { budgetMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { reportId?: string; results?: unknown[] };
      expect(doc.results).toHaveLength(1);
      expect(r.stderr).toMatch(/✓ hello +a +completed/);
      expect(r.stderr).toContain('.axis/reports/');
    },
  );

  test('junit=<the file stdout is redirected to>: the file holds the XML only', async () => {
    const fresh = project(files);
    const file = join(fresh, 'out.xml');
    const r = await axis(['run', '--reporter', `junit=${file}`], fresh, {
      budgetMs: 60_000,
      stdoutFile: file,
    });
    expect(r.code, r.stderr).toBe(0);
    const xml = readFileSync(file, 'utf8');
    expect(xml.startsWith('<?xml')).toBe(true);
    expect(xml.trimEnd().endsWith('</testsuites>')).toBe(true);
    expect(r.stderr).toMatch(/✓ hello +a +completed/);
  });

  test('a json file that is not stdout leaves the terminal lines on stdout', async () => {
    const fresh = project(files);
    const r = await axis(['run', '--reporter', 'json=out.json'], fresh, { budgetMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ hello +a +completed/);
    expect(JSON.parse(readFileSync(join(fresh, 'out.json'), 'utf8'))).toHaveProperty('results');
  });
});

describe('axis run --reporter: two outputs naming one file', () => {
  test('spelled differently (relative and absolute): refused before any job runs, exit 2', async () => {
    const fresh = project(files);
    const r = await axis(
      ['run', '--reporter', 'junit=out.xml', '--reporter', `json=${join(fresh, 'out.xml')}`],
      fresh,
      { budgetMs: 60_000 },
    );
    expect(r.stderr).toContain(`junit=out.xml writes the same file; give each output its own file`);
    expect(r.code).toBe(2);
    expect(existsSync(join(fresh, '.axis/reports'))).toBe(false);
    // The first output named keeps the file, with the failure (an earlier run's file would look current).
    expect(readFileSync(join(fresh, 'out.xml'), 'utf8')).toContain('message="--reporter json=');
  });
});
