/**
 * Runs a real agent CLI against the simulator: fresh temp HOME and workspace per run, stdin ignored,
 * detached process group with a wall-clock timeout. Uses a loopback-only network namespace
 * (`unshare -n`) when permitted, so nothing but 127.0.0.1 is reachable; otherwise runs on the host.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCli, SimEvent, SimRequestLog, Tape } from '../../../src/sim/index.js';
import { afterAll, beforeAll } from 'vitest';
import { NO_RELAUNCH_ENV } from '../../helpers/fast-start.js';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '../../..');
const RUNNER = join(here, 'runner.mjs');

let netns: boolean | undefined;
/** True when `unshare -n` works here (root or CAP_SYS_ADMIN, and `ip` exists). AXIS_SIM_E2E_NETNS=0 forces host mode. */
export function netnsAvailable(): boolean {
  if (process.env.AXIS_SIM_E2E_NETNS === '0') return false;
  netns ??= spawnSync('unshare', ['-n', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' }).status === 0;
  return netns;
}
export const MODE = (): 'netns' | 'host' => (netnsAvailable() ? 'netns' : 'host');

export function cliInstalled(cli: AgentCli): boolean {
  return existsSync(join(ROOT, 'node_modules/.bin', cli));
}

export function distBuilt(): boolean {
  return existsSync(join(ROOT, 'dist/sim/index.js'));
}

/** The arguments each CLI needs for a headless, permission-free run with JSON output. */
export function defaultArgs(cli: AgentCli, prompt: string): string[] {
  switch (cli) {
    case 'claude':
      return ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'];
    case 'codex':
      return [
        'exec',
        '--json',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        prompt,
      ];
    case 'gemini':
      return ['-p', prompt, '--output-format', 'stream-json', '--yolo', '-m', 'gemini-2.5-flash'];
    case 'qwen':
      return ['-p', prompt, '--output-format', 'stream-json', '--yolo', '--auth-type', 'openai'];
    case 'opencode':
      return ['run', '--format', 'json', prompt];
  }
}

export interface RunOptions {
  cli: AgentCli;
  tape: Tape;
  prompt?: string;
  /** Replaces the default arguments entirely. */
  args?: string[];
  /** Wall-clock limit for the CLI; it is killed (whole process group) after this. */
  timeoutMs?: number;
  /** Also kill it (whole process group) this long after the simulator served its first request. */
  killAfterFirstRequestMs?: number;
  maxRetries?: number;
  env?: Record<string, string>;
  /** Keep Gemini's and Qwen's self-relaunch (skipped by default: test/helpers/fast-start.ts). */
  relaunch?: boolean;
}

export interface RunResult {
  mode: 'netns' | 'host';
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** stdout lines that parse as JSON objects. */
  lines: Record<string, unknown>[];
  requests: SimRequestLog[];
  events: SimEvent[];
  workspace: string;
  home: string;
}

const runDirs: string[] = [];
/** Removes every run directory this file created (call from afterAll). */
export function cleanupRuns(): void {
  for (const d of runDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export async function runAgent(opts: RunOptions): Promise<RunResult> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `axis-sim-${opts.cli}-`)));
  runDirs.push(dir);
  const workspace = join(dir, 'ws');
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  mkdirSync(workspace);
  mkdirSync(home);
  mkdirSync(tmp);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const cfg = {
    cli: opts.cli,
    tape: opts.tape,
    args: opts.args ?? defaultArgs(opts.cli, opts.prompt ?? 'Do the task.'),
    workspace,
    home,
    timeoutMs,
    killAfterFirstRequestMs: opts.killAfterFirstRequestMs,
    maxRetries: opts.maxRetries,
    // CLIs write crash reports to the temp dir (Gemini): keep them inside the run.
    env: { TMPDIR: tmp, ...(opts.relaunch ? {} : NO_RELAUNCH_ENV), ...opts.env },
    netns: netnsAvailable(),
  };
  const cfgPath = join(dir, 'run.json');
  writeFileSync(cfgPath, JSON.stringify(cfg));
  const [cmd, args] = cfg.netns
    ? ['unshare', ['-n', process.execPath, RUNNER, cfgPath]]
    : [process.execPath, [RUNNER, cfgPath]];
  const child = spawn(cmd, args as string[], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  // The runner enforces the CLI's timeout; this one only guards against the runner itself hanging.
  const guard = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }, timeoutMs + 20_000);
  await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(guard);
  let parsed: Omit<RunResult, 'mode' | 'lines' | 'workspace' | 'home'> & { setupError?: string };
  try {
    parsed = JSON.parse(out);
  } catch {
    throw new Error(
      `runner failed (${cfg.netns ? 'netns' : 'host'}): ${err.slice(-2000) || out.slice(-2000)}`,
    );
  }
  if (parsed.setupError) throw new Error(parsed.setupError);
  const lines = parsed.stdout
    .split('\n')
    .map((l) => {
      try {
        const v: unknown = JSON.parse(l);
        return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    })
    .filter((v): v is Record<string, unknown> => v !== null);
  return { ...parsed, mode: cfg.netns ? 'netns' : 'host', lines, workspace, home };
}

/** A compact account of a run for assertion messages. */
export function explain(r: RunResult): string {
  const reqs = r.requests.map(
    (q) =>
      `${q.seq} ${q.method} ${q.path} → ${q.status} ${JSON.stringify(q.answer)} ${q.summary.slice(0, 80)}`,
  );
  return [
    `mode=${r.mode} exit=${r.exitCode} signal=${r.signal} timedOut=${r.timedOut} ${r.durationMs}ms`,
    'requests:',
    ...reqs,
    'events:',
    ...r.events.map((e) => `${e.type}: ${e.message}`),
    'stdout (tail):',
    r.stdout.slice(-3000),
    'stderr (tail):',
    r.stderr.slice(-1500),
  ].join('\n');
}

/** Message for a failed "tools still offered" check. */
export const STALE_TOOLS =
  'a tool the mapping relies on is no longer offered: refresh test/unit/sim/fixtures/offered-tools.json';

/** The per-file hooks every CLI suite needs: dist/ present, the mode logged, temp runs removed. */
export function simSuiteHooks(label: string): void {
  beforeAll(() => {
    if (!distBuilt()) throw new Error('dist/ is missing: run `npm run build` first');
    console.info(`[sim e2e] ${label} runs in mode: ${MODE()}`);
  });
  afterAll(cleanupRuns);
}
