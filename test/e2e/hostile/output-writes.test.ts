/**
 * What the CLI writes outside the report store when the disk is full: stdout redirected to a full
 * device (`axis run --json > out.json` on a full disk; /dev/full here) and `-o` files. The real CLI, real
 * file descriptors. Each must fail loudly (exit ≠ 0, a sentence naming what could not be written), never
 * with a stack trace or "Internal error", and the report itself must still be saved.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidReport } from '../../helpers/report-schema.js';
import { AGENT, tape } from '../compare/helpers.js';
import { axis, BIN, buildDist } from '../run/helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

const T = 60_000;
const FULL = '/dev/full';
let dir = '';

const write = (rel: string, content: unknown) => writeIn(dir, rel, content);

/** `node bin/axis.js <args>` with stdout on `stdoutPath`; resolves with the exit code and stderr. */
function axisToFile(args: string[], stdoutPath: string): Promise<{ code: number | null; stderr: string }> {
  const fd = openSync(stdoutPath, 'w');
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-output-writes-')));
  write('axis.config.json', {
    scenarios: './scenarios',
    agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
    settings: { simulate: true },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
  write('scenarios/a.json', { name: 'a', prompt: 'Write out.txt', judge: [{ check: 'written' }] });
  write('tapes/a.json', tape(9));
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NO_BUG = /Internal error|This is a bug|\n\s+at /;

describe.skipIf(!existsSync(FULL))('writes outside the report store on a full disk', () => {
  it(
    'axis run --json with stdout on a full disk: exit 1 saying stdout could not be written; the report is saved',
    async () => {
      const r = await axisToFile(['run', '--json'], FULL);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/could not write to stdout: no space left on the device/);
      expect(r.stderr).not.toMatch(NO_BUG);
      const reports = join(dir, '.axis/reports');
      const m = expectValidReport(join(reports, readdirSync(reports)[0]!));
      expect(m.incomplete ?? false).toBe(false);
      expect(m.summary.completed).toBe(1);
    },
    T,
  );

  it(
    'axis badge -o on a full disk: exit 1 naming the file, no internal error',
    async () => {
      const r = await axis(['badge', '-o', FULL], dir);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`Cannot write ${FULL}: no space left on the device`);
      expect(r.stderr).not.toMatch(NO_BUG);
    },
    T,
  );
});
