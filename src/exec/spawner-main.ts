/**
 * The spawner process (started by spawner.ts, once per AXIS process): forks and execs job processes so
 * that the large AXIS process never forks itself. A job's stdout and stderr are Unix stream sockets that
 * this process connects to AXIS's socket server (each opened by a header naming the job) before the job
 * starts, so the job writes straight to AXIS; its pid and exit status go back over the IPC channel.
 *
 * Sockets rather than pipes sent over IPC (`send(message, handle)`): Node waits for an acknowledgement of
 * each handle before the next message, two round trips between the processes per job, which doubled the
 * wall time per job at concurrency 15 on a loaded machine. Libuv's own stdio "pipes" are socketpairs, so
 * the job sees the same kind of file descriptor, set blocking for it as before.
 *
 * It imports nothing but node built-ins, so its heap (and what every fork copies) stays small. When AXIS
 * goes away (its IPC channel closes, or the parent-death signal arrives) it kills what it started and exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';

/** One job process to start (see spawner.ts for the other messages). */
interface StartRequest {
  id: number;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to the process's stdin, which is then closed; absent: stdin is /dev/null. */
  stdin?: string;
}

/** AXIS's socket server (an abstract address) and the token that opens each stream: the first message. */
let address = '';
let token = Buffer.alloc(0);

interface Hello {
  t: 'hello';
  address: string;
  token: string;
}
const live = new Map<number, ChildProcess>();

function send(message: object): void {
  // A failed send means AXIS is gone: 'disconnect' follows and ends everything.
  process.send?.(message, undefined, undefined, () => {});
}

/** A socket to AXIS, opened by the header `token, job id (u32), stream (1 stdout, 2 stderr)`. */
function stream(id: number, fd: 1 | 2): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(address);
    socket.on('error', reject);
    socket.on('connect', () => {
      const head = Buffer.alloc(token.length + 5);
      token.copy(head);
      head.writeUInt32BE(id, token.length);
      head[token.length + 4] = fd;
      // Written before the job exists, so its first bytes always follow the header.
      socket.write(head, (err) => (err ? reject(err) : resolve(socket)));
    });
  });
}

async function start(req: StartRequest): Promise<void> {
  let out: Socket | undefined;
  let err: Socket | undefined;
  try {
    [out, err] = await Promise.all([stream(req.id, 1), stream(req.id, 2)]);
  } catch (e) {
    out?.destroy();
    err?.destroy();
    send({
      t: 'error',
      id: req.id,
      code: 'EPIPE',
      message: `spawner: no stream to AXIS: ${(e as Error).message}`,
    });
    return;
  }
  let child: ChildProcess;
  try {
    // axis-contain checks its parent against this (AXIS_CONTAIN_PARENT, contain.ts): the spawner is it.
    if (req.env.AXIS_CONTAIN_PARENT === '') req.env.AXIS_CONTAIN_PARENT = String(process.pid);
    child = spawn(req.command, req.args, {
      cwd: req.cwd,
      env: req.env,
      stdio: [req.stdin === undefined ? 'ignore' : 'pipe', out, err],
      detached: true,
    });
  } catch (e) {
    // E2BIG and friends are thrown synchronously.
    const x = e as NodeJS.ErrnoException;
    send({ t: 'error', id: req.id, code: x.code, message: x.message });
    return;
  } finally {
    // The job holds its own copies now (or failed); AXIS's ends see EOF when the job's are closed.
    out.destroy();
    err.destroy();
  }
  const pid = child.pid;
  if (pid === undefined) {
    child.on('error', (e: NodeJS.ErrnoException) =>
      send({ t: 'error', id: req.id, code: e.code, message: e.message }),
    );
    return;
  }
  live.set(req.id, child);
  child.on('error', () => {}); // after a start, only a failed kill: AXIS kills by group itself
  send({ t: 'spawned', id: req.id, pid });
  if (child.stdin) {
    child.stdin.on('error', () => {}); // EPIPE when the job does not read its input
    child.stdin.end(req.stdin);
  }
  child.on('exit', (code, signal) => {
    live.delete(req.id);
    send({ t: 'exit', id: req.id, code, signal });
  });
}

/** AXIS is gone: nothing it started may outlive it. */
function shutdown(): never {
  for (const child of live.values()) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exit(0);
}

process.on('message', (m: StartRequest | Hello) => {
  if (!('t' in m)) return void start(m);
  address = `\0${m.address}`; // the leading NUL byte makes it abstract
  token = Buffer.from(m.token, 'hex');
});
process.on('disconnect', shutdown);
// The parent-death signal (setpriv --pdeathsig) when AXIS dies; a terminal's signals never come here
// (the spawner has its own session), so any of these means the end.
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, shutdown);
if (!process.connected) shutdown();
