/**
 * The start-up sweep: what an earlier AXIS left behind when it was killed (`kill -9`, OOM, power cut
 * of a CI runner) — processes carrying its tag and temp dirs carrying its owner marker — is removed by the
 * next run. Only things whose owner is provably dead are touched (another boot, or a pid that is gone or
 * now belongs to a process started at another time, in the same pid namespace): other AXIS runs on the
 * same machine, and directories without a marker, are left alone.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
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
  const names = await readdir(tmp).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith('axis-')) continue;
    const dir = join(tmp, name);
    if (mine.has(dir)) continue;
    const owner = await readOwner(dir);
    if (!owner || ownerState(owner) !== 'dead') continue;
    if (await removeWorkspace(dir, () => {})) dirs.push(dir);
  }
  return { processes, dirs };
}

async function readOwner(dir: string): Promise<Owner | undefined> {
  try {
    if (!(await lstat(dir)).isDirectory()) return undefined;
    const file = join(dir, OWNER_FILE);
    const st = await lstat(file);
    if (!st.isFile() || st.size > 4096) return undefined;
    const v = JSON.parse(await readFile(file, 'utf8')) as Partial<Owner>;
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
