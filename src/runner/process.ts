import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants, existsSync, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import { delimiter, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import {
  bwrapPrefix,
  CONTAIN_PARENT_VAR,
  containment,
  jobSandbox,
  signalEach,
  startTime,
  TAG_VAR,
  taggedProcesses,
  newTag,
  withParentPid,
} from './contain.js';
import { forgetGroup, groupAlive, noteScope, signalGroup, sleep, track } from './groups.js';
import { jobPrefix, netPrefix, type JobSpace } from './job-space.js';
import { LineSplitter } from './line-splitter.js';
import { spawnViaSpawner, SpawnerLost, type JobChild, type SpawnRequest } from './spawner.js';

/** Options for {@link spawnAgentProcess}. */
export interface SpawnAgentOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The complete child environment (nothing is inherited from the host). */
  env: Readonly<Record<string, string>>;
  /** `'ignore'` (default) closes stdin; a string is written to stdin, then stdin is closed. */
  stdin?: 'ignore' | string;
  /** Wall-clock limit; `0` or `Infinity` means none. */
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL. Default 5000. */
  killGraceMs?: number;
  signal?: AbortSignal;
  /** Stdout bytes turned into lines; the rest is drained and dropped (`stdoutTruncated`). */
  maxStdoutBytes: number;
  /** Stderr bytes kept (the last ones, as `stderrTail`). */
  maxStderrBytes: number;
  /** Longest line delivered whole; longer lines are cut (`info.truncated`). Default 8 MiB. */
  maxLineBytes?: number;
  /**
   * Called once per stdout line (without the line break; `\r\n` handled). `utf8` is the line's bytes when
   * they were valid UTF-8, so exactly `Buffer.from(line)`.
   */
  onStdoutLine?: (line: string, info: { truncated: boolean; utf8?: Buffer }) => void;
  /** Every stderr chunk, decoded as UTF-8. */
  onStderr?: (text: string) => void;
  /** Called right after the process started. */
  onSpawn?: (pid: number) => void;
  /**
   * Lifecycle scripts: run in the host PID namespace under this job-wide tag, and let what they start in
   * the background (a service for the agent) live on until the job ends, when the job kills every process
   * still carrying the tag ({@link killTagged}). Outside a namespace, pids the script writes stay valid for
   * the teardown script that stops them.
   */
  scopeTag?: string;
  /** The job's private /tmp and network (job-space.ts); absent outside a job. */
  space?: JobSpace;
}

export interface AgentProcessResult {
  /** Null when the process was killed by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  abortReason?: string;
  stdoutBytes: number;
  stdoutTruncated: boolean;
  /** Lines longer than `maxLineBytes` that were cut. */
  truncatedLines: number;
  stderrTail: string;
  stderrTruncated: boolean;
  durationMs: number;
  pid?: number;
  /** Set when the process could not be started at all (missing binary, E2BIG, bad cwd…). */
  spawnError?: string;
  /** First exception thrown by `onStdoutLine` / `onStderr` (they never crash the runner). */
  callbackError?: string;
}

const DEFAULT_GRACE_MS = 5000;
const DEFAULT_MAX_LINE = 8 * 1024 * 1024;
const POLL_MS = 25;
const isWindows = process.platform === 'win32';

/** Text of an AbortSignal reason: an Error's message, a string, or a generic phrase. */
export function abortReasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  if (typeof reason === 'string' && reason) return reason;
  return 'Aborted';
}

function describeSpawnError(opts: SpawnAgentOptions, err: NodeJS.ErrnoException): string {
  const head = `Cannot start "${opts.command}"`;
  switch (err.code) {
    case 'ENOENT':
      return existsSync(opts.cwd)
        ? `${head}: command not found (ENOENT). Is it installed and on PATH?`
        : `${head}: working directory does not exist: ${opts.cwd}`;
    case 'EACCES':
      return `${head}: permission denied (EACCES). Is the file executable?`;
    case 'E2BIG': {
      const bytes = opts.args.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
      return `${head}: argument list too long (E2BIG, ${bytes} bytes of arguments). Pass large input through stdin instead.`;
    }
    default:
      return `${head}: ${err.code ? `${err.code}: ` : ''}${err.message}`;
  }
}

