import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { signalEach, startTime, taggedProcesses } from './contain.js';
import { forgetGroup, groupAlive, noteScope, signalGroup, sleep, track } from './groups.js';
import type { JobSpace } from './job-space.js';
import { containedLaunch, describeSpawnError, spawnDirect, type Ready } from './launch.js';
import { LineSplitter } from './line-splitter.js';
import { LINE_CAP_BYTES } from './output-cap.js';
import { SpawnerLost, type JobChild } from './remote-child.js';
import { spawnViaSpawner } from './spawner.js';

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
const DEFAULT_MAX_LINE = LINE_CAP_BYTES;
const POLL_MS = 25;
const isWindows = process.platform === 'win32';

/** Text of an AbortSignal reason: an Error's message, a string, or a generic phrase. */
export function abortReasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message || reason.name;
  if (typeof reason === 'string' && reason) return reason;
  return 'Aborted';
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
  if (opts.signal?.aborted) {
    const result = emptyResult();
    result.aborted = true;
    result.abortReason = abortReasonText(opts.signal.reason);
    return Promise.resolve(result);
  }
  return new Promise<AgentProcessResult>((resolve) => new SpawnedProcess(opts, started, resolve).start());
}

function emptyResult(): AgentProcessResult {
  return {
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
}

/** One call of {@link spawnAgentProcess}: start, read, stop on time-out or abort, reap, resolve once. */
class SpawnedProcess {
  private readonly result = emptyResult();
  private readonly grace: number;
  private readonly splitter: LineSplitter;
  private readonly stderrDecoder = new StringDecoder('utf8');
  private stderrBuf: Buffer = Buffer.alloc(0);
  private launch!: Ready;
  private child: JobChild | undefined;
  private done = false;
  private terminating = false;
  private killTimer: NodeJS.Timeout | undefined;
  private timeoutTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly opts: SpawnAgentOptions,
    private readonly started: number,
    private readonly resolve: (result: AgentProcessResult) => void,
  ) {
    this.grace = opts.killGraceMs ?? DEFAULT_GRACE_MS;
    const maxLine = Math.max(1, Math.min(opts.maxLineBytes ?? DEFAULT_MAX_LINE, opts.maxStdoutBytes || 1));
    this.splitter = new LineSplitter(maxLine, (line, truncated, utf8) => {
      if (truncated) this.result.truncatedLines++;
      if (opts.onStdoutLine)
        this.guard(() => opts.onStdoutLine!(line, utf8 ? { truncated, utf8 } : { truncated }));
    });
  }

  /** The callbacks never crash the runner: the first exception is kept as `callbackError`. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.result.callbackError ??= err instanceof Error ? err.message : String(err);
    }
  }

  /** Through the spawner where it runs, else forked here. */
  start(): void {
    const { opts } = this;
    const prepared = containedLaunch(opts.command, opts.args, opts.env, opts.cwd, opts.scopeTag, opts.space);
    if ('error' in prepared) return this.failStart(describeSpawnError(opts, prepared.error));
    this.launch = prepared;
    const request = {
      command: prepared.command,
      args: prepared.args,
      cwd: opts.cwd,
      env: prepared.env,
      ...(opts.stdin === undefined || opts.stdin === 'ignore' ? {} : { stdin: opts.stdin }),
    };
    const remote = spawnViaSpawner(request);
    if (remote) {
      void remote.then((outcome) => {
        if ('child' in outcome) return this.attach(outcome.child);
        this.failStart(
          'error' in outcome
            ? describeSpawnError(opts, outcome.error)
            : `Cannot start "${opts.command}": ${outcome.lost}`,
        );
      });
      return;
    }
    const direct = spawnDirect(request);
    if ('error' in direct) return this.failStart(describeSpawnError(opts, direct.error));
    this.attach(direct.child);
  }

  private failStart(message: string): void {
    this.result.spawnError = message;
    this.finish();
  }

  private attach(proc: JobChild): void {
    this.child = proc;
    proc.on('error', (err: NodeJS.ErrnoException) => {
      if (proc.pid === undefined) this.failStart(describeSpawnError(this.opts, err));
      else if (err instanceof SpawnerLost) this.result.spawnError = err.message;
    });
    if (proc.pid === undefined) return; // the 'error' event follows
    const pid = proc.pid;
    this.result.pid = pid;
    track(pid);
    // Every descendant starts no earlier than the leader, so the stray scan can skip older processes.
    const leaderStart = this.launch.contained || isWindows ? undefined : startTime(pid);
    const leader = leaderStart === undefined ? undefined : { pid, start: leaderStart };
    const { opts } = this;
    if (opts.scopeTag) noteScope(opts.scopeTag);
    if (opts.onSpawn) this.guard(() => opts.onSpawn!(pid));
    proc.stdout!.on('data', (chunk: Buffer) => this.onStdout(chunk));
    proc.stderr!.on('data', (chunk: Buffer) => this.onStderr(chunk));
    this.armLimits();
    const closed = new Promise<void>((r) => proc.on('close', () => r()));
    proc.on('exit', (code: number | null, sig: NodeJS.Signals | null) => {
      this.onExit(code, sig);
      void this.reapThenFinish(proc, closed, leader);
    });
  }

  private onStdout(chunk: Buffer): void {
    const { result } = this;
    const before = result.stdoutBytes;
    result.stdoutBytes += chunk.length;
    if (result.stdoutTruncated) return;
    const room = this.opts.maxStdoutBytes - before;
    if (chunk.length <= room) {
      this.splitter.push(chunk);
      return;
    }
    result.stdoutTruncated = true;
    if (room > 0) this.splitter.push(chunk.subarray(0, room));
    this.splitter.end();
  }

  private onStderr(chunk: Buffer): void {
    const { opts } = this;
    if (opts.onStderr) {
      const text = this.stderrDecoder.write(chunk);
      if (text) this.guard(() => opts.onStderr!(text));
    }
    const max = opts.maxStderrBytes;
    this.stderrBuf = this.stderrBuf.length === 0 ? chunk : Buffer.concat([this.stderrBuf, chunk]);
    if (this.stderrBuf.length > max) {
      this.result.stderrTruncated = true;
      this.stderrBuf = Buffer.from(this.stderrBuf.subarray(this.stderrBuf.length - max));
    }
  }

  /** The time limit and the caller's abort, both ending the group. */
  private armLimits(): void {
    const { opts } = this;
    if (opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs)) {
      this.timeoutTimer = setTimeout(() => {
        if (this.terminating || this.done) return;
        this.result.timedOut = true;
        this.terminate();
      }, opts.timeoutMs);
    }
    opts.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = (): void => {
    if (this.terminating || this.done) return;
    this.result.aborted = true;
    this.result.abortReason = abortReasonText(this.opts.signal?.reason);
    this.terminate();
  };

  private onExit(code: number | null, sig: NodeJS.Signals | null): void {
    const { result } = this;
    result.exitCode = code;
    result.signal = sig;
    // The namespace init reports a signal death as 128 + n; when we sent it, say so as a signal.
    const n = (code ?? 0) - 128;
    const name = this.launch.contained && this.terminating && n > 0 ? signalName(n) : undefined;
    if (name) {
      result.exitCode = null;
      result.signal = name;
    }
    if (this.timeoutTimer) clearTimeout(this.timeoutTimer);
    this.opts.signal?.removeEventListener('abort', this.onAbort);
  }

  /** Leader is gone: end the rest of its group, then wait for the pipes to close. */
  private async reapThenFinish(
    proc: JobChild,
    closed: Promise<void>,
    leader: { pid: number; start: number } | undefined,
  ): Promise<void> {
    const pid = proc.pid!;
    const tag = this.launch.tag;
    // Fallback mode: descendants that changed group or session still carry the spawn's tag.
    const strays = (): number[] =>
      !this.launch.contained && tag && !this.opts.scopeTag ? taggedProcesses((t) => t === tag, leader) : [];
    const leftovers = (): boolean => groupAlive(pid) || strays().length > 0;
    if (!isWindows && leftovers()) {
      this.terminate();
      signalEach(strays(), 'SIGTERM');
      const deadline = performance.now() + this.grace + 2000;
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
    this.finish();
  }

  private terminate(): void {
    const pid = this.child?.pid;
    if (this.terminating || pid === undefined) return;
    this.terminating = true;
    // Windows has no process groups or SIGTERM: the tree is killed at once (taskkill /T /F).
    signalGroup(pid, isWindows ? 'SIGKILL' : 'SIGTERM');
    this.killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), this.grace);
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    if (this.timeoutTimer) clearTimeout(this.timeoutTimer);
    if (this.killTimer) clearTimeout(this.killTimer);
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    this.splitter.end();
    const { result } = this;
    const tail = this.stderrBuf.toString('utf8');
    // A cut-off first character decodes to U+FFFD; drop it.
    result.stderrTail = result.stderrTruncated ? tail.replace(/^\uFFFD+/, '') : tail;
    result.durationMs = performance.now() - this.started;
    this.resolve(result);
  }
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
