/**
 * Help and version text go straight to the descriptor when the output is a pipe or a file, without
 * making Node's stream for it (src/cli/std-output.ts): the same text, the same exit codes and the same
 * failures as through the stream, and a terminal still gets help folded to its width.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../unit/exec/helpers.js';
import { axis, BIN, buildDist } from '../run/helpers.js';
import { tmuxServer } from '../run/tmux.js';

let dir = '';
let preload = '';
beforeAll(() => {
  buildDist();
  dir = mkdtempSync(join(tmpdir(), 'axis-help-output-'));
  // Says on fd 3 at exit whether `net` was loaded: making a pipe's stream is what loads it.
  preload = join(dir, 'net-probe.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeSync(3, String(process.moduleLoadList.includes('NativeModule net'))));\n",
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `node [-r preload] bin/axis.js <args>` with stdout and stderr on pipes; `readerGone` closes the
 * reading end of stdout's pipe at once, as `| head` does once it has read enough.
 */
function run(
  args: string[],
  opts: { probe?: boolean; readerGone?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; netLoaded: string }> {
  const child = spawn(process.execPath, [...(opts.probe ? ['-r', preload] : []), BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let netLoaded = '';
  if (opts.readerGone) child.stdout!.destroy();
  else child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (netLoaded += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, netLoaded }));
  });
}

/** The same with stdout on a file (or device) at `path`, through the shell's redirection. */
function runTo(args: string[], path: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn('/bin/sh', ['-c', `exec "$0" "$@" > "${path}"`, process.execPath, BIN, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('help and version into a pipe or a file', () => {
  it.each([[['--help']], [['--version']], [['run', '--help']], [['help', 'baseline', 'set']]])(
    'axis %j: the text through a pipe is the text in a file, and no stream is made for it',
    async (args) => {
      const piped = await run(args, { probe: true });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stderr).toBe('');
      expect(piped.netLoaded).toBe('false');
      const file = join(dir, 'out.txt');
      const filed = await runTo(args, file);
      expect(filed.code, filed.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
      expect(piped.stdout.length).toBeGreaterThan(5);
    },
  );

  it('axis with no command: its help on stderr, exit 1, as before', async () => {
    const r = await run([], { probe: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: axis \[options\] \[command\]\n/);
    expect(r.netLoaded).toBe('false');
  });

  it('a command that prints its result makes the stream, and its error handler is attached then', async () => {
    const r = await axis(['agents', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBeTruthy();
    // Written through the stream made on first use: the failure is said once, and the exit code is 1.
    const full = await runTo(['agents', '--json'], '/dev/full');
    expect(full.code, full.stderr).toBe(1);
    expect(full.stderr).toBe('axis: could not write to stdout: no space left on the device\n');
  });

  it('a reader that went away: exit 0 and nothing said, as through the stream', async () => {
    for (const args of [['--help'], ['--version'], ['run', '--help']]) {
      const r = await run(args, { readerGone: true });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
    }
  });

  it('a full disk: exit 1 saying stdout could not be written', async () => {
    for (const args of [['--help'], ['--version']]) {
      const r = await runTo(args, '/dev/full');
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toBe('axis: could not write to stdout: no space left on the device\n');
    }
  });
});

describe('help in a terminal', () => {
  const tmux = tmuxServer('help');
  it('is folded to the terminal width, as commander does for a terminal', async () => {
    const cmd = `${process.execPath} ${BIN} run --help; echo "EXIT=$?"; sleep 600`;
    tmux('new-session', '-d', '-s', 'help', '-x', '60', '-y', '200', '-c', dir, cmd);
    const screen = () => tmux('capture-pane', '-p', '-t', 'help', '-S', '-200');
    expect(await waitFor(() => screen().includes('EXIT='), 20_000)).toBe(true);
    const text = screen();
    expect(text).toContain('EXIT=0');
    // In a pipe this description is one 80-column line; at 60 columns commander folds it.
    expect(text).toContain(
      'Run every scenario against every agent in isolated\nworkspaces and write a report',
    );
    const piped = await run(['run', '--help']);
    expect(piped.stdout).toContain(
      'Run every scenario against every agent in isolated workspaces and write a report\n',
    );
  });
});
