import { lstat, open, rm, writeFile } from 'node:fs/promises';
import { timerMs } from '../util/timers.js';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { abortReasonText, spawnAgentProcess } from '../exec/process.js';
import type { JobSpace } from '../exec/job-space.js';
import { makeTempDir, removeWorkspace } from '../exec/workspace.js';
import { DEFAULT_SCRIPT_TIMEOUT_S } from '../config/scenario-resolve.js';
import type { CopyAction, LifecycleAction, RunScriptAction } from '../config/types.js';
import { copyFiles } from './lifecycle-copy.js';

export { planCopy, resolveDestination, type CopyPlan } from './lifecycle-copy.js';

export type LifecyclePhase = 'setup' | 'teardown' | 'beforeAll' | 'afterAll';

/** Values exposed to scripts as `AXIS_*` variables (unset ones are not exported). */
export interface LifecycleVars {
  /** AXIS_HOME: the job's HOME. */
  home?: string;
  /** AXIS_RUN_INDEX: 1-based repeat number. */
  runIndex?: number;
  /** AXIS_SCENARIO: full scenario key (with `@variant`). */
  scenario?: string;
  /** AXIS_AGENT: agent name. */
  agent?: string;
  /** AXIS_ADAPTER: the agent's adapter (upstream AXIS's AXIS_AGENT). */
  adapter?: string;
  /** AXIS_VARIANT: variant name. */
  variant?: string;
  /** AXIS_MODEL: the model string as configured. */
  model?: string;
  /** AXIS_REPORT_DIR: the report directory (afterAll). */
  reportDir?: string;
  /** Further variables (e.g. AXIS_TOTAL for afterAll). */
  extra?: Readonly<Record<string, string>>;
}

export interface RunPhaseOptions {
  phase: LifecyclePhase;
  actions: readonly LifecycleAction[];
  /** Where scripts run: the job's `work/` dir, or the config dir for run-level hooks. */
  cwd: string;
  /** Base of `copy.match` globs. */
  configDir: string;
  /** Base of `copy.destination`, and AXIS_WORKSPACE. */
  workspace: string;
  /** The job environment (see `buildAgentEnv`); AXIS_* variables are added on top. */
  env: Readonly<Record<string, string>>;
  vars?: LifecycleVars;
  signal?: AbortSignal;
  /** SIGTERM → SIGKILL grace for scripts; default 5000 ms. */
  killGraceMs?: number;
  /** Directory for the AXIS_OUTPUT file; default a fresh temp dir that is removed afterwards. */
  notesDir?: string;
  /** Progress lines (`[copy] …`, script output); nothing is printed when absent. */
  log?: (line: string) => void;
  /** Job- or run-wide tag: background processes scripts start live until its owner kills them. */
  scopeTag?: string;
  /** The job's private /tmp (job-space.ts); absent for run-level hooks. */
  space?: JobSpace;
}

export interface PhaseFailure {
  /** 0-based index into the phase's actions. */
  actionIndex: number;
  action: LifecycleAction['action'];
  /** The script command, or `copy <match> -> <destination>`. */
  command: string;
  exitCode: number | null;
  stderrTail: string;
  stdoutTail: string;
  timedOut: boolean;
  aborted: boolean;
  /** One readable sentence (plus the output tail): what failed, the exit code and stderr. */
  message: string;
}

export interface PhaseResult {
  ok: boolean;
  /** What the scripts wrote to $AXIS_OUTPUT (markdown), trimmed; '' when nothing. */
  notes: string;
  notesTruncated: boolean;
  failure?: PhaseFailure;
  /** Actions that ran (including the failed one). */
  actionsRun: number;
  durationMs: number;
}

export const MAX_NOTES_BYTES = 256 * 1024;
const OUTPUT_TAIL_BYTES = 64 * 1024;
const MESSAGE_TAIL_CHARS = 4000;

/**
 * Runs a phase's actions in order; the first failure stops the phase. Never throws: every problem is
 * a `failure`. Notes written to $AXIS_OUTPUT are returned even when an action failed.
 */
