/**
 * An after-all check that a test file left nothing behind: no process and no AXIS temp dir.
 *
 * Call `checkLeaks()` at the top of a test file (before other hooks, so its afterAll runs last). While the
 * file runs it samples the processes descended from the test process (the AXIS runs it starts, in
 * process or as `node bin/axis.js`). Afterwards it fails the file if any of these is still alive:
 * - a descendant of the test process;
 * - a process tagged (`AXIS_PROCESS_TAG`) by the test process or by one of the sampled AXIS processes,
 *   wherever it went (reparented to init, another session, a PID namespace);
 * - an `$TMPDIR/axis-*` dir whose owner marker names one of them.
 * Other engineers' runs on the same machine are never counted: only this file's owners are.
 * Whatever it finds is killed and removed before the failure is reported, so a failing test does not
 * leave its mess for the next one.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { OWNER_FILE } from '../../src/exec/workspace.js';
import { startTime, statFields, tagOwner, taggedProcesses } from '../../src/exec/contain.js';

const SAMPLE_MS = 150;
const SETTLE_MS = 8000;

interface Seen {
  pid: number;
  start: number;
}

/** Pids of live (non-zombie) processes below `root`, from one /proc read. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (!f || f[0] === 'Z') continue;
    const ppid = Number(f[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

export interface Leaks {
  processes: string[];
  dirs: string[];
}

export function checkLeaks(): void {
  if (process.platform !== 'linux') return;
  const owners = new Map<string, Seen>();
  const remember = (pid: number): void => {
    const start = startTime(pid);
    if (start !== undefined) owners.set(`${pid}.${start}`, { pid, start });
  };
  remember(process.pid);
  let timer: NodeJS.Timeout | undefined;

  beforeAll(() => {
    timer = setInterval(() => descendantsOf(process.pid).forEach(remember), SAMPLE_MS);
    timer.unref();
  });

  afterAll(async () => {
    clearInterval(timer);
    descendantsOf(process.pid).forEach(remember);
    const deadline = Date.now() + SETTLE_MS;
    let found = findLeaks(owners);
    // Processes being torn down (SIGTERM → SIGKILL grace) and dirs being removed get a moment.
    while ((found.processes.length > 0 || found.dirs.length > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      found = findLeaks(owners);
    }
    if (found.processes.length === 0 && found.dirs.length === 0) return;
    cleanUp(owners);
    throw new Error(
      `this test file left ${found.processes.length} process(es) and ${found.dirs.length} temp dir(s) behind:\n` +
        [...found.processes, ...found.dirs].map((x) => `  ${x}`).join('\n'),
    );
  }, SETTLE_MS + 5000);
}

function ownedBy(owners: Map<string, Seen>) {
  return (tag: string): boolean => {
    const o = tagOwner(tag);
    return o !== undefined && owners.has(`${o.pid}.${o.start}`);
  };
}

/** What is still there that this file's owners made. */
export function findLeaks(owners: Map<string, Seen>): Leaks {
  const pids = new Set([...descendantsOf(process.pid), ...taggedProcesses(ownedBy(owners))]);
  const processes = [...pids].map((pid) => `pid ${pid}: ${cmdline(pid)}`);
  const dirs = ownedDirs(owners);
  return { processes, dirs };
}

function ownedDirs(owners: Map<string, Seen>): string[] {
  const out: string[] = [];
  for (const name of safeReaddir(tmpdir())) {
    if (!name.startsWith('axis-')) continue;
    try {
      const marker = JSON.parse(readFileSync(join(tmpdir(), name, OWNER_FILE), 'utf8')) as Seen;
      if (owners.has(`${marker.pid}.${marker.start}`)) out.push(join(tmpdir(), name));
    } catch {
      // no marker (not an AXIS workspace) or gone meanwhile
    }
  }
  return out;
}

function cleanUp(owners: Map<string, Seen>): void {
  const pids = new Set([...descendantsOf(process.pid), ...taggedProcesses(ownedBy(owners))]);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const dir of ownedDirs(owners)) rmSync(dir, { recursive: true, force: true });
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 200);
  } catch {
    return '(gone)';
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Live processes whose command line contains `token` (works across PID namespaces). */
export function processesWith(token: string): number[] {
  const out: number[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    if (statFields(name)?.[0] === 'Z') continue;
    if (cmdline(Number(name)).includes(token)) out.push(Number(name));
  }
  return out;
}
