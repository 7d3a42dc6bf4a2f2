/**
 * The shared part of every stdout-streaming adapter: find the binary, spawn it in its own process group
 * (exec/process.ts), feed stdout lines to the transcript parser, and turn the process outcome into
 * Transcript.error with the right class.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RAW_LOG_CAP_BYTES } from '../exec/output-cap.js';
import { overwriteFileInPlace, SMALL_FILE_UNITS, writeFileBySize } from '../util/small-write.js';
import { abortReasonText, spawnAgentProcess, type AgentProcessResult } from '../exec/process.js';
import { isErrorClass } from '../transcript/classify-error.js';
import {
  emptyUsage,
  type ParsedStream,
  type RunError,
  type StreamParser,
  type TokenUsage,
  type Transcript,
} from '../transcript/model.js';
import { missingBinaryMessage, resolveBinary } from './binary.js';
import type { AdapterRunContext } from './types.js';

/** Stdout kept for parsing (the job's raw log cap); the rest is drained and dropped (a system event says so). */
export const MAX_STDOUT_BYTES = RAW_LOG_CAP_BYTES;
export const MAX_STDERR_BYTES = 64 * 1024;

export interface CliSpec {
  /** Adapter name, for messages. */
  adapter: string;
  /** Executable: a bare name (PATH, then node_modules/.bin) or a path. */
  bin: string;
  /** Base for a relative `bin` (the config dir for `command` agents). */
  binBase?: string;
  /** npm package providing `bin`, named in the "not found" message. */
  npmPackage?: string;
  args: string[];
  env: Record<string, string>;
  /** Text written to stdin (then closed); `null` closes stdin at once. */
  stdin: string | null;
  parser: StreamParser;
  /** Runs after the process ended, e.g. to merge a session file the CLI wrote (codex rollout). */
  after?: (parsed: ParsedStream) => Promise<ParsedStream>;
}

/**
 * Prepares a run (config files, skills, credentials) and then runs the CLI. A failure while preparing
 * becomes a `setup_failed` transcript instead of a rejection.
 */
export async function prepareAndRun(
  ctx: AdapterRunContext,
  adapter: string,
  prepare: () => Promise<CliSpec>,
): Promise<Transcript> {
  const startedAt = Date.now();
  let spec: CliSpec;
  try {
    spec = await prepare();
  } catch (err) {
    const message = `${adapter}: could not prepare the run: ${err instanceof Error ? err.message : String(err)}`;
    return assemble(ctx, { events: [], result: null, usage: emptyUsage() }, undefined, startedAt, {
      class: 'setup_failed',
      message,
    });
  }
  return runCli(ctx, spec);
}

/** Runs a CLI once and returns its transcript. Never rejects for agent-side failures. */
export async function runCli(ctx: AdapterRunContext, spec: CliSpec): Promise<Transcript> {
  const startedAt = Date.now();
  const command = resolveBinary(spec.bin, { path: spec.env.PATH, cwd: spec.binBase });
  if (!command) {
    const parsed = spec.parser.finish();
    return assemble(ctx, parsed, undefined, startedAt, {
      class: 'crash',
      message: missingBinaryMessage(spec.adapter, spec.bin, spec.npmPackage),
    });
  }
  let lastUsage = '';
  ctx.onSpawn?.(command, spec.args);
  const proc = await spawnAgentProcess({
    command,
    args: spec.args,
    cwd: ctx.workDir,
    env: spec.env,
    // spawnAgentProcess reads the string 'ignore' as "no stdin"; a prompt of that word gets a newline.
    stdin: spec.stdin === null ? 'ignore' : spec.stdin === 'ignore' ? 'ignore\n' : spec.stdin,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    maxStdoutBytes: MAX_STDOUT_BYTES,
    maxStderrBytes: MAX_STDERR_BYTES,
    onStdoutLine: (line, info) => {
      ctx.onRawLine?.(line, info.utf8, info.truncated);
      spec.parser.push(line, Date.now());
      if (ctx.onUsage) {
        const usage = spec.parser.usage();
        const key = usageKey(usage);
        if (key !== lastUsage) {
          lastUsage = key;
          ctx.onUsage(usage);
        }
      }
    },
    onStderr: ctx.onStderr,
    ...(ctx.space ? { space: ctx.space } : {}),
  });
  let parsed = spec.parser.finish();
  if (spec.after && !proc.spawnError) {
    try {
      parsed = await spec.after(parsed);
    } catch {
      // The extra source is a bonus; the stream transcript stands on its own.
    }
  }
  if (proc.stdoutTruncated) {
    parsed.events.push({
      kind: 'system',
      subtype: 'stdout_truncated',
      data: { keptBytes: MAX_STDOUT_BYTES, totalBytes: proc.stdoutBytes },
    });
  }
  return assemble(ctx, parsed, proc, startedAt, outcomeError(spec.adapter, proc, parsed, ctx.signal));
}

function usageKey(u: TokenUsage): string {
  return `${u.input}/${u.output}/${u.cacheReadInput}/${u.cacheWriteInput ?? 0}`;
}

