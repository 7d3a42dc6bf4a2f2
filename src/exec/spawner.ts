/**
 * Job processes start from a small, long-lived spawner process (spawner-main.ts), not from AXIS itself.
 *
 * A fork copies the parent's page tables, and libuv's spawn blocks the event loop until the child has
 * exec'd: from the ~110 MB AXIS process that was ~3.4 ms of main-thread time per job, growing with RSS.
 * The spawner is a bare Node process that forks instead. Each job's stdout and stderr are sockets the
 * spawner connects to a socket server of AXIS (abstract Unix address, a random token in each stream's
 * header) before the job starts, so AXIS reads the job's output directly, with no relay; the pid and exit
 * status come by IPC message. Killing stays with AXIS (by process group, as before).
 *
 * Lifetime: started on first use; stopped after a second with nothing in flight (so a library user or a
 * test is not left with a process); it dies with AXIS: the IPC channel closing or the parent-death
 * signal (setpriv) makes it kill everything it started and exit, and the containment wrapper's own
 * parent-death signal then ties each job to the spawner. If it fails to start or dies, the jobs in flight
 * fail with that reason and AXIS forks later ones itself. `AXIS_SPAWNER=off` forces that from the start;
 * `AXIS_SPAWNER=node` picks the Node spawner where the C one (native/axis-spawner.c) is built.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { isAbsolute, relative } from 'node:path';
import { newTag, onPath, TAG_VAR } from './contain.js';
import { distPath, PACKAGE_ROOT } from '../util/package-root.js';
import { killGroup, RemoteChild, type SpawnOutcome, type SpawnRequest } from './remote-child.js';

const IDLE_MS = 1000;

interface Pending {
  resolve: (outcome: SpawnOutcome) => void;
  pid?: number;
  stdout?: Socket;
  stderr?: Socket;
  child?: RemoteChild;
  /** The exit report, when it came before both streams were accepted. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

interface Spawner {
  proc: ChildProcess;
  server: Server;
  token: Buffer;
  pending: Map<number, Pending>;
  /** Stopped on purpose (idle): its exit is not a failure. */
  stopping: boolean;
  stderr: string;
  idle?: NodeJS.Timeout;
}

let current: Spawner | undefined;
/** Why job processes start directly from AXIS, once that is decided. */
let direct: string | undefined;
let seq = 0;
let noticeTo: ((message: string) => void) | undefined;
/** Notices from before anyone listened (`axis run` starts the spawner before its log exists). */
let unheard: string[] = [];

function notice(message: string): void {
  if (noticeTo) noticeTo(message);
  else unheard = [...unheard.slice(-7), message];
}

/**
 * Where `-v` lines about the spawner go (the run's verbose log); notices from before are passed on
 * first. Undefined: nobody listens for now, and notices wait (the last few) for the next listener.
 */
export function setSpawnerNotice(fn: ((message: string) => void) | undefined): void {
  noticeTo = fn;
  if (!fn) return;
  const earlier = unheard;
  unheard = [];
  for (const m of earlier) fn(m);
}

const SPAWNER_VALUES = ['off', 'node'];

/** One line for `-v`: how job processes are started (an `AXIS_SPAWNER` that means nothing is named). */
export function spawnerDescription(): string {
  const why = directReason();
  const value = process.env.AXIS_SPAWNER;
  const note =
    value && !SPAWNER_VALUES.includes(value)
      ? ` (AXIS_SPAWNER=${value} ignored: expected ${SPAWNER_VALUES.join(' or ')})`
      : '';
  if (why) return `spawner: off (${why}); job processes are forked by the AXIS process itself${note}`;
  const program = spawnerArgv()?.at(-1);
  const which = program ? ` (${relative(PACKAGE_ROOT, program)})` : '';
  return `spawner: job processes are forked by a small spawner process${which}, not by the AXIS process${note}`;
}

function directReason(): string | undefined {
  if (direct) return direct;
  if (process.env.AXIS_SPAWNER === 'off') return 'AXIS_SPAWNER=off';
  if (process.platform !== 'linux')
    return `Linux only (its streams use abstract Unix sockets; this is ${process.platform})`;
  return undefined;
}

/**
 * Starts a process through the spawner; undefined when job processes start directly (the caller
 * spawns it itself).
 */
export function spawnViaSpawner(req: SpawnRequest): Promise<SpawnOutcome> | undefined {
  if (directReason()) return undefined;
  const sp = current ?? launch();
  if (!sp) return undefined;
  const id = ++seq;
  return new Promise<SpawnOutcome>((resolve) => {
    sp.pending.set(id, { resolve });
    busy(sp);
    sp.proc.send({ id, ...req }, (err) => {
      if (err) fail(sp, `its IPC channel failed: ${err.message}`);
    });
  });
}

