/**
 * Shared pieces of the hostile-input e2e tests: temp projects and `bin/axis.js` runs that can never hang
 * the suite (a run still going after its budget is killed with its process group and reported as such).
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

export const ROOT = join(import.meta.dirname, '../../..');
export const BIN = join(ROOT, 'bin/axis.js');

const created: string[] = [];
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

/**
 * Files that are not regular files, given where AXIS reads one (a tape, a baseline, a durations file): how
 * to make each at a path, and how AXIS's error names what it found. A FIFO would block a read forever and
 * /dev/zero never ends, so each must be refused before it is read.
 */
export const NOT_REGULAR_FILES = [
  {
    name: 'a FIFO',
    make: (path: string) => execFileSync('mkfifo', [path]),
    found: 'a FIFO (named pipe)',
  },
  {
    name: 'a symlink to /dev/zero',
    make: (path: string) => symlinkSync('/dev/zero', path),
    found: 'a character device',
  },
];

/** A fresh temp project (removed after the test file); objects become JSON, strings stay as they are. */
export function project(files: Record<string, unknown> = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-hostile-')));
  created.push(dir);
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The process was still running after `budgetMs` and was killed. */
  hung: boolean;
}

/** Runs `node bin/axis.js <args>` in `cwd`; kills it (and its group) after `budgetMs`. */
export function axis(
  args: string[],
  cwd: string,
  /** `stdoutFile`: stdout redirected to this file (then `stdout` is empty), as `axis … > file` does. */
  opts: { budgetMs?: number; env?: Record<string, string | undefined>; stdoutFile?: string } = {},
): Promise<Outcome> {
  const outFd = opts.stdoutFile === undefined ? undefined : openSync(opts.stdoutFile, 'w');
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', AXIS_DEBUG: '', ...opts.env },
    stdio: ['ignore', outFd ?? 'pipe', 'pipe'],
    detached: true,
  });
  if (outFd !== undefined) closeSync(outFd);
  let stdout = '';
  let stderr = '';
  let hung = false;
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => {
    hung = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, opts.budgetMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, hung });
    });
  });
}

export const hello = { name: 'Hello', prompt: 'Say hello', judge: [{ check: 'Agent said hello' }] };
export const config = { agents: ['claude-code'] };
