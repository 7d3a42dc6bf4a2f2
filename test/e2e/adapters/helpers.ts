/**
 * Running one adapter for real in a fresh job workspace, the way the runner does: minimal env built by
 * buildAgentEnv, the adapter's provider variables pointed at a simulator when one is given.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedAgent } from '../../../src/config/types.js';
import type { AdapterRunContext, AgentAdapter } from '../../../src/adapters/types.js';
import { buildAgentEnv } from '../../../src/exec/env.js';
import { createWorkspace, removeWorkspace, type Workspace } from '../../../src/exec/workspace.js';
import type { TokenUsage, Transcript } from '../../../src/transcript/model.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const FIXTURES = join(ROOT, 'test/fixtures');

export function agentEntry(agent: string, extra: Partial<ResolvedAgent> = {}): ResolvedAgent {
  return { name: agent, agent, flags: {}, env: {}, skills: [], args: [], ...extra };
}

export interface RunOptions {
  agent: ResolvedAgent;
  prompt?: string;
  timeoutMs?: number;
  /** Values for the job env (e.g. the simulator's provider variables). */
  env?: Record<string, string>;
  mcpServers?: AdapterRunContext['mcpServers'];
  skills?: AdapterRunContext['skills'];
  signal?: AbortSignal;
  maxRetries?: number;
  auth?: AdapterRunContext['auth'];
  /** Prepare the workspace before the agent starts. */
  before?: (ws: Workspace) => Promise<void> | void;
  /** Keep the workspace for inspection by the caller (it must call `cleanup`). */
  keep?: boolean;
}

export interface RunOutput {
  transcript: Transcript;
  ws: Workspace;
  rawLines: string[];
  usage: TokenUsage[];
  stderr: string;
  /** Processes still running with a cwd inside the workspace (should be none). */
  leftovers: number[];
  cleanup: () => Promise<void>;
}

/** Pids of live processes whose cwd is inside `dir` (Linux /proc). */
export function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) out.push(Number(name));
    } catch {
      // gone or not ours
    }
  }
  return out;
}

export async function runAdapter(adapter: AgentAdapter, opts: RunOptions): Promise<RunOutput> {
  const ws = await createWorkspace({ prefix: `axis-adapter-${opts.agent.agent}-` });
  await opts.before?.(ws);
  const env = buildAgentEnv({ home: ws.home, tmpDir: ws.tmp, values: { ...opts.env, ...opts.agent.env } });
  const rawLines: string[] = [];
  const usage: TokenUsage[] = [];
  let stderr = '';
  const ctx: AdapterRunContext = {
    agent: opts.agent,
    prompt: opts.prompt ?? 'Do the task.',
    workDir: ws.work,
    homeDir: ws.home,
    tmpDir: ws.tmp,
    env,
    mcpServers: opts.mcpServers ?? {},
    skills: opts.skills ?? [],
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal ?? new AbortController().signal,
    onRawLine: (l) => rawLines.push(l),
    onUsage: (u) => usage.push(u),
    onStderr: (c) => (stderr += c),
  };
  if (opts.maxRetries !== undefined) ctx.maxRetries = opts.maxRetries;
  if (opts.auth) ctx.auth = opts.auth;
  const transcript = await adapter.run(ctx);
  const leftovers = processesIn(ws.root);
  const cleanup = async () => {
    await removeWorkspace(ws, () => {});
  };
  if (!opts.keep) await cleanup();
  return { transcript, ws, rawLines, usage, stderr, leftovers, cleanup };
}

export function toolCalls(t: Transcript) {
  return t.events.filter((e) => e.kind === 'tool_call');
}

export function toolResults(t: Transcript) {
  return t.events.filter((e) => e.kind === 'tool_result');
}
