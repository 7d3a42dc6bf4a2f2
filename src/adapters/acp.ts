/**
 * `acp`: any Agent Client Protocol agent, by `command` (+ `args`), through the official SDK. One
 * session, one prompt. File-system requests are confined to the workspace; permission requests get
 * an allow option; the agent's process group is ended afterwards.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { createAcpMapper, type AcpMapper } from '../transcript/acp.js';
import { classifyError } from '../transcript/classify-error.js';
import type { RunError, SystemEvent, TokenUsage, Transcript } from '../transcript/model.js';
import { ACP_PRESETS } from '../config/catalogue.js';
import { confinedPath, pickPermission, sliceLines, writeRegularFile } from './acp-fs.js';
import { presetHome } from './acp-presets.js';
import { authHint, envAuthMethod, isAuthRequired } from './acp-auth.js';
import { agentStreams, AgentProcess, endGroup, launchAgent, spawned } from './acp-process.js';
import { abortError, assemble, stderrSummary, writeFiles } from './base.js';
import { missingBinaryMessage, resolveBinary } from './binary.js';
import { acpMcpServers } from './mcp.js';
import { standardProviderEnv } from './provider-env.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';
import { InputFileError, MAX_INPUT_BYTES, readInputFile } from '../util/input-file.js';

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

/** What one run's steps share: the mapper, the client's notes, how far the conversation got. */
interface AcpRun {
  ctx: AdapterRunContext;
  spec: AcpSpec;
  startedAt: number;
  mapper: AcpMapper;
  notes: SystemEvent[];
  stage: Stage;
  authMethods: unknown;
  /** The usage last reported, as `input/output/cacheReadInput`. */
  lastUsage: string;
}

/** Runs one ACP agent for one prompt. Never rejects for agent-side failures. */
export async function runAcp(ctx: AdapterRunContext, spec: AcpSpec): Promise<Transcript> {
  const run = newRun(ctx, spec);
  const command = resolveBinary(spec.bin, { path: spec.env.PATH, cwd: spec.binBase });
  if (!command) {
    const message = missingBinaryMessage(spec.adapter, spec.bin, spec.npmPackage);
    return unstarted(run, { class: 'crash', message });
  }
  if (ctx.signal.aborted) return unstarted(run, abortError(ctx.signal.reason, undefined));
  const root = await realpath(ctx.workDir);

  const launched = launchAgent(command, spec.args, spec.env, ctx);
  if ('error' in launched) return unstarted(run, cannotStart(spec, launched.error));
  const { child } = launched;
  const spawnError = await spawned(child);
  if (spawnError || child.pid === undefined) return unstarted(run, cannotStart(spec, spawnError));
  const agentProcess = new AgentProcess(child, child.pid, ctx);
  const { input, output } = agentStreams(child, ctx);
  const connection = acpClient(run, root).connect(acp.ndJsonStream(output, input));

  const stop = stopWatch(ctx);
  const conversation = converse(run, connection.agent).then(
    (): Outcome => ({ kind: 'done' }),
    (err: unknown): Outcome => ({ kind: 'failed', stage: run.stage, err }),
  );
  const exited = exitOutcome(agentProcess.closed, conversation);
  let outcome = await Promise.race([conversation, exited, stop.stopped]);
  stop.clear();
  // A request that failed because the agent died is a crash, not an error the agent reported.
  if (outcome.kind === 'failed' && (await closesWithin(agentProcess.closed, 300))) {
    outcome = { kind: 'exited' };
  }

  // Teardown: close the connection, end stdin, then the whole process group.
  connection.close();
  child.stdin!.end();
  await endGroup(agentProcess.pid, agentProcess.closed);

  const durationMs = Date.now() - run.startedAt;
  const error = errorFor(run, outcome, agentProcess, durationMs);
  return transcriptOf(run, outcome, agentProcess, durationMs, error);
}

function newRun(ctx: AdapterRunContext, spec: AcpSpec): AcpRun {
  return {
    ctx,
    spec,
    startedAt: Date.now(),
    mapper: createAcpMapper(),
    notes: [],
    stage: 'initialize',
    authMethods: undefined,
    lastUsage: '',
  };
}

/** The transcript of a run whose agent never started. */
function unstarted(run: AcpRun, error: RunError): Transcript {
  return assemble(run.ctx, run.mapper.finish(), undefined, run.startedAt, error);
}

function cannotStart(spec: AcpSpec, err: unknown): RunError {
  return { class: 'crash', message: `Cannot start "${spec.bin}": ${errorText(err)}` };
}

function note(run: AcpRun, subtype: string, data: Record<string, unknown>): void {
  run.notes.push({ kind: 'system', subtype, data, ts: Date.now(), tsSource: 'received' });
}

/** Passes the usage on when it changed since the last time. */
function reportUsage(run: AcpRun): void {
  const { ctx, mapper } = run;
  if (!ctx.onUsage) return;
  const u: TokenUsage = mapper.usage();
  const key = `${u.input}/${u.output}/${u.cacheReadInput}`;
  if (key !== run.lastUsage) {
    run.lastUsage = key;
    ctx.onUsage(u);
  }
}

