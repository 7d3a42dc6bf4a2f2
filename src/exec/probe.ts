/**
 * A short program AXIS runs to learn what the host permits (the containment helper's self-test, the
 * private-/tmp probes), run without blocking the event loop and, where the spawner runs, forked by it:
 * `spawnSync` held `axis run`'s main thread ~10 ms per probe, and even an asynchronous `spawn` forks the
 * whole AXIS process on the main thread (~5 ms each here), while the spawner is a small process that
 * `axis run` has already started. Without the spawner (or when it is lost) the probe is spawned here.
 */
import { spawn } from 'node:child_process';
import { SpawnerLost, type JobChild } from './remote-child.js';
import { spawnViaSpawner } from './spawner.js';

export interface ProbeResult {
  /** Exit status; null when the probe did not start or ended by a signal. */
  status: number | null;
  signal: NodeJS.Signals | null;
  /** Why it did not start (ENOENT …), as spawn reports it. */
  error?: NodeJS.ErrnoException;
  stderr: string;
}

/** Runs `command args` with `stdin` (or /dev/null), stdout dropped, stderr kept (the first 4 KB). */
export async function runProbe(command: string, args: string[], stdin?: string): Promise<ProbeResult> {
  const remote = spawnViaSpawner({
    command,
    args,
    cwd: '/',
    env: hostEnv(),
    ...(stdin !== undefined ? { stdin } : {}),
  });
  const outcome = remote ? await remote : undefined;
  if (outcome && 'error' in outcome) return { status: null, signal: null, error: outcome.error, stderr: '' };
  if (outcome && 'child' in outcome) {
    const res = await finished(outcome.child);
    // The spawner died while the probe ran: that says nothing of the host, so it is asked again here.
    if (!(res.error instanceof SpawnerLost)) return res;
  }
  return spawnHere(command, args, stdin);
}

function hostEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

function spawnHere(command: string, args: string[], stdin: string | undefined): Promise<ProbeResult> {
  const child = spawn(command, args, { stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'] });
  if (child.stdin) {
    // A probe that exits before reading its stdin gives EPIPE: its status says more.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  }
  return finished(child);
}

const STDERR_KEPT = 4096;

function finished(child: JobChild): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let stderr = '';
    let exit: { status: number | null; signal: NodeJS.Signals | null } = { status: null, signal: null };
    let error: NodeJS.ErrnoException | undefined;
    child.stdout?.resume();
    child.stderr?.on('data', (c: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += c.toString('utf8');
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      error = err;
      // A child that never started emits no 'close' after its 'error'.
      if (child.pid === undefined) resolve({ status: null, signal: null, error: err, stderr });
    });
    child.on('exit', (status: number | null, signal: NodeJS.Signals | null) => {
      exit = { status, signal };
    });
    child.on('close', () =>
      resolve({ ...exit, ...(error ? { error } : {}), stderr: stderr.slice(0, STDERR_KEPT) }),
    );
  });
}