/**
 * Runs one external process in its own process group and collects its output.
 *
 * Never rejects: start failures come back as `spawnError`. On timeout or abort the whole group gets
 * SIGTERM, then SIGKILL after `killGraceMs`. When the leader exits, anything left in its group is
 * terminated the same way before the promise resolves, so no orphan survives the call.
 */
export function spawnAgentProcess(opts: SpawnAgentOptions): Promise<AgentProcessResult> {
  const started = performance.now();
  const grace = opts.killGraceMs ?? DEFAULT_GRACE_MS;
  const maxLine = Math.max(1, Math.min(opts.maxLineBytes ?? DEFAULT_MAX_LINE, opts.maxStdoutBytes || 1));

  const result: AgentProcessResult = {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    stdoutBytes: 0,
    stdoutTruncated: false,
    truncatedLines: 0,
    stderrTail: '',
    stderrTruncated: false,
    durationMs: 0,
  };

  if (opts.signal?.aborted) {
    result.aborted = true;
    result.abortReason = abortReasonText(opts.signal.reason);
    return Promise.resolve(result);
  }

  return new Promise<AgentProcessResult>((resolve) => {
    let child: JobChild | undefined;
    let done = false;
    let terminating = false;
    let killTimer: NodeJS.Timeout | undefined;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let stderrBuf: Buffer = Buffer.alloc(0);
    const stderrDecoder = new StringDecoder('utf8');

    const guard = (fn: () => void): void => {
      try {
        fn();
      } catch (err) {
        result.callbackError ??= err instanceof Error ? err.message : String(err);
      }
    };

    const splitter = new LineSplitter(maxLine, (line, truncated, utf8) => {
      if (truncated) result.truncatedLines++;
      if (opts.onStdoutLine)
        guard(() => opts.onStdoutLine!(line, utf8 ? { truncated, utf8 } : { truncated }));
    });

    const onAbort = (): void => {
      if (terminating || done) return;
      result.aborted = true;
      result.abortReason = abortReasonText(opts.signal?.reason);
      terminate();
    };

    const cleanupTimers = (): void => {
      if (timeoutTimer) clearTimeout(timeoutTimer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
    };

    const finish = (): void => {
      if (done) return;
      done = true;
      cleanupTimers();
      splitter.end();
      const tail = stderrBuf.toString('utf8');
      // A cut-off first character decodes to U+FFFD; drop it.
      result.stderrTail = result.stderrTruncated ? tail.replace(/^\uFFFD+/, '') : tail;
      result.durationMs = performance.now() - started;
      resolve(result);
    };

    function terminate(): void {
      if (terminating || child?.pid === undefined) return;
      terminating = true;
      const pid = child.pid;
      // Windows has no process groups or SIGTERM: the tree is killed at once (taskkill /T /F).
      signalGroup(pid, isWindows ? 'SIGKILL' : 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), grace);
    }

    const prepared = containedLaunch(opts.command, opts.args, opts.env, opts.cwd, opts.scopeTag, opts.space);
    if ('error' in prepared) {
      result.spawnError = describeSpawnError(opts, prepared.error);
      finish();
      return;
    }
    const launch: Ready = prepared;
    const request = {
      command: launch.command,
      args: launch.args,
      cwd: opts.cwd,
      env: launch.env,
      ...(opts.stdin === undefined || opts.stdin === 'ignore' ? {} : { stdin: opts.stdin }),
    };
    const remote = spawnViaSpawner(request);
    if (remote) {
      void remote.then((outcome) => {
        if ('child' in outcome) return attach(outcome.child);
        result.spawnError =
          'error' in outcome
            ? describeSpawnError(opts, outcome.error)
            : `Cannot start "${opts.command}": ${outcome.lost}`;
        finish();
      });
      return;
    }
    const direct = spawnDirect(request);
    if ('error' in direct) {
      result.spawnError = describeSpawnError(opts, direct.error);
      finish();
      return;
    }
    attach(direct.child);

    function attach(proc: JobChild): void {
      child = proc;
      proc.on('error', (err: NodeJS.ErrnoException) => {
        if (proc.pid === undefined) {
          result.spawnError = describeSpawnError(opts, err);
          finish();
        } else if (err instanceof SpawnerLost) result.spawnError = err.message;
      });

      if (proc.pid === undefined) return; // the 'error' event follows
      const pid = proc.pid;
      result.pid = pid;
      track(pid);
      // Every descendant starts no earlier than the leader, so the stray scan can skip older processes.
      const leaderStart = launch.contained || isWindows ? undefined : startTime(pid);
      const leader = leaderStart === undefined ? undefined : { pid, start: leaderStart };
      if (opts.scopeTag) noteScope(opts.scopeTag);
      if (opts.onSpawn) guard(() => opts.onSpawn!(pid));

      proc.stdout!.on('data', (chunk: Buffer) => {
        const before = result.stdoutBytes;
        result.stdoutBytes += chunk.length;
        if (result.stdoutTruncated) return;
        const room = opts.maxStdoutBytes - before;
        if (chunk.length <= room) {
          splitter.push(chunk);
          return;
        }
        result.stdoutTruncated = true;
        if (room > 0) splitter.push(chunk.subarray(0, room));
        splitter.end();
      });

      proc.stderr!.on('data', (chunk: Buffer) => {
        if (opts.onStderr) {
          const text = stderrDecoder.write(chunk);
          if (text) guard(() => opts.onStderr!(text));
        }
        const max = opts.maxStderrBytes;
        stderrBuf = stderrBuf.length === 0 ? chunk : Buffer.concat([stderrBuf, chunk]);
        if (stderrBuf.length > max) {
          result.stderrTruncated = true;
          stderrBuf = Buffer.from(stderrBuf.subarray(stderrBuf.length - max));
        }
      });

      if (opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs)) {
        timeoutTimer = setTimeout(() => {
          if (terminating || done) return;
          result.timedOut = true;
          terminate();
        }, opts.timeoutMs);
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true });

      const closed = new Promise<void>((r) => proc.on('close', () => r()));

      proc.on('exit', (code: number | null, sig: NodeJS.Signals | null) => {
        result.exitCode = code;
        result.signal = sig;
        // The namespace init reports a signal death as 128 + n; when we sent it, say so as a signal.
        const n = (code ?? 0) - 128;
        const name = launch.contained && terminating && n > 0 ? signalName(n) : undefined;
        if (name) {
          result.exitCode = null;
          result.signal = name;
        }
        if (timeoutTimer) clearTimeout(timeoutTimer);
        opts.signal?.removeEventListener('abort', onAbort);
        void reapThenFinish();
      });

      /** Leader is gone: end the rest of its group, then wait for the pipes to close. */
      async function reapThenFinish(): Promise<void> {
        const tag = launch.tag;
        // Fallback mode: descendants that changed group or session still carry the spawn's tag.
        const strays = (): number[] =>
          !launch.contained && tag && !opts.scopeTag ? taggedProcesses((t) => t === tag, leader) : [];
        const leftovers = (): boolean => groupAlive(pid) || strays().length > 0;
        if (!isWindows && leftovers()) {
          terminate();
          signalEach(strays(), 'SIGTERM');
          const deadline = performance.now() + grace + 2000;
          let killed = false;
          while (leftovers() && performance.now() < deadline) {
            if (!killed && performance.now() > deadline - 2000) {
              killed = true;
              signalEach(strays(), 'SIGKILL');
            }
            await sleep(POLL_MS);
          }
        }
        if (!groupAlive(pid)) forgetGroup(pid); // else killAll() may still get it
        // A process that escaped the group may still hold our pipes; do not wait for it forever.
        if (!(await settlesWithin(closed, 1000))) {
          proc.stdout?.destroy();
          proc.stderr?.destroy();
        }
        finish();
      }
    }
  });
}

