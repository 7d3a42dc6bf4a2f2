/**
 * Owner identity: a pid is only "this AXIS" together with its start time, boot and pid namespace, so a
 * marker left by a dead process is told apart from one whose pid was reused (Linux /proc).
 */
import { readFileSync, readlinkSync } from 'node:fs';

export interface Owner {
  pid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  start: number;
  boot: string;
  /** The pid namespace the pid is counted in; another namespace's pids cannot be checked. */
  pidns: string;
}

let self: Owner | undefined;

/** This process as an {@link Owner}; undefined where /proc is not available. */
export function selfOwner(): Owner | undefined {
  if (process.platform !== 'linux') return undefined;
  if (self) return self;
  const start = startTime(process.pid);
  const boot = readOr('/proc/sys/kernel/random/boot_id').trim();
  const pidns = pidNamespace();
  if (start === undefined || !boot || !pidns) return undefined;
  self = { pid: process.pid, start, boot, pidns };
  return self;
}

/**
 * `dead`: provably not running (another boot, or the pid is gone or now belongs to a process started at
 * another time). `alive`: it is. `unknown`: cannot tell (another pid namespace): leave its things alone.
 */
export function ownerState(owner: Owner): 'dead' | 'alive' | 'unknown' {
  const me = selfOwner();
  if (!me) return 'unknown';
  if (owner.boot !== me.boot) return 'dead';
  if (owner.pidns !== me.pidns) return 'unknown';
  const start = startTime(owner.pid);
  return start === owner.start ? 'alive' : 'dead';
}

export function startTime(pid: number): number | undefined {
  const fields = statFields(pid);
  const value = fields ? Number(fields[19]) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** /proc/<pid>/stat after "(comm) ": state ppid pgrp session … (starttime is index 19). */
export function statFields(pid: number | string): string[] | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

export function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
