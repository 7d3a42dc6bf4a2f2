/**
 * A job process the spawner (spawner.ts) started, as process.ts sees it: the same events and streams as
 * a ChildProcess, its pid and exit status reported by the spawner.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';

/** What process.ts needs of a started process: a ChildProcess, or a {@link RemoteChild}. */
export interface JobChild extends Pick<EventEmitter, 'on'> {
  readonly pid?: number | undefined;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
}

export interface SpawnRequest {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed; undefined: stdin is /dev/null. */
  stdin?: string;
}

export type SpawnOutcome =
  | { child: RemoteChild }
  /** The start failed (ENOENT, EACCES, E2BIG…), as spawn reports it. */
  | { error: NodeJS.ErrnoException }
  /** The spawner died before it reported the process. */
  | { lost: string };

/** Emitted as 'error' by a {@link RemoteChild} whose spawner died while it ran (it has been killed). */
export class SpawnerLost extends Error {}

/**
 * A process the spawner started. Emits 'exit' (code, signal) when the spawner reports it, and 'close'
 * once it has exited and both pipes are closed, as a ChildProcess does.
 */
export class RemoteChild extends EventEmitter implements JobChild {
  readonly stdin = null;
  private open = 3; // stdout, stderr, the exit report

  constructor(
    readonly pid: number,
    readonly stdout: Socket,
    readonly stderr: Socket,
  ) {
    super();
    // A stream can have ended and closed already (a job that printed nothing and exited at once).
    for (const s of [stdout, stderr]) {
      if (s.closed) this.closed();
      else s.once('close', () => this.closed());
    }
  }

  /**
   * Reports the exit. Deferred: the IPC channel emits a batch of messages in one go, before the
   * caller's listeners (attached once the start promise settles) are in place.
   */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    setImmediate(() => {
      this.emit('exit', code, signal);
      this.closed();
    });
  }

  /** The spawner died: the process is killed (its group) and reported as ended. */
  lose(reason: string): void {
    killGroup(this.pid);
    setImmediate(() => this.emit('error', new SpawnerLost(reason)));
    this.exited(null, 'SIGKILL');
  }

  private closed(): void {
    if (--this.open === 0) this.emit('close');
  }
}

export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone (the containment wrapper's parent-death signal)
  }
}
