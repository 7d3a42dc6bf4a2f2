/**
 * `settings.sandbox: "bwrap"`: bubblewrap around every process of a job (exec/contain.ts is the
 * containment without it).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';

/** A job's sandbox: the paths its processes may write (filled in once the workspace exists). */
export interface JobSandbox {
  writable: string[];
  /** Paths under /tmp to show read-only over the private /tmp (the project dir, when it lives there). */
  readable?: string[];
}

/**
 * The sandbox of the job whose code is running (an async context set by runJob), so every process a job
 * starts — agent, lifecycle scripts, `run` checks, whatever adapter starts it — gets it without each
 * caller passing it along.
 */
export const jobSandbox = new AsyncLocalStorage<JobSandbox>();

const BWRAP_BASE = [
  '--die-with-parent',
  '--unshare-pid',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
];

/**
 * bubblewrap's command prefix: the host filesystem read-only, a fresh /dev, /proc and private /tmp, the
 * writable paths bound back read-write, its own PID namespace (bwrap is PID 1 there and the program its
 * child, so signals reach the program), and it dies with AXIS.
 */
export function bwrapPrefix(sandbox: JobSandbox): string[] {
  const shown = (sandbox.readable ?? []).flatMap((p) => ['--ro-bind', p, p]);
  const binds = sandbox.writable.flatMap((p) => ['--bind', p, p]);
  return ['bwrap', ...BWRAP_BASE, '--tmpfs', '/tmp', ...shown, ...binds, '--'];
}

let bwrapChecked: string | null | undefined;

/** Why bubblewrap cannot sandbox jobs here, or null when it can (checked once by running it). */
export function bwrapProblem(): string | null {
  if (bwrapChecked !== undefined) return bwrapChecked;
  if (process.platform !== 'linux')
    return (bwrapChecked = `bubblewrap needs Linux (this is ${process.platform})`);
  const res = spawnSync('bwrap', [...BWRAP_BASE, '--', 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (res.error)
    bwrapChecked =
      (res.error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)'
        : `bwrap cannot start: ${res.error.message}`;
  else if (res.status !== 0)
    bwrapChecked = `bwrap cannot create its namespaces here (${res.stderr.toString().trim().split('\n')[0] || `exit ${res.status}`}); unprivileged user namespaces may be disabled`;
  else bwrapChecked = null;
  return bwrapChecked;
}