/**
 * Starts the spawner ahead of the first job (`axis run` calls it before its start-up probes and
 * planning), so its start (~50-100 ms for the Node spawner; the C one's is about a millisecond)
 * overlaps AXIS's own start-up instead of delaying the first job. It waits idle, as between jobs: it
 * keeps nothing alive and stops after IDLE_MS unless a job comes. Nothing happens where job processes
 * start directly.
 */
export function prewarmSpawner(): void {
  if (directReason() || current) return;
  const sp = launch();
  if (sp) idle(sp); // nothing is in flight yet
}

/** Pid of the running spawner, if any (tests). */
export function spawnerPid(): number | undefined {
  return current?.proc.pid;
}

/** Stops the spawner now (tests; it also stops itself when idle). */
export function stopSpawner(): void {
  if (current) stop(current);
}

/**
 * `killAll()`: the spawner goes with everything AXIS started (it is tagged as AXIS's own). It is
 * forgotten at once, so a spawn right after starts a fresh one instead of going to the dying one.
 */
export function killSpawner(): void {
  const sp = current;
  if (!sp) return;
  current = undefined;
  sp.stopping = true; // nothing in flight: its exit is not a failure (in flight: killAll ended them)
  try {
    sp.proc.kill('SIGKILL');
  } catch {
    // gone
  }
}

/** Lets the spawner be used again after a failure (tests). */
export function resetSpawner(): void {
  direct = undefined;
}

function launch(): Spawner | undefined {
  const argv = spawnerArgv();
  if (!argv) {
    giveUp(
      process.env.AXIS_SPAWNER === 'node'
        ? 'its program dist/exec/spawner-main.js is missing (run `npm run build`)'
        : 'neither dist/native/axis-spawner nor dist/exec/spawner-main.js is built (run `npm run build`)',
    );
    return undefined;
  }
  const token = randomBytes(16);
  // An abstract address (Linux): no file to clean up after a kill -9, gone with the process.
  const name = `axis-spawner-${process.pid}-${randomBytes(6).toString('hex')}`;
  const address = `\0${name}`;
  // Nothing of AXIS's environment (secrets included) but PATH: each job gets its own complete environment,
  // and libuv searches the job's PATH, not the spawner's. No NODE_OPTIONS: no inspector, profiler or preload.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
  };
  const tag = newTag();
  if (tag) env[TAG_VAR] = tag; // so the start-up sweep reaps it if it ever outlived AXIS
  const server = createServer({ allowHalfOpen: false });
  let proc: ChildProcess;
  try {
    server.listen(address);
    // Its own session: a terminal's Ctrl-C goes to AXIS, which decides what the jobs get.
    proc = spawn(argv[0]!, argv.slice(1), {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env,
      detached: true,
    });
  } catch (err) {
    server.close();
    giveUp(`it could not start: ${(err as Error).message}`);
    return undefined;
  }
  server.unref();
  const sp: Spawner = { proc, server, token, pending: new Map(), stopping: false, stderr: '' };
  server.on('connection', (socket) => accept(sp, socket));
  server.on('error', (err) => fail(sp, `its socket server failed: ${err.message}`));
  proc.unref();
  (proc.stderr as Socket | null)?.unref();
  proc.stderr?.on('data', (chunk: Buffer) => (sp.stderr = (sp.stderr + chunk.toString()).slice(-500)));
  proc.on('error', (err) => fail(sp, `it could not start: ${err.message}`));
  proc.on('exit', (code, signal) =>
    fail(
      sp,
      `it exited (${signal ? `signal ${signal}` : `exit code ${code}`})${sp.stderr.trim() ? `: ${sp.stderr.trim()}` : ''}`,
    ),
  );
  // The channel closes first; the exit (with its signal) follows unless the spawner is wedged.
  proc.on('disconnect', () => setTimeout(() => fail(sp, 'its IPC channel closed'), 1000).unref());
  proc.on('message', (m: Message) => receive(sp, m));
  // The token goes by message, not in its environment, which a job of the same user could read in /proc.
  proc.send({ t: 'hello', address: name, token: token.toString('hex') });
  current = sp;
  notice(`spawner: started (pid ${proc.pid ?? '?'})`);
  return sp;
}

type Message =
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: 'error'; id: number; code?: string; message: string };

function receive(sp: Spawner, m: Message): void {
  const p = sp.pending.get(m.id);
  if (!p) return;
  if (m.t === 'spawned') {
    p.pid = m.pid;
    ready(sp, m.id, p);
  } else if (m.t === 'exit') {
    p.exit = { code: m.code, signal: m.signal };
    ready(sp, m.id, p);
  } else {
    done(sp, m.id);
    p.stdout?.destroy();
    p.stderr?.destroy();
    p.resolve({ error: Object.assign(new Error(m.message), { code: m.code }) });
  }
}

