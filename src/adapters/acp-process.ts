/**
 * The ACP agent's process for acp.ts: starting it contained, watching its stderr and exit, its stdio as
 * the SDK's web streams, and ending its process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { signalGroup } from '../exec/groups.js';
import { LineSplitter } from '../exec/line-splitter.js';
import { withParentPid } from '../exec/contain.js';
import { containedLaunch } from '../exec/launch.js';
import { MAX_STDERR_BYTES } from './base.js';
import type { AdapterRunContext } from './types.js';

const isWindows = process.platform === 'win32';
const KILL_GRACE_MS = 3000;

/**
 * Spawns `command` under the same containment as every other job process (PID namespace or tagged
 * group, bwrap sandbox).
 */
export function launchAgent(
  command: string,
  args: string[],
  env: Record<string, string>,
  ctx: AdapterRunContext,
): { child: ChildProcess } | { error: unknown } {
  const launch = containedLaunch(command, args, env, ctx.workDir, undefined, ctx.space);
  if ('error' in launch) return { error: launch.error };
  try {
    const child = spawn(launch.command, launch.args, {
      cwd: ctx.workDir,
      env: withParentPid(launch.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: !isWindows,
      windowsHide: true,
    });
    return { child };
  } catch (err) {
    return { error: err };
  }
}

/** Settles once the child started (undefined) or could not (its error). */
export function spawned(child: ChildProcess): Promise<Error | undefined> {
  return new Promise<Error | undefined>((res) => {
    child.once('spawn', () => res(undefined));
    child.once('error', (e) => res(e));
  });
}

/** A started agent: the tail of its stderr and, once `closed` settles, how it exited. */
export class AgentProcess {
  stderr = '';
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  readonly closed: Promise<void>;

  constructor(
    readonly child: ChildProcess,
    readonly pid: number,
    ctx: AdapterRunContext,
  ) {
    child.on('error', () => {});
    child.stdin!.on('error', () => {});

    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      ctx.onStderr?.(text);
      this.stderr = (this.stderr + text).slice(-MAX_STDERR_BYTES);
    });
    this.closed = new Promise<void>((res) =>
      child.on('close', (code, sig) => {
        this.exitCode = code;
        this.exitSignal = sig;
        res();
      }),
    );
  }
}

/** The agent's stdio as web streams for the SDK, incoming messages tapped for the raw log on the way. */
export function agentStreams(
  child: ChildProcess,
  ctx: AdapterRunContext,
): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
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
  return { input, output };
}

/** SIGTERM the group, wait for the leader's pipes and the group to go, SIGKILL what is left. */
export async function endGroup(pid: number, closed: Promise<void>): Promise<void> {
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
