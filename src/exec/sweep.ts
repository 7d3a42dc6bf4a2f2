/**
 * The start-up sweep: what an earlier AXIS left behind when it was killed (`kill -9`, OOM, power cut
 * of a CI runner) — processes carrying its tag and temp dirs carrying its owner marker — is removed by the
 * next run. Only things whose owner is provably dead are touched (another boot, or a pid that is gone or
 * now belongs to a process started at another time, in the same pid namespace): other AXIS runs on the
 * same machine, and directories without a marker, are left alone.
 */
import { lstatSync, readFileSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownerState, signalEach, tagOwner, taggedProcesses, type Owner } from './contain.js';
import { liveTempDirs, OWNER_FILE, removeWorkspace } from './workspace.js';

export interface SweepResult {
  /** Pids sent SIGKILL. */
  processes: number[];
  /** Temp dirs removed. */
  dirs: string[];
}

/** Reaps leftovers of dead AXIS processes. Never throws. `tmp` defaults to the OS temp dir. */
export async function sweepLeftovers(tmp: string = tmpdir()): Promise<SweepResult> {
  const processes = taggedProcesses((tag) => {
    const owner = tagOwner(tag);
    return owner !== undefined && ownerState(owner) === 'dead';
  });
  signalEach(processes, 'SIGKILL');
  const dirs: string[] = [];
  const mine = new Set(liveTempDirs());
  // With their types: a name that is not a real directory (a file, a link) is passed over without a
  // call of its own. A developer's temp dir easily holds hundreds of `axis-*` entries (test and bench
  // dirs with no marker); one awaited lstat pair each made the sweep 70-110 ms of every run's start.
  const entries = await readdir(tmp, { withFileTypes: true }).catch(() => [] as Dirent[]);
  for (const entry of entries) {
    if (!entry.name.startsWith('axis-') || !entry.isDirectory()) continue;
    const dir = join(tmp, entry.name);
    if (mine.has(dir)) continue;
    const owner = readOwner(dir);
    if (!owner || ownerState(owner) !== 'dead') continue;
    if (await removeWorkspace(dir, () => {})) dirs.push(dir);
  }
  return { processes, dirs };
}

/**
 * The owner marker of a directory listed as one, if it holds a valid one. Synchronous: a missing
 * marker (most `axis-*` dirs) is one `lstat` that throws nothing, and these few calls cost
 * microseconds where each promise-based call cost the event loop tens.
 */
function readOwner(dir: string): Owner | undefined {
  try {
    const file = join(dir, OWNER_FILE);
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 4096) return undefined;
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    if (
      typeof v.pid !== 'number' ||
      typeof v.start !== 'number' ||
      typeof v.boot !== 'string' ||
      typeof v.pidns !== 'string'
    )
      return undefined;
    return { pid: v.pid, start: v.start, boot: v.boot, pidns: v.pidns };
  } catch {
    return undefined;
  }
}