/** AXIS's side of the protocol: what the agent may send and ask, with file requests confined to `root`. */
function acpClient(run: AcpRun, root: string): acp.ClientApp {
  const { mapper } = run;
  return acp
    .client({ name: 'axis' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      mapper.update(params as unknown as Parameters<typeof mapper.update>[0], Date.now());
      reportUsage(run);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const optionId = pickPermission(params.options);
      note(run, 'permission', {
        tool: params.toolCall.title ?? params.toolCall.toolCallId,
        granted: optionId ?? null,
      });
      return optionId
        ? { outcome: { outcome: 'selected', optionId } }
        : { outcome: { outcome: 'cancelled' } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => readInside(run, root, params))
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => writeInside(run, root, params));
}

async function readInside(
  run: AcpRun,
  root: string,
  params: acp.ReadTextFileRequest,
): Promise<acp.ReadTextFileResponse> {
  const target = await confinedPath(params.path, root);
  if ('error' in target) {
    note(run, 'fs_refused', { method: 'fs/read_text_file', path: params.path });
    throw acp.RequestError.invalidParams({ path: params.path }, target.error);
  }
  let text: string;
  try {
    // Only a regular file, opened without blocking (a FIFO the agent made would never see a writer).
    text = readInputFile(target.path, MAX_INPUT_BYTES);
  } catch (err) {
    const why = err instanceof InputFileError ? err.message : String(err);
    throw acp.RequestError.invalidParams({ path: params.path }, `cannot read file: ${why}`);
  }
  return { content: sliceLines(text, params.line, params.limit) };
}

async function writeInside(
  run: AcpRun,
  root: string,
  params: acp.WriteTextFileRequest,
): Promise<acp.WriteTextFileResponse> {
  const target = await confinedPath(params.path, root);
  if ('error' in target) {
    note(run, 'fs_refused', { method: 'fs/write_text_file', path: params.path });
    throw acp.RequestError.invalidParams({ path: params.path }, target.error);
  }
  await mkdir(dirname(target.path), { recursive: true });
  const failed = await writeRegularFile(target.path, params.content);
  if (failed) throw acp.RequestError.invalidParams({ path: params.path }, `cannot write file: ${failed}`);
  return {};
}

/** initialize, session/new (authenticating first if the agent asks and the env allows), the prompt. */
async function converse(run: AcpRun, agent: acp.ClientContext): Promise<void> {
  const { ctx, spec, mapper } = run;
  const newSession = () =>
    agent.request(acp.methods.agent.session.new, {
      cwd: ctx.workDir,
      mcpServers: acpMcpServers(ctx.mcpServers) as unknown as acp.McpServer[],
    });
  const init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    clientInfo: CLIENT_INFO,
  });
  run.authMethods = (init as { authMethods?: unknown } | undefined)?.authMethods;
  run.stage = 'session/new';
  checkHttpMcp(init, ctx.mcpServers);
  const session = await newSession().catch(async (err: unknown) => {
    const methodId = isAuthRequired(err) ? envAuthMethod(run.authMethods, spec.env) : undefined;
    if (!methodId) throw err;
    run.stage = 'authenticate';
    note(run, 'authenticate', { method: methodId });
    await agent.request(acp.methods.agent.authenticate, { methodId });
    run.stage = 'session/new';
    return newSession();
  });
  run.stage = 'session/prompt';
  const response = await agent.request(acp.methods.agent.session.prompt, {
    sessionId: session.sessionId,
    prompt: [{ type: 'text', text: ctx.prompt }],
  });
  mapper.promptResponse(response, Date.now());
  reportUsage(run);
}

/** `timeout` at the time limit, `aborted` on a stop; `clear` drops both watches. */
function stopWatch(ctx: AdapterRunContext): { stopped: Promise<Outcome>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Outcome>((res) => {
    if (ctx.timeoutMs > 0 && Number.isFinite(ctx.timeoutMs)) {
      timer = setTimeout(() => res({ kind: 'timeout' }), ctx.timeoutMs);
    }
    onAbort = () => res({ kind: 'aborted' });
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  const clear = (): void => {
    if (timer) clearTimeout(timer);
    if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
  };
  return { stopped, clear };
}

/** `exited` once the agent's pipes close, unless the conversation settles just after. */
function exitOutcome(closed: Promise<void>, conversation: Promise<Outcome>): Promise<Outcome> {
  return closed.then(async (): Promise<Outcome> => {
    // The last response may still be in the SDK's queue when the pipes close.
    const late = await Promise.race([conversation, new Promise<undefined>((r) => setTimeout(r, 300))]);
    return late ?? { kind: 'exited' };
  });
}

function closesWithin(closed: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

/** The run's error for how it ended; a failed prompt is the mapper's to report. */
function errorFor(
  run: AcpRun,
  outcome: Outcome,
  agentProcess: AgentProcess,
  durationMs: number,
): RunError | undefined {
  const { ctx, spec, mapper, authMethods } = run;
  const { stderr, exitCode, exitSignal } = agentProcess;
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
  return error;
}

/** The mapper's events and the client's notes in time order, with the process as runCli reports one. */
function transcriptOf(
  run: AcpRun,
  outcome: Outcome,
  agentProcess: AgentProcess,
  durationMs: number,
  error: RunError | undefined,
): Transcript {
  const { ctx, startedAt, mapper, notes } = run;
  const { stderr, exitCode, exitSignal, pid } = agentProcess;
  const cleanExit = outcome.kind === 'done';
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
      // The package installs the preset's command; a command the entry chose is not in it.
      if (preset?.npm && spec.bin === preset.command) spec.npmPackage = preset.npm;
      return runAcp(ctx, spec);
    },
  };
}