/** The ErrorClass an abort reason carries (`{ errorClass }` or `{ class }`), else `cancelled`. */
export function abortError(reason: unknown, fallbackText: string | undefined): RunError {
  const r = reason as { errorClass?: unknown; class?: unknown } | undefined;
  const cls = r && typeof r === 'object' ? (r.errorClass ?? r.class) : undefined;
  return {
    class: isErrorClass(cls) ? cls : 'cancelled',
    message: fallbackText ?? abortReasonText(reason),
  };
}

/** Last non-empty stderr lines, short enough for a one-line error. */
export function stderrSummary(tail: string, maxChars = 600): string {
  const lines = tail
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let out = '';
  for (let i = lines.length - 1; i >= 0; i--) {
    const next = out ? `${lines[i]} | ${out}` : (lines[i] as string);
    if (next.length > maxChars) break;
    out = next;
  }
  return out || (lines.length ? (lines[lines.length - 1] as string).slice(-maxChars) : '');
}

const TURN_LIMIT = /\bmax(?:imum)?[ _](?:session[ _])?turns\b/i;

/**
 * The run's error from the process outcome and the stream. Precedence: could not start → timeout →
 * abort → an error the stream reported → a non-zero exit without a final answer.
 */
export function outcomeError(
  adapter: string,
  proc: AgentProcessResult,
  parsed: ParsedStream,
  signal?: AbortSignal,
): RunError | undefined {
  if (proc.spawnError) return { class: 'crash', message: proc.spawnError };
  if (proc.timedOut) {
    return { class: 'timeout', message: `Agent timed out after ${formatSeconds(proc.durationMs)}` };
  }
  if (proc.aborted) return abortError(signal?.reason, proc.abortReason);
  if (parsed.error) return parsed.error;
  if (proc.exitCode !== 0 && parsed.result === null) {
    const how = proc.exitCode !== null ? `exited with code ${proc.exitCode}` : `was killed by ${proc.signal}`;
    const why = stderrSummary(proc.stderrTail);
    // A CLI that exits on its own turn limit (Qwen Code's "Reached max session turns", exit 53) hit a limit.
    const cls = TURN_LIMIT.test(why) ? 'limit_exceeded' : 'crash';
    return { class: cls, message: `${adapter} ${how}${why ? `: ${why}` : ''}` };
  }
  return undefined;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10}s`;
}

/** Transcript from a parsed stream, the process outcome and the run's error. */
export function assemble(
  ctx: AdapterRunContext,
  parsed: ParsedStream,
  proc: AgentProcessResult | undefined,
  startedAt: number,
  error: RunError | undefined,
): Transcript {
  const endedAt = Date.now();
  const events = parsed.events;
  if (!events.some((e) => e.kind === 'user')) {
    events.unshift({ kind: 'user', text: ctx.prompt, ts: startedAt, tsSource: 'received' });
  }
  const hardFailure =
    error !== undefined && (proc === undefined || proc.spawnError || proc.timedOut || proc.aborted);
  const out: Transcript = {
    ...parsed,
    events,
    result: hardFailure ? null : parsed.result,
    agent: ctx.agent.name,
    exitCode: proc?.exitCode ?? null,
    signal: proc?.signal ?? null,
    startedAt,
    endedAt,
    durationMs: proc ? Math.round(proc.durationMs) : endedAt - startedAt,
  };
  if (error) {
    out.error = error;
    if (error !== parsed.error) {
      const ev = { kind: 'error' as const, message: error.message, errorClass: error.class, ts: endedAt };
      events.push(error.httpStatus !== undefined ? { ...ev, httpStatus: error.httpStatus } : ev);
    }
  } else {
    delete out.error;
  }
  return out;
}

/**
 * Writes the adapter's files (mode 0600), making missing directories. With `useSpareFile` (the runner's, see AdapterRunContext),
 * the first small file it can move the spare to is written over the spare in place: no new inode.
 */
export async function writeFiles(
  files: Array<{ path: string; content: string }>,
  ctx?: Pick<AdapterRunContext, 'useSpareFile'>,
): Promise<void> {
  for (const f of files) {
    if (f.content.length <= SMALL_FILE_UNITS && overSpare(f.path, f.content, ctx)) continue;
    // Written first, the directory made only when missing: many go in dirs that exist (the job's tmp/).
    const write = () => writeFileBySize(f.path, f.content, { mode: 0o600 });
    try {
      await write();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(dirname(f.path), { recursive: true });
      await write();
    }
  }
}

/** Whether the file was written over the runner's spare file (moved into place first). */
function overSpare(path: string, content: string, ctx?: Pick<AdapterRunContext, 'useSpareFile'>): boolean {
  if (!ctx?.useSpareFile?.(path)) return false;
  overwriteFileInPlace(path, content);
  return true;
}

/** Copies local-login credential files (resolved by preflightAuth) into the job home. */
export async function installCredentials(ctx: AdapterRunContext): Promise<void> {
  if (ctx.auth?.source !== 'local_login') return;
  for (const file of ctx.auth.files) {
    const content = file.content ?? (await readFile(file.from, 'utf8'));
    await writeFiles([{ path: join(ctx.homeDir, file.to), content }], ctx);
  }
}

/** True when the process runs as root (some CLIs then need an explicit "this is a sandbox"). */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}