/** A job stream from the spawner: its header says whose and which; anything else is dropped. */
function accept(sp: Spawner, socket: Socket): void {
  const size = sp.token.length + 5;
  socket.on('error', () => {}); // the job's end closing early is not AXIS's problem
  const timer = setTimeout(() => socket.destroy(), 10_000);
  timer.unref();
  const onReadable = (): void => {
    const head = socket.read(size) as Buffer | null;
    if (head === null) return; // not all of it yet (or EOF: 'close' follows)
    socket.off('readable', onReadable);
    clearTimeout(timer);
    const id = head.subarray(0, sp.token.length).equals(sp.token) ? head.readUInt32BE(sp.token.length) : 0;
    const p = sp.pending.get(id);
    const which = head[size - 1] === 1 ? 'stdout' : 'stderr';
    if (!p || p[which] || p.child) return void socket.destroy();
    p[which] = socket;
    ready(sp, id, p);
  };
  socket.on('readable', onReadable);
}

/** Hands the process to the caller once it has started and both streams are here; then its exit. */
function ready(sp: Spawner, id: number, p: Pending): void {
  if (p.pid === undefined || !p.stdout || !p.stderr) return;
  if (!p.child) {
    p.child = new RemoteChild(p.pid, p.stdout, p.stderr);
    p.resolve({ child: p.child });
  }
  if (!p.exit) return;
  done(sp, id);
  p.child.exited(p.exit.code, p.exit.signal);
}

function done(sp: Spawner, id: number): void {
  sp.pending.delete(id);
  if (sp.pending.size === 0) idle(sp);
}

/** Nothing in flight: the spawner must not keep AXIS alive, and an idle one goes away. */
function idle(sp: Spawner): void {
  sp.proc.channel?.unref();
  sp.proc.unref();
  sp.idle = setTimeout(() => stop(sp), IDLE_MS);
  sp.idle.unref();
}

function busy(sp: Spawner): void {
  if (sp.idle) clearTimeout(sp.idle);
  sp.idle = undefined;
  // While jobs are in flight, its messages and its exit must be heard.
  sp.proc.channel?.ref();
  sp.proc.ref();
}

function stop(sp: Spawner): void {
  if (sp.pending.size > 0 || sp.stopping) return;
  sp.stopping = true;
  if (current === sp) current = undefined;
  if (sp.idle) clearTimeout(sp.idle);
  if (sp.proc.connected) sp.proc.disconnect(); // it exits when its channel closes
  sp.server.close();
}

/** How often a spawner failed with jobs in flight (their processes die with it, but not at once). */
let failures = 0;

export function spawnerFailures(): number {
  return failures;
}

/** The spawner failed: what was in flight fails with the reason, and later jobs start directly. */
function fail(sp: Spawner, why: string): void {
  if (sp.stopping && sp.pending.size === 0) return;
  sp.stopping = true;
  if (sp.pending.size > 0) failures++;
  if (current === sp) current = undefined;
  const reason = `AXIS's spawner process (pid ${sp.proc.pid ?? '?'}) failed: ${why}`;
  for (const p of sp.pending.values()) {
    if (p.child) p.child.lose(`${reason}; this job's process was killed`);
    else {
      p.stdout?.destroy();
      p.stderr?.destroy();
      if (p.pid !== undefined) killGroup(p.pid); // started, but its pipes never arrived
      p.resolve({ lost: reason });
    }
  }
  const inFlight = sp.pending.size;
  sp.pending.clear();
  sp.server.close();
  if (sp.proc.connected) sp.proc.disconnect();
  try {
    sp.proc.kill('SIGKILL');
  } catch {
    // gone
  }
  giveUp(`${why}; ${inFlight} process(es) in flight failed`);
}

function giveUp(why: string): void {
  direct = `the spawner failed: ${why}`;
  notice(`spawner: ${why}; job processes now start directly from the AXIS process`);
}

/**
 * How the spawner starts: the C program `npm run build` makes (dist/native/axis-spawner, same protocol,
 * a fraction of the CPU per job: docs/performance.md, "The spawner process"), which sets its own
 * parent-death signal; else spawner-main.js under Node, behind setpriv's parent-death signal where
 * there is one. `AXIS_SPAWNER=node` picks the Node one. Undefined: neither is built.
 */
function spawnerArgv(): string[] | undefined {
  const native = distPath('native', 'axis-spawner');
  if (process.env.AXIS_SPAWNER !== 'node' && existsSync(native)) return [native];
  const main = distPath('exec', 'spawner-main.js'); // also from src/: tests build dist/ first
  if (!existsSync(main)) return undefined;
  // A small heap: every fork copies the spawner's page tables.
  const node = [process.execPath, '--max-old-space-size=24', '--max-semi-space-size=1', main];
  const setpriv = setprivPath();
  return setpriv ? [setpriv, '--pdeathsig', 'TERM', ...node] : node;
}

let setprivFound: string | null | undefined;

/** util-linux setpriv (parent-death signal for the spawner), or null where there is none. */
function setprivPath(): string | null {
  if (setprivFound === undefined) {
    const found = process.platform === 'linux' ? onPath('setpriv') : '';
    setprivFound = isAbsolute(found) ? found : null;
  }
  return setprivFound;
}
