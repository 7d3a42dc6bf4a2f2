/**
 * Every command with --json answers a usage error (unknown option, missing value, missing argument, too
 * many arguments, a repeated option) with exit 2 and stdout holding one `{ "error" }` document of kind
 * usage, nothing else. --json counts as commander reads it for the command that failed: not as another
 * option's value, not after `--`, not on a command that has no --json.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';

let dir: string;
const ENV = { GITHUB_ACTIONS: '' };
beforeAll(() => {
  buildDist();
  dir = mkdtempSync(join(tmpdir(), 'axis-usage-json-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each command with --json: its path, what it needs to get past its required options, a value option. */
const COMMANDS: [string, string[], string][] = [
  ['agents', [], ''],
  ['validate', [], '--profile'],
  ['run', [], '--runs'],
  ['score', [], '--concurrency'],
  ['reports', [], '--limit'],
  ['reports merge', ['x.blob'], '--config'],
  ['compare', [], '--variants'],
  ['baseline set', [], '--from'],
  ['baseline list', [], '--config'],
  ['baseline show', [], '--config'],
  ['baseline compare', [], '--report'],
  ['history', [], '--limit'],
  ['sim serve', ['-t', 'tape.json'], '--port'],
  ['sim record', ['-u', 'http://127.0.0.1:9', '-o', 'tape.json'], '--port'],
  ['sim replay', ['-t', 'tape.json'], '--port'],
];

/** stdout is exactly one { error } document of kind usage whose message stderr printed; exit 2. */
function expectJsonUsage(r: { code: number | null; stdout: string; stderr: string }, what: string): void {
  expect(r.code, `${what}\n${r.stderr}`).toBe(2);
  const doc = JSON.parse(r.stdout) as { error: { message: string; exitCode: number; kind: string } };
  expect(Object.keys(doc), what).toEqual(['error']);
  expect(doc.error, what).toMatchObject({ exitCode: 2, kind: 'usage' });
  expect(r.stderr, what).toContain(`error: ${doc.error.message}`);
  expect(`${JSON.stringify(doc, null, 2)}\n`, what).toBe(r.stdout);
}

/** `axis <path> --help`: its subcommands, and whether it has --json. */
async function helpOf(path: string[]): Promise<{ subs: string[]; json: boolean }> {
  const r = await axis([...path, '--help'], dir, ENV);
  const commands = r.stdout.split(/\nCommands:\n/)[1] ?? '';
  const subs = [...commands.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!).filter((n) => n !== 'help');
  return { subs, json: /^\s+--json\b/m.test(r.stdout) };
}

describe('usage errors of the commands with --json', () => {
  it('the table below lists every command `axis --help` shows with --json', async () => {
    const found: string[] = [];
    const visit = async (path: string[]): Promise<void> => {
      const { subs, json } = await helpOf(path);
      if (json) found.push(path.join(' '));
      for (const sub of subs) await visit([...path, sub]);
    };
    await visit([]);
    expect(found.sort()).toEqual(COMMANDS.map(([c]) => c).sort());
  }, 120_000);

  it.each(COMMANDS)(
    'axis %s: unknown option, missing value, --json before or after',
    async (cmd, req, valued) => {
      const path = cmd.split(' ');
      const lines = [
        [...path, ...req, '--json', '--bogus'],
        [...path, ...req, '--bogus', '--json'],
        ...(valued ? [[...path, ...req, '--json', valued]] : []),
      ];
      for (const args of lines) expectJsonUsage(await axis(args, dir, ENV), args.join(' '));
      expect(readdirSync(dir)).toEqual([]);
    },
    60_000,
  );

  it.each([
    [['reports', 'merge', '--json']], // missing argument
    [['agents', '--json', 'extra']], // too many arguments
    [['baseline', 'list', 'extra', '--json']],
    [['run', '--runs', '1', '--runs', '3', '--json']], // repeated: commander stopped before --json
    [['sim', 'serve', '--json']], // a required option not given
  ])('axis %j: the { error } document', async (args) => {
    expectJsonUsage(await axis(args, dir, ENV), args.join(' '));
  });

  it.each([
    [['run', '-s', '--json', '--bogus']], // --json is the scenario
    [['run', '--bogus', '--', '--json']], // after --: an argument
    [['badge', '--json']], // badge has no --json: that is the error
    [['init', '--json']],
    [['baseline', 'delete', '--json']],
    [['--json', 'run', '--bogus']],
    [['reports', '--json', 'merge', 'x.blob', '--bogus']], // reports' --json, not merge's
  ])('axis %j: no --json was given to the failed command: stdout stays empty', async (args) => {
    const r = await axis(args, dir, ENV);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: /);
  });
});