/** Forks the process from AXIS itself (the spawner is off or failed). */
function spawnDirect(req: SpawnRequest): { child: ChildProcess } | { error: NodeJS.ErrnoException } {
  try {
    const child = spawn(req.command, req.args, {
      cwd: req.cwd,
      env: withParentPid(req.env),
      stdio: [req.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: !isWindows,
      windowsHide: true,
    });
    if (child.stdin) {
      child.stdin.on('error', () => {}); // EPIPE when the child does not read its input
      child.stdin.end(req.stdin);
    }
    return { child };
  } catch (err) {
    // E2BIG and friends are thrown synchronously.
    return { error: err as NodeJS.ErrnoException };
  }
}

interface Ready {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Started under a namespace wrapper. */
  contained: boolean;
  tag?: string;
}
type Launch = Ready | { error: NodeJS.ErrnoException };

/**
 * The command line that starts `command` inside the containment in force (see contain.ts), with the
 * spawn's tag in its environment. Inside a namespace a missing binary would only show as the init's exit
 * 127, so the binary and the cwd are checked here first to keep "command not found" a start error.
 */
export function containedLaunch(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd: string,
  scopeTag?: string,
  space?: JobSpace,
): Launch {
  const tag = scopeTag ?? newTag();
  const withTag: Record<string, string> = tag ? { ...env, [TAG_VAR]: tag } : { ...env };
  const sandbox = jobSandbox.getStore();
  // The job's private /tmp and network (job-space.ts) come with the containment.
  const prefix = sandbox
    ? [...netPrefix(space), ...bwrapPrefix(sandbox)]
    : jobPrefix(scopeTag !== undefined, space);
  // Under a namespace init (whose exit status reports a signal death as 128 + n).
  const contained = sandbox !== undefined || (scopeTag === undefined && containment().prefix.length > 0);
  if (prefix.length === 0)
    return { command, args: [...args], env: withTag, contained: false, ...(tag ? { tag } : {}) };
  const problem = executableProblem(command, env.PATH ?? '', cwd);
  if (problem) return { error: problem };
  // Asked for here, filled in by whoever forks it (withParentPid, the spawner).
  if (!sandbox && prefix[0] === containment().helper) withTag[CONTAIN_PARENT_VAR] = '';
  return {
    command: prefix[0]!,
    args: [...prefix.slice(1), command, ...args],
    env: withTag,
    contained,
    ...(tag ? { tag } : {}),
  };
}

/** ENOENT / EACCES the way spawn would report them, for a command about to run under a wrapper. */
function executableProblem(command: string, path: string, cwd: string): NodeJS.ErrnoException | undefined {
  const err = (code: string): NodeJS.ErrnoException =>
    Object.assign(new Error(`spawn ${command} ${code}`), { code });
  if (!existsSync(cwd)) return err('ENOENT');
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolvePath(cwd, command)]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(resolvePath(cwd, dir), command));
  let denied = false;
  for (const file of candidates) {
    try {
      // A missing candidate is not an error worth building (one per PATH entry before the right one).
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
      accessSync(file, fsConstants.X_OK);
      return undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EACCES') denied = true;
    }
  }
  return err(denied ? 'EACCES' : 'ENOENT');
}

function signalName(n: number): NodeJS.Signals | undefined {
  const entry = Object.entries(osConstants.signals).find(([, v]) => v === n);
  return entry?.[0] as NodeJS.Signals | undefined;
}

/** True when `promise` settles within `ms`; the timer never outlives the wait. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
