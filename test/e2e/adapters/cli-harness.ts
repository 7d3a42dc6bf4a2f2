/**
 * Runs a built-in adapter with its real CLI against the simulator in a child process: inside a
 * loopback-only network namespace (`unshare -n`) when permitted, so nothing but 127.0.0.1 is reachable.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import type { ResolvedAgent } from '../../../src/config/types.js';
import type { AdapterRunContext } from '../../../src/adapters/types.js';
import type { SimEvent, Tape } from '../../../src/sim/index.js';
import type { Transcript } from '../../../src/transcript/model.js';
import { ROOT } from './helpers.js';
import { NO_RELAUNCH_ENV } from '../../helpers/fast-start.js';

const RUNNER = join(ROOT, 'test/e2e/adapters/cli-runner.mjs');

let netns: boolean | undefined;
export function netnsAvailable(): boolean {
  netns ??= spawnSync('unshare', ['-n', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' }).status === 0;
  return netns;
}

export function cliInstalled(bin: string): boolean {
  return existsSync(join(ROOT, 'node_modules/.bin', bin));
}

export interface CliCase {
  agent: ResolvedAgent;
  tape: Tape;
  prompt: string;
  timeoutMs: number;
  maxRetries?: number;
  env?: Record<string, string>;
  mcpServers?: AdapterRunContext['mcpServers'];
  skills?: AdapterRunContext['skills'];
  /** Files written into the job home before the run (relative path → content). */
  homeFiles?: Record<string, string>;
  /** Report the job home's file names. */
  listHome?: boolean;
  /** false: do not point the adapter at the simulator (its provider env stays empty). */
  providerEnv?: boolean;
  /** Strings to look for in the request bodies the CLI sends to the model (see `needleHits`). */
  needles?: string[];
  /** Keep Gemini's and Qwen's self-relaunch (skipped by default: test/helpers/fast-start.ts). */
  relaunch?: boolean;
}

export interface CliReport {
  transcript: Transcript;
  wallMs: number;
  files: Record<string, string>;
  homeFiles: string[];
  leftovers: number[];
  rawLines: number;
  usageUpdates: number;
  stderr: string;
  requests: Array<{
    path: string;
    status: number;
    answer: { kind: string };
    summary: string;
    tools: string[];
    model?: string;
  }>;
  simEvents: SimEvent[];
  /** For each of `needles`, how many request bodies contained it. */
  needleHits: Record<string, number>;
}

export async function runCliCase(c: CliCase): Promise<CliReport> {
  const dir = mkdtempSync(join(tmpdir(), 'axis-adapter-case-'));
  const file = join(dir, 'case.json');
  const env = { ...(c.relaunch ? {} : NO_RELAUNCH_ENV), ...c.env };
  writeFileSync(file, JSON.stringify({ ...c, env, netns: netnsAvailable() }));
  const [cmd, args] = netnsAvailable()
    ? ['unshare', ['-n', process.execPath, RUNNER, file]]
    : [process.execPath, [RUNNER, file]];
  const child = spawn(cmd, args as string[], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    cwd: ROOT,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const guard = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }, c.timeoutMs + 30_000);
  await new Promise((r) => child.on('close', r));
  clearTimeout(guard);
  rmSync(dir, { recursive: true, force: true });
  let report: CliReport & { setupError?: string };
  try {
    report = JSON.parse(out) as CliReport & { setupError?: string };
  } catch {
    throw new Error(`adapter runner failed: ${err.slice(-3000) || out.slice(-3000)}`);
  }
  if (report.setupError) throw new Error(report.setupError);
  return report;
}

/** A compact description of a run for assertion messages. */
export function explain(r: CliReport): string {
  const t = r.transcript;
  return JSON.stringify(
    {
      error: t.error,
      exitCode: t.exitCode,
      result: t.result,
      events: t.events
        .map((e) => ({ ...e, ...(e.kind === 'system' ? { data: undefined } : {}) }))
        .slice(0, 30),
      requests: r.requests,
      stderr: r.stderr.slice(-1500),
      files: Object.keys(r.files),
    },
    null,
    1,
  ).slice(0, 8000);
}

export const toolCalls = (t: Transcript) => t.events.filter((e) => e.kind === 'tool_call');
export const toolResults = (t: Transcript) => t.events.filter((e) => e.kind === 'tool_result');

/** Tapes shared by the per-CLI tests. */
export const PROMPT = 'Create out.txt containing hello.';
export const FINAL = 'Done: out.txt holds hello.';
export const successTape: Tape = {
  name: 'write a file',
  turns: [{ text: 'Creating the file.', tools: [{ shell: 'echo hello > out.txt && ls' }] }, { text: FINAL }],
};
export const failingToolTape: Tape = {
  name: 'failing tool',
  turns: [{ tools: [{ shell: 'ls /nonexistent-axis-dir' }] }, { text: 'The command failed.' }],
};
export const authFaultTape: Tape = { name: 'rejected key', turns: [{ fault: { status: 401 } }] };
export const hangTape: Tape = { name: 'hang', turns: [{ text: 'Thinking…', delay_ms: 120_000 }] };

/** An MCP tool call through the fixture server declared as `docs`, then final text. */
export const mcpTape: Tape = {
  name: 'mcp call',
  turns: [
    { tools: [{ mcp: { server: 'docs', tool: 'echo', args: { text: 'ping' } } }] },
    { text: 'MCP answered.' },
  ],
};
export const MCP_SERVERS: AdapterRunContext['mcpServers'] = {
  docs: {
    type: 'stdio',
    command: process.execPath,
    args: [join(ROOT, 'test/fixtures/mcp-server/server.mjs')],
    env: { AXIS_MCP_TAG: 'from-env' },
  },
};
/**
 * The demo skill, copied to a temp dir with a `.git` and a `node_modules` folder added (git cannot store
 * those in the fixture): adapters must copy the skill without them.
 */
function demoSkill(): AdapterRunContext['skills'] {
  const dir = join(mkdtempSync(join(tmpdir(), 'axis-skill-')), 'axis-demo');
  cpSync(join(ROOT, 'test/fixtures/skills/axis-demo'), dir, { recursive: true });
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git/HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(join(dir, 'node_modules/dep'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/dep/index.js'), '');
  // After the test file (a vitest fork is ended without its 'exit' handlers running: those leaked a
  // dir per test file and run into the temp dir).
  afterAll(() => rmSync(dirname(dir), { recursive: true, force: true }));
  return [{ name: 'axis-demo', dir }];
}
export const SKILLS = demoSkill();