export async function runLifecyclePhase(opts: RunPhaseOptions): Promise<PhaseResult> {
  const started = performance.now();
  const done = (extra: Omit<PhaseResult, 'durationMs'>): PhaseResult => ({
    ...extra,
    durationMs: performance.now() - started,
  });
  if (opts.actions.length === 0) return done({ ok: true, notes: '', notesTruncated: false, actionsRun: 0 });

  let notesDir: string;
  let notesFile: string;
  try {
    notesDir = opts.notesDir ?? (await makeNotesDir());
    notesFile = join(notesDir, `${opts.phase}-notes.md`);
    await freshFile(notesFile);
  } catch (err) {
    const message = `${opts.phase}: cannot create the AXIS_OUTPUT file: ${err instanceof Error ? err.message : String(err)}`;
    return done({
      ok: false,
      notes: '',
      notesTruncated: false,
      actionsRun: 0,
      failure: baseFailure(0, opts.actions[0]!, message),
    });
  }
  const env = { ...opts.env, ...axisVars(opts, notesFile) };

  let failure: PhaseFailure | undefined;
  let actionsRun = 0;
  try {
    for (const [index, action] of opts.actions.entries()) {
      if (opts.signal?.aborted) {
        failure = cancelled(opts.phase, index, action, opts.signal.reason);
        break;
      }
      actionsRun++;
      failure =
        action.action === 'run_script'
          ? await runScript(index, action, opts, env)
          : await runCopy(index, action, opts);
      if (failure) break;
    }
  } catch (err) {
    // Unexpected I/O errors still become a failure, not an exception.
    const index = Math.max(0, actionsRun - 1);
    const action = opts.actions[index]!;
    const message = `${opts.phase}[${index}]: Lifecycle action failed: ${err instanceof Error ? err.message : String(err)}`;
    failure = baseFailure(index, action, message);
  }

  const { notes, truncated } = await readNotes(notesFile);
  // In the job dir, setup's notes would still be there for the agent to read.
  if (opts.notesDir) await rm(notesFile, { force: true, recursive: true }).catch(() => {});
  else await removeWorkspace(notesDir, opts.log);
  return done({
    ok: !failure,
    notes,
    notesTruncated: truncated,
    ...(failure ? { failure } : {}),
    actionsRun,
  });
}

function axisVars(opts: RunPhaseOptions, notesFile: string): Record<string, string> {
  return { AXIS_OUTPUT: notesFile, ...scriptVars(opts) };
}

/** The AXIS_* variables of scripts: lifecycle phases, and `run` checks (phase `check`, no notes file). */
export function scriptVars(opts: {
  workspace: string;
  phase: LifecyclePhase | 'check';
  configDir: string;
  vars?: LifecycleVars;
}): Record<string, string> {
  const v = opts.vars ?? {};
  const out: Record<string, string> = {
    AXIS_WORKSPACE: opts.workspace,
    AXIS_PHASE: opts.phase,
    // Scripts (never agents) may need fixtures next to the config; upstream configs use it too.
    AXIS_CONFIG_DIR: opts.configDir,
  };
  const set = (name: string, value: string | number | undefined): void => {
    if (value !== undefined && value !== '') out[name] = String(value);
  };
  set('AXIS_HOME', v.home);
  set('AXIS_RUN_INDEX', v.runIndex);
  set('AXIS_SCENARIO', v.scenario);
  set('AXIS_AGENT', v.agent);
  set('AXIS_ADAPTER', v.adapter);
  set('AXIS_VARIANT', v.variant);
  set('AXIS_MODEL', v.model);
  set('AXIS_REPORT_DIR', v.reportDir);
  return { ...out, ...v.extra };
}

/**
 * An empty file made anew: the job dir is the agent's to write, and what it left at this path (a link
 * out of the job) must be removed, never opened, by AXIS, which runs outside any sandbox.
 */
async function freshFile(path: string): Promise<void> {
  await rm(path, { force: true, recursive: true });
  await writeFile(path, '', { flag: 'wx' });
}

async function makeNotesDir(): Promise<string> {
  return makeTempDir('axis-notes-');
}

