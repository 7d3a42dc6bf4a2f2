// Commander's own usage errors (unknown option, missing value, a value outside its choices, an unknown
// command) exit 2 like every other bad flag, and with --json stdout still holds one { error } document.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';

let dir: string;
beforeAll(() => {
  buildDist();
  dir = mkdtempSync(join(tmpdir(), 'axis-usage-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('usage errors', () => {
  it.each([
    [['run', '--bogus'], "error: unknown option '--bogus'"],
    [['run', '--runs'], "error: option '--runs <n>' argument missing"],
    [['init', '--format', 'yaml'], "error: option '--format <format>' argument 'yaml' is invalid"],
    [['nosuchcmd'], "error: unknown command 'nosuchcmd'"],
    [['reports', 'merge', '--bogus'], "error: unknown option '--bogus'"],
    // The last value used to win silently: with two shards given, one shard of the run never ran.
    [
      ['run', '--shard', '1/4', '--shard', '2/4'],
      "error: option '--shard <k/n>' given twice (1/4, then 2/4): give it once",
    ],
    [
      ['validate', '--profile=a', '--profile', 'b'],
      "error: option '--profile <name>' given twice (a, then b): give it once",
    ],
  ])('axis %j: the message on stderr, exit 2, nothing done', async (args, message) => {
    const r = await axis(args, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('(run with --help for usage)');
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--json: stdout holds one { error } document of kind usage', async () => {
    for (const args of [
      ['run', '--json', '--bogus'],
      ['run', '--json', '--runs'],
      ['validate', '--json', '--profile'],
    ]) {
      const r = await axis(args, dir);
      expect(r.code, args.join(' ')).toBe(2);
      const doc = JSON.parse(r.stdout) as { error: { message: string; exitCode: number; kind: string } };
      expect(doc.error.exitCode).toBe(2);
      expect(doc.error.kind).toBe('usage');
      expect(r.stderr).toContain(`error: ${doc.error.message}`);
      expect(doc.error.message).not.toMatch(/^error:/);
    }
  });

  it('help and --version still exit 0; a bare `axis` still shows help', async () => {
    for (const args of [['--help'], ['run', '--help'], ['--version'], ['baseline', 'set', '--help']]) {
      const r = await axis(args, dir);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).not.toBe('');
    }
    const bare = await axis([], dir);
    expect(bare.code).toBe(1);
    expect(bare.stdout + bare.stderr).toContain('Usage: axis');
  });

  it("help states -n's real default (docs/cli.md): reports lists every report, history the last 20", async () => {
    const reports = await axis(['reports', '--help'], dir);
    expect(reports.stdout.replace(/\s+/g, ' ')).toContain(
      '-n, --limit <count> list: how many reports to show (default: every report)',
    );
    const history = await axis(['history', '--help'], dir);
    expect(history.stdout.replace(/\s+/g, ' ')).toContain(
      '-n, --limit <count> how many recent reports (default 20)',
    );
  });
});
