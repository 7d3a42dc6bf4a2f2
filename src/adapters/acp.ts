/**
 * `acp`: any Agent Client Protocol agent, by `command` (+ `args`), through the official SDK. One
 * session, one prompt. File-system requests are confined to the workspace; permission requests get
 * an allow option; the agent's process group is ended afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { signalGroup } from '../runner/groups.js';
import { LineSplitter } from '../runner/line-splitter.js';
import { withParentPid } from '../runner/contain.js';
import { containedLaunch } from '../runner/launch.js';
import { createAcpMapper } from '../transcript/acp.js';
import { classifyError } from '../transcript/classify-error.js';
import type { RunError, SystemEvent, TokenUsage, Transcript } from '../transcript/model.js';
import { ACP_PRESETS } from '../config/catalogue.js';
import { confinedPath, pickPermission, sliceLines } from './acp-fs.js';
import { presetHome } from './acp-presets.js';
import { authHint, envAuthMethod, isAuthRequired } from './acp-auth.js';
import { abortError, assemble, MAX_STDERR_BYTES, stderrSummary, writeFiles } from './base.js';
import { missingBinaryMessage, resolveBinary } from './binary.js';
import { acpMcpServers } from './mcp.js';
import { standardProviderEnv } from './provider-env.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';

const isWindows = process.platform === 'win32';
const KILL_GRACE_MS = 3000;
const CLIENT_INFO = { name: 'axis', version: '0.1.0' };

export interface AcpSpec {
  adapter: string;
  bin: string;
  binBase?: string;
  npmPackage?: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * ACP agents must take stdio MCP servers but take HTTP ones only when they announce
 * `agentCapabilities.mcpCapabilities.http`; sending one anyway would let the agent drop it unseen.
 */
function checkHttpMcp(init: unknown, servers: AdapterRunContext['mcpServers']): void {
  const http = Object.entries(servers).filter(([, s]) => s.type === 'http');
  const caps = (init as { agentCapabilities?: { mcpCapabilities?: { http?: boolean } } } | undefined)
    ?.agentCapabilities;
  if (http.length === 0 || caps?.mcpCapabilities?.http === true) return;
  const names = http.map(([n]) => JSON.stringify(n)).join(', ');
  throw new Error(
    `the agent does not announce HTTP MCP support (agentCapabilities.mcpCapabilities.http), so the http MCP server ${names} cannot be given to it; use a stdio server or another agent`,
  );
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === 'object' && 'message' in err)
    return String((err as { message: unknown }).message);
  return String(err);
}

type Stage = 'initialize' | 'authenticate' | 'session/new' | 'session/prompt';
type Outcome =
  | { kind: 'done' }
  | { kind: 'failed'; stage: Stage; err: unknown }
  | { kind: 'exited' }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