/** Reads at most MAX_NOTES_BYTES; a marker says how much was dropped. */
export async function readNotes(file: string): Promise<{ notes: string; truncated: boolean }> {
  const none = { notes: '', truncated: false };
  // A script may have deleted or replaced the file; only a regular file is read (a FIFO would block).
  const st = await lstat(file).catch(() => undefined);
  if (!st?.isFile()) return none;
  let handle;
  try {
    handle = await open(file, 'r');
    const size = st.size;
    const buf = Buffer.alloc(Math.min(size, MAX_NOTES_BYTES));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    // StringDecoder.write keeps a cut multi-byte character out of the text.
    const text = new StringDecoder('utf8').write(buf.subarray(0, bytesRead)).trimEnd();
    if (size <= MAX_NOTES_BYTES) return { notes: text, truncated: false };
    const marker = `\n\n… [AXIS_OUTPUT truncated: ${size} bytes written, first ${MAX_NOTES_BYTES} kept]`;
    return { notes: text + marker, truncated: true };
  } catch {
    return none;
  } finally {
    await handle?.close().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// run_script

async function runScript(
  index: number,
  action: RunScriptAction,
  opts: RunPhaseOptions,
  env: Record<string, string>,
): Promise<PhaseFailure | undefined> {
  const timeoutS =
    typeof action.timeout === 'number' && action.timeout > 0 ? action.timeout : DEFAULT_SCRIPT_TIMEOUT_S;
  const stdoutTail: string[] = [];
  let stdoutChars = 0;
  const [shell, shellArgs] = shellFor(action.command);
  opts.log?.(`[${opts.phase}] $ ${action.command}`);
  const stderr = stderrLogger(opts.log, `[${opts.phase} stderr]`);
  const res = await spawnAgentProcess({
    command: shell,
    args: shellArgs,
    cwd: opts.cwd,
    env,
    stdin: 'ignore',
    timeoutMs: timerMs(timeoutS * 1000),
    killGraceMs: opts.killGraceMs,
    signal: opts.signal,
    ...(opts.scopeTag ? { scopeTag: opts.scopeTag } : {}),
    ...(opts.space ? { space: opts.space } : {}),
    maxStdoutBytes: 64 * 1024 * 1024,
    maxStderrBytes: OUTPUT_TAIL_BYTES,
    maxLineBytes: OUTPUT_TAIL_BYTES,
    ...(stderr ? { onStderr: stderr.write } : {}),
    onStdoutLine: (line) => {
      opts.log?.(`[${opts.phase}] ${line}`);
      stdoutTail.push(line);
      stdoutChars += line.length + 1;
      while (stdoutChars > OUTPUT_TAIL_BYTES && stdoutTail.length > 1)
        stdoutChars -= stdoutTail.shift()!.length + 1;
    },
  });
  stderr?.end();

  if (!res.spawnError && !res.timedOut && !res.aborted && res.exitCode === 0) return undefined;

  const cmd = JSON.stringify(action.command);
  const stderrTail = res.stderrTail.trimEnd();
  const stdout = stdoutTail.join('\n').trimEnd();
  let head: string;
  if (res.spawnError) head = `Lifecycle action failed: ${cmd} could not start: ${res.spawnError}`;
  else if (res.timedOut) head = `Lifecycle action timed out after ${timeoutS}s: ${cmd}`;
  else if (res.aborted) head = `Lifecycle action cancelled (${res.abortReason ?? 'aborted'}): ${cmd}`;
  else if (res.exitCode === null)
    head = `Lifecycle action failed: ${cmd} was killed by ${res.signal ?? 'a signal'}`;
  else head = `Lifecycle action failed: ${cmd} exited with code ${res.exitCode}`;
  const detail = stderrTail || stdout;
  const label = stderrTail ? 'stderr' : 'stdout';
  const message = `${opts.phase}[${index}]: ${head}${detail ? `\n${label}:\n${lastChars(detail, MESSAGE_TAIL_CHARS)}` : ''}`;
  return {
    actionIndex: index,
    action: 'run_script',
    command: action.command,
    exitCode: res.exitCode,
    stderrTail,
    stdoutTail: stdout,
    timedOut: res.timedOut,
    aborted: res.aborted,
    message,
  };
}

/** Under -v, a script's stderr is logged line by line like its stdout (a warning of a script that exits 0 too). */
function stderrLogger(
  log: ((line: string) => void) | undefined,
  prefix: string,
): { write: (text: string) => void; end: () => void } | undefined {
  if (!log) return undefined;
  let carry = '';
  const emit = (line: string) => log(`${prefix} ${line.replace(/\r$/, '')}`);
  return {
    write: (text) => {
      const lines = (carry + text).split('\n');
      carry = lines.pop()!;
      for (const line of lines) emit(line);
      // A line with no end in sight is logged in parts rather than held without bound.
      if (carry.length > OUTPUT_TAIL_BYTES) {
        emit(carry);
        carry = '';
      }
    },
    end: () => {
      if (carry) emit(carry);
      carry = '';
    },
  };
}

function shellFor(command: string): [string, string[]] {
  if (process.platform === 'win32') return [process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', command]];
  return ['/bin/sh', ['-c', command]];
}

function lastChars(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

async function runCopy(
  index: number,
  action: CopyAction,
  opts: RunPhaseOptions,
): Promise<PhaseFailure | undefined> {
  const describe = `copy ${action.match} -> ${action.destination}`;
  try {
    const files = await copyFiles(action, opts.configDir, opts.workspace);
    opts.log?.(`[copy] ${action.match} -> ${action.destination}: ${files} file(s)`);
    return undefined;
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    return baseFailure(index, action, `${opts.phase}[${index}]: Lifecycle action failed: ${text}`, describe);
  }
}

// ---------------------------------------------------------------------------------------------

function describeAction(action: LifecycleAction): string {
  return action.action === 'run_script' ? action.command : `copy ${action.match} -> ${action.destination}`;
}

function baseFailure(
  index: number,
  action: LifecycleAction,
  message: string,
  command?: string,
): PhaseFailure {
  return {
    actionIndex: index,
    action: action.action,
    command: command ?? describeAction(action),
    exitCode: null,
    stderrTail: '',
    stdoutTail: '',
    timedOut: false,
    aborted: false,
    message,
  };
}

function cancelled(
  phase: LifecyclePhase,
  index: number,
  action: LifecycleAction,
  reason: unknown,
): PhaseFailure {
  const what = JSON.stringify(describeAction(action));
  const failure = baseFailure(
    index,
    action,
    `${phase}[${index}]: Lifecycle action cancelled (${abortReasonText(reason)}): ${what}`,
  );
  return { ...failure, aborted: true };
}
