/**
 * The process groups AXIS started and the scope tags its lifecycle scripts ran under: `killAll()` is
 * used on a forced Ctrl-C and on process exit, `killTagged()` when a job ends.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { containment, selfOwner, signalEach, statFields, tagOwner, taggedProcesses } from './contain.js';
import { killSpawner } from './spawner.js';

const POLL_MS = 25;
const isWindows = process.platform === 'win32';

const liveGroups = new Set<number>();
let exitHookInstalled = false;
/** Scope tags some process was started under: only these can have anything for {@link killTagged}. */
const usedScopes = new Set<string>();

export function track(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => killAll('SIGKILL'));
  }
}

/** Process-group ids (leader pids) started by this module that may still have members. */
export function liveProcessGroups(): number[] {
  return [...liveGroups];
}

/** Signals every live process group synchronously (safe inside `process.on('exit')`). */
export function killAll(signal: NodeJS.Signals = 'SIGKILL'): number {
  if (signal === 'SIGKILL') killSpawner();
  let count = 0;
  for (const pid of liveGroups) {
    if (signalGroup(pid, signal)) count++;
    else liveGroups.delete(pid);
  }
  // Descendants that left their group (fallback mode; in a PID namespace they die with it).
  if (liveGroups.size > 0 || containment().mode === 'process-group') count += signalEach(ownTagged(), signal);
  return count;
}

/** Live processes tagged by this AXIS process (any spawn). */
function ownTagged(): number[] {
  const me = selfOwner();
  if (!me) return [];
  return taggedProcesses((tag) => {
    const owner = tagOwner(tag);
    return owner?.pid === me.pid && owner.start === me.start;
  });
}

/** Sends `signal` to the whole group led by `pid`; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    if (isWindows && signal === 'SIGKILL')
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' }).on('error', () => {});
    else killQuietly(isWindows ? pid : -pid, signal);
    return true;
  } catch (err) {
    // EPERM: the group exists but is not ours to signal; treat as alive so we keep waiting.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * process.kill, its error built without a stack trace: only the code is read. A finished job's group
 * is probed twice and is gone by then, and building the ESRCH error with its trace cost ~45 µs a time.
 */
function killQuietly(pid: number, signal: NodeJS.Signals | 0): void {
  const traceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(pid, signal);
  } finally {
    Error.stackTraceLimit = traceLimit;
  }
}

/**
 * True while the group has a member that is not a zombie. Orphans are reparented to PID 1, which may
 * reap them late (e.g. in containers); a zombie can do nothing, so it does not count.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const fields = statFields(name); // undefined: exited meanwhile
      if (fields && Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** Records that a process was started under `tag` (so {@link killTagged} has something to look for). */
export function noteScope(tag: string): void {
  usedScopes.add(tag);
}

/** Whether any process was started under `tag` (and not yet looked for by {@link killTagged}). */
export function scopeUsed(tag: string): boolean {
  return usedScopes.has(tag);
}

/** Drops a group that has no live member left. */
export function forgetGroup(pid: number): void {
  liveGroups.delete(pid);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Ends every live process carrying `tag` (what a job's lifecycle scripts left running): SIGTERM, then
 * SIGKILL for those still there after `graceMs`. Returns how many were signalled.
 */
export async function killTagged(tag: string, graceMs = 2000): Promise<number> {
  // Most jobs start no lifecycle script: nothing can carry their tag, so skip the scan of every
  // process's environment (it cost ~2.5 ms of the event loop per job).
  if (!usedScopes.delete(tag)) return 0;
  const alive = (): number[] => taggedProcesses((t) => t === tag);
  const first = alive();
  if (first.length === 0) return 0;
  signalEach(first, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (alive().length > 0 && performance.now() < deadline) await sleep(POLL_MS);
  signalEach(alive(), 'SIGKILL');
  return first.length;
}