/** Runs one ACP agent for one prompt. Never rejects for agent-side failures. */
export async function runAcp(ctx: AdapterRunContext, spec: AcpSpec): Promise<Transcript> {
  const startedAt = Date.now();
  const mapper = createAcpMapper();
  const notes: SystemEvent[] = [];
  const command = resolveBinary(spec.bin, { path: spec.env.PATH, cwd: spec.binBase });
  if (!command) {
    return assemble(ctx, mapper.finish(), undefined, startedAt, {
      class: 'crash',
      message: missingBinaryMessage(spec.adapter, spec.bin, spec.npmPackage),
    });
  }
  if (ctx.signal.aborted) {
    return assemble(ctx, mapper.finish(), undefined, startedAt, abortError(ctx.signal.reason, undefined));
  }
  const root = await realpath(ctx.workDir);

  // The same containment as every other job process (PID namespace or tagged group, bwrap sandbox).
  const launch = containedLaunch(command, spec.args, spec.env, ctx.workDir, undefined, ctx.space);
  if ('error' in launch) {
    return assemble(ctx, mapper.finish(), undefined, startedAt, {
      class: 'crash',
      message: `Cannot start "${spec.bin}": ${errorText(launch.error)}`,
    });
  }
  let child: ChildProcess;
  try {
    child = spawn(launch.command, launch.args, {
      cwd: ctx.workDir,
      env: withParentPid(launch.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: !isWindows,
      windowsHide: true,
    });
  } catch (err) {
    return assemble(ctx, mapper.finish(), undefined, startedAt, {
      class: 'crash',
      message: `Cannot start "${spec.bin}": ${errorText(err)}`,
    });
  }
  const spawnError = await new Promise<Error | undefined>((res) => {
    child.once('spawn', () => res(undefined));
    child.once('error', (e) => res(e));
  });
  if (spawnError || child.pid === undefined) {
    return assemble(ctx, mapper.finish(), undefined, startedAt, {
      class: 'crash',
      message: `Cannot start "${spec.bin}": ${errorText(spawnError)}`,
    });
  }
  const pid = child.pid;
  child.on('error', () => {});
  child.stdin!.on('error', () => {});

  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    ctx.onStderr?.(text);
    stderr = (stderr + text).slice(-MAX_STDERR_BYTES);
  });
  let exitCode: number | null = null;
  let exitSignal: NodeJS.Signals | null = null;
  const closed = new Promise<void>((res) =>
    child.on('close', (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      res();
    }),
  );

  // Tap incoming messages for the raw log, then hand the bytes to the SDK.
  const splitter = new LineSplitter(
    8 * 1024 * 1024,
    (line, _cut, utf8) => line && ctx.onRawLine?.(line, utf8),
  );
  const tap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      splitter.push(Buffer.from(chunk));
      controller.enqueue(chunk);
    },
    flush() {
      splitter.end();
    },
  });
  const input = (Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>).pipeThrough(tap);
  const output = Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>;

  let lastUsage = '';
  const reportUsage = (): void => {
    if (!ctx.onUsage) return;
    const u: TokenUsage = mapper.usage();
    const key = `${u.input}/${u.output}/${u.cacheReadInput}`;
    if (key !== lastUsage) {
      lastUsage = key;
      ctx.onUsage(u);
    }
  };
  const note = (subtype: string, data: Record<string, unknown>): void => {
    notes.push({ kind: 'system', subtype, data, ts: Date.now(), tsSource: 'received' });
  };

  const app = acp
    .client({ name: 'axis' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      mapper.update(params as unknown as Parameters<typeof mapper.update>[0], Date.now());
      reportUsage();
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const optionId = pickPermission(params.options);
      note('permission', {
        tool: params.toolCall.title ?? params.toolCall.toolCallId,
        granted: optionId ?? null,
      });
      return optionId
        ? { outcome: { outcome: 'selected', optionId } }
        : { outcome: { outcome: 'cancelled' } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      const target = await confinedPath(params.path, root);
      if ('error' in target) {
        note('fs_refused', { method: 'fs/read_text_file', path: params.path });
        throw acp.RequestError.invalidParams({ path: params.path }, target.error);
      }
      const text = await readFile(target.path, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw acp.RequestError.invalidParams(
          { path: params.path },
          `cannot read file: ${err.code ?? err.message}`,
        );
      });
      return { content: sliceLines(text, params.line, params.limit) };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      const target = await confinedPath(params.path, root);
      if ('error' in target) {
        note('fs_refused', { method: 'fs/write_text_file', path: params.path });
        throw acp.RequestError.invalidParams({ path: params.path }, target.error);
      }
      await mkdir(dirname(target.path), { recursive: true });
      await writeFile(target.path, params.content);
      return {};
    });

  const connection = app.connect(acp.ndJsonStream(output, input));
  const agent = connection.agent;

  let stage: Stage = 'initialize';
  let authMethods: unknown;
  const newSession = () =>
    agent.request(acp.methods.agent.session.new, {
      cwd: ctx.workDir,
      mcpServers: acpMcpServers(ctx.mcpServers) as unknown as acp.McpServer[],
    });
  const converse = async (): Promise<void> => {
    const init = await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      clientInfo: CLIENT_INFO,
    });
    authMethods = (init as { authMethods?: unknown } | undefined)?.authMethods;
    stage = 'session/new';
    checkHttpMcp(init, ctx.mcpServers);
    const session = await newSession().catch(async (err: unknown) => {
      const methodId = isAuthRequired(err) ? envAuthMethod(authMethods, spec.env) : undefined;
      if (!methodId) throw err;
      stage = 'authenticate';
      note('authenticate', { method: methodId });
      await agent.request(acp.methods.agent.authenticate, { methodId });
      stage = 'session/new';
      return newSession();
    });
    stage = 'session/prompt';
    const response = await agent.request(acp.methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: ctx.prompt }],
    });
    mapper.promptResponse(response, Date.now());
    reportUsage();
  };

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Outcome>((res) => {
    if (ctx.timeoutMs > 0 && Number.isFinite(ctx.timeoutMs)) {
      timer = setTimeout(() => res({ kind: 'timeout' }), ctx.timeoutMs);
    }
    onAbort = () => res({ kind: 'aborted' });
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  const conversation = converse().then(
    (): Outcome => ({ kind: 'done' }),
    (err: unknown): Outcome => ({ kind: 'failed', stage, err }),
  );
  const exited = closed.then(async (): Promise<Outcome> => {
    // The last response may still be in the SDK's queue when the pipes close.
    const late = await Promise.race([conversation, new Promise<undefined>((r) => setTimeout(r, 300))]);
    return late ?? { kind: 'exited' };
  });
  let outcome = await Promise.race([conversation, exited, stopped]);
  if (timer) clearTimeout(timer);
  if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
  if (outcome.kind === 'failed') {
    // A request that failed because the agent died is a crash, not an error the agent reported.
    const died = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 300)),
    ]);
    if (died) outcome = { kind: 'exited' };
  }
  const cleanExit = outcome.kind === 'done';

  // Teardown: close the connection, end stdin, then the whole process group.
  connection.close();
  child.stdin!.end();
  await endGroup(pid, closed);

  const durationMs = Date.now() - startedAt;
  let error: RunError | undefined;
  switch (outcome.kind) {
    case 'done':
      break;
    case 'timeout':
      error = { class: 'timeout', message: `Agent timed out after ${Math.round(durationMs / 100) / 10}s` };
      break;
    case 'aborted':
      error = abortError(ctx.signal.reason, undefined);
      break;
    case 'exited': {
      const why = stderrSummary(stderr);
      const how = exitCode !== null ? `exited with code ${exitCode}` : `was killed by ${exitSignal}`;
      error = {
        class: 'crash',
        message: `${spec.adapter} agent ${how} before the prompt finished${why ? `: ${why}` : ''}`,
      };
      break;
    }
    case 'failed': {
      const err = outcome.err as { code?: number; message?: string; data?: unknown };
      if (outcome.stage === 'session/prompt') {
        mapper.promptError(err, Date.now());
      } else {
        const hint = isAuthRequired(err) ? authHint(authMethods) : '';
        const message = `${spec.adapter} agent failed at ${outcome.stage}: ${errorText(err)}${hint}`;
        error = { class: isAuthRequired(err) ? 'auth' : classifyError({ message }, 'crash'), message };
      }
      break;
    }
  }
  const parsed = mapper.finish();
  parsed.events.push(...notes);
  parsed.events.sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0));
  const proc = {
    exitCode: cleanExit ? 0 : exitCode,
    signal: cleanExit ? null : exitSignal,
    timedOut: outcome.kind === 'timeout',
    aborted: outcome.kind === 'aborted',
    stdoutBytes: 0,
    stdoutTruncated: false,
    truncatedLines: 0,
    stderrTail: stderr,
    stderrTruncated: false,
    durationMs,
    pid,
  };
  return assemble(ctx, parsed, proc, startedAt, error ?? parsed.error);
}

/** SIGTERM the group, wait for the leader's pipes and the group to go, SIGKILL what is left. */
async function endGroup(pid: number, closed: Promise<void>): Promise<void> {
  signalGroup(pid, isWindows ? 'SIGKILL' : 'SIGTERM');
  const deadline = Date.now() + KILL_GRACE_MS;
  await Promise.race([closed, new Promise((r) => setTimeout(r, KILL_GRACE_MS))]);
  while (!isWindows && signalGroup(pid, 0) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 25));
  if (!isWindows && signalGroup(pid, 0)) {
    signalGroup(pid, 'SIGKILL');
    // Gone before the job goes on: its workspace may be emptied for the next job (workspace-pool.ts).
    await Promise.race([closed, new Promise((r) => setTimeout(r, KILL_GRACE_MS))]);
  }
}

export interface AcpAdapterOptions {
  /** Directory a relative `command` (one containing a slash) is resolved against: the config's. */
  configDir: string;
}

export function createAcpAdapter(opts: AcpAdapterOptions): AgentAdapter {
  return {
    name: 'acp',
    acceptsModel: false,
    acceptsFlags: false,
    // Host keys are not passed automatically: list what the agent needs under `env`.
    providerEnv: [],
    providerEnvFor: standardProviderEnv,
    async run(ctx) {
      const preset = ctx.agent.preset ? ACP_PRESETS[ctx.agent.preset] : undefined;
      let env = ctx.env;
      if (preset?.home) {
        const home = presetHome(preset.home, ctx);
        await writeFiles(home.files, ctx);
        env = home.env;
      }
      const spec: AcpSpec = {
        adapter: `acp agent "${ctx.agent.name}"`,
        bin: ctx.agent.command ?? '',
        binBase: opts.configDir,
        args: [...ctx.agent.args],
        env,
      };
      if (preset?.npm) spec.npmPackage = preset.npm;
      return runAcp(ctx, spec);
    },
  };
}
