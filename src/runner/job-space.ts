/**
 * A job's own namespaces, shared by all of its processes (Linux, util-linux `unshare`/`nsenter`):
 *
 * - **private /tmp** (mount namespace): the job's processes see the job's own `tmp/` dir as /tmp, so they
 *   cannot read or write the host's or another job's /tmp files; the workspace (and a project dir under
 *   /tmp) is bound back at its own path. Lifecycle scripts and the agent see the same private /tmp.
 * - **loopback-only network** (network namespace, `network: "loopback"`): the agent's processes see only
 *   loopback. Each allowed host port is forwarded: socat listens on 127.0.0.1:<port> inside and relays
 *   each connection over a Unix socket in the job dir (filesystem sockets cross network namespaces) to a
 *   relay in AXIS that connects to the host's 127.0.0.1:<port>. Everything else is unreachable.
 *
 * One long-lived holder process per job owns the namespaces (it makes the mounts, starts the forwarders,
 * then waits); each job process enters them with `nsenter`, one exec, so the per-spawn cost stays low.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { containment, newTag, TAG_VAR } from './contain.js';
import { isInside } from './workspace.js';

export interface JobSpace {
  pid: number;
  /** /tmp is the job's own. */
  privateTmp: boolean;
  /** The holder has its own loopback-only network namespace. */
  network: boolean;
  close(): Promise<void>;
}

/** What a process started in the current async context enters: set per job, `agent` for the agent phase. */
interface SpaceContext {
  space?: JobSpace;
  agent: boolean;
}
const spaceContext = new AsyncLocalStorage<SpaceContext>();

/** Runs `fn` (a whole job) with a slot for its space, filled in by {@link setJobSpace}. */
export function withJobSpaceSlot<T>(fn: () => Promise<T>): Promise<T> {
  return spaceContext.run({ agent: false }, fn);
}

export function setJobSpace(space: JobSpace): void {
  const ctx = spaceContext.getStore();
  if (ctx) ctx.space = space;
}

/** Runs the agent phase: what it starts also enters the job's network namespace. */
export function inAgentNetwork<T>(fn: () => Promise<T>): Promise<T> {
  const ctx = spaceContext.getStore();
  if (!ctx?.space?.network) return fn();
  return spaceContext.run({ space: ctx.space, agent: true }, fn);
}

/**
 * The command prefix for a process starting in `cwd` in the current job: `nsenter` into the job's
 * namespaces, then `inner` (the PID-namespace wrapper, or nothing for lifecycle scripts). Outside a job
 * space, `inner` as it is.
 */
export function spacePrefix(cwd: string, inner: readonly string[]): string[] {
  const ctx = spaceContext.getStore();
  const space = ctx?.space;
  if (!space) return [...inner];
  const ns = `/proc/${space.pid}/ns`;
  const flags = space.privateTmp ? [`--mount=${ns}/mnt`] : [];
  if (ctx.agent && space.network) flags.push(`--net=${ns}/net`);
  if (flags.length === 0) return [...inner];
  // setns(mnt) resets the cwd to /: --wd puts it back (the path is valid inside, see holder script).
  const enter = ['nsenter', ...flags, `--wd=${cwd}`, '--'];
  if (isRoot()) return [...enter, ...inner];
  // Unprivileged: the namespaces belong to the holder's user namespace, where this user is root; a
  // nested user namespace maps the user back to its own ids, so processes see their real uid and gid.
  enter.splice(1, 0, `--user=${ns}/user`, '--preserve-credentials');
  const own = [`--map-user=${process.getuid!()}`, `--map-group=${process.getgid!()}`];
  const i = inner.indexOf('--map-current-user');
  if (i >= 0) return [...enter, ...inner.slice(0, i), ...own, ...inner.slice(i + 1)];
  return [...enter, 'unshare', '--user', ...own, '--', ...inner];
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** `[dir]` (its real path) when it is below /tmp, which a private /tmp would hide; else `[]`. */
export function projectUnderTmp(dir: string): string[] {
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // keep the path as given
  }
  return real !== '/tmp' && isInside(real, '/tmp') ? [real] : [];
}

// ---------------------------------------------------------------------------------------------
// What the host permits (checked once, by running the real thing)

let tmpChecked: string | null | undefined;
let netChecked: string | null | undefined;

/** Why jobs cannot get a private /tmp here, or null when they can. */
export function privateTmpProblem(): string | null {
  tmpChecked ??= probe(['--mount'], 'mount -t tmpfs axis-probe /tmp', 'mount namespaces');
  return tmpChecked;
}

/** Why jobs cannot get a loopback-only network here, or null when they can. */
export function loopbackProblem(): string | null {
  netChecked ??= socatProblem() ?? probe(['--net'], 'ip link set lo up', 'network namespaces');
  return netChecked;
}

function probe(flags: string[], script: string, what: string): string | null {
  const c = containment();
  if (c.mode !== 'pid-namespace') return `${what} need the PID-namespace containment (${c.description})`;
  // Unprivileged, the holder is root in its own user namespace and job processes map back to their ids.
  const user = isRoot() ? [] : ['--user', '--map-root-user'];
  const nested = isRoot()
    ? ''
    : ` && unshare --user --map-user=${process.getuid!()} --map-group=${process.getgid!()} true`;
  const res = spawnSync('unshare', [...user, ...flags, '--', 'bash', '-c', script + nested], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (res.status === 0 && nsenterWorks()) return null;
  const why = res.error?.message ?? (res.stderr.toString().trim().split('\n')[0] || `exit ${res.status}`);
  return `${what} are not permitted here (unshare ${flags.join(' ')}: ${why})`;
}

function nsenterWorks(): boolean {
  return spawnSync('nsenter', ['--version'], { stdio: 'ignore' }).status === 0;
}

function socatProblem(): string | null {
  const res = spawnSync('socat', ['-V'], { stdio: 'ignore' });
  return res.status === 0 ? null : 'socat is not installed (Debian/Ubuntu: apt-get install socat)';
}

/** Forgets the checks (tests that switch `AXIS_CONTAINMENT`). */
export function resetSpaceChecks(): void {
  tmpChecked = netChecked = undefined;
}

// ---------------------------------------------------------------------------------------------
// The holder

/**
 * The holder's script. $1 the job tmp dir (becomes /tmp, empty = keep the host's), $2 "net" or "", then
 * dirs under /tmp to bind back at their paths, "--", then `port socket` pairs to forward. It prints
 * "ready" once the mounts are made and every forwarder listens, then waits for AXIS to close its stdin.
 */
const HOLDER = `set -e
tmp=$1 net=$2; shift 2
while [ "$1" != -- ]; do
  mkdir -p "$tmp/\${1#/tmp/}"; mount --bind "$1" "$tmp/\${1#/tmp/}"; shift
done
shift
[ -z "$tmp" ] || mount --rbind "$tmp" /tmp
if [ -n "$net" ]; then
  ip link set lo up
  want=()
  while [ $# -gt 0 ]; do
    setpriv --pdeathsig KILL socat "TCP-LISTEN:$1,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$2" &
    want+=("$(printf '0100007F:%04X 00000000:0000 0A' "$1")"); shift 2
  done
  for w in "\${want[@]}"; do until grep -q "$w" /proc/net/tcp; do sleep 0.01; done; done
fi
echo ready
read -r _ || true`;

const READY_MS = 10_000;
/** sun_path holds 108 bytes, the last one a NUL. */
const MAX_SOCKET_PATH = 107;

export interface JobSpaceOptions {
  /** The job's root dir: sockets go in `<root>/net`. */
  root: string;
  /** Becomes /tmp when `privateTmp`. */
  tmp: string;
  privateTmp: boolean;
  /** Dirs that stay reachable at their own paths (the workspace, the project). */
  keep: readonly string[];
  /** Loopback mode: the host ports to forward; undefined = the host network. */
  ports?: readonly number[];
}

/** Starts the job's holder; throws with a plain reason when it cannot. */
export async function openJobSpace(opts: JobSpaceOptions): Promise<JobSpace> {
  const ports = opts.ports ?? [];
  const relays = opts.ports ? await startRelays(join(opts.root, 'net'), ports) : [];
  const keep = opts.privateTmp ? opts.keep.filter((d) => d !== '/tmp' && isInside(d, '/tmp')) : [];
  const pairs = relays.flatMap((r) => [String(r.port), r.path]);
  const flags = isRoot() ? [] : ['--user', '--map-root-user'];
  if (opts.privateTmp) flags.push('--mount');
  if (opts.ports) flags.push('--net');
  const args = ['--pdeathsig', 'KILL', 'unshare', ...flags, '--', 'bash', '-c', HOLDER, 'axis-space'];
  args.push(opts.privateTmp ? opts.tmp : '', opts.ports ? 'net' : '', ...keep, '--', ...pairs);
  const tag = newTag();
  const child = spawn('setpriv', args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(tag ? { [TAG_VAR]: tag } : {}) },
  });
  const stopRelays = (): void => relays.forEach((r) => r.close());
  try {
    await holderReady(child);
  } catch (err) {
    stopRelays();
    killGroup(child.pid);
    throw err;
  }
  const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
  return {
    pid: child.pid!,
    privateTmp: opts.privateTmp,
    network: opts.ports !== undefined,
    close: async () => {
      child.stdin?.end();
      killGroup(child.pid);
      await exited;
      stopRelays();
    },
  };
}

function holderReady(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail('the namespaces were not ready within 10 s'), READY_MS);
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(err.trim().split('\n').pop() || why));
    };
    child.on('error', (e) => fail(e.message));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('ready\n')) return;
      clearTimeout(timer);
      resolve();
    });
    child.on('exit', (code) => fail(`the namespace holder exited (${code})`));
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------------------------------------
// Host side of the forwarders

interface Relay {
  port: number;
  path: string;
  close(): void;
}

/**
 * A Unix socket per port, each connection piped to the host's 127.0.0.1:<port>. Written with node:net
 * rather than a second socat per port: it runs inside AXIS, so it costs no process and dies with it.
 */
async function startRelays(dir: string, ports: readonly number[]): Promise<Relay[]> {
  await mkdir(dir, { recursive: true });
  const relays: Relay[] = [];
  try {
    for (const port of ports) relays.push(await startRelay(join(dir, `${port}.sock`), port));
  } catch (err) {
    relays.forEach((r) => r.close());
    throw err;
  }
  return relays;
}

function startRelay(path: string, port: number): Promise<Relay> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH)
    throw new Error(
      `the forwarder socket path is too long for a Unix socket (${path}); use a shorter TMPDIR`,
    );
  const open = new Set<Socket>();
  const server: Server = createServer((inside) => {
    const host = createConnection({ host: '127.0.0.1', port });
    for (const s of [inside, host]) {
      open.add(s);
      s.on('error', () => {
        inside.destroy();
        host.destroy();
      });
      s.on('close', () => open.delete(s));
    }
    inside.pipe(host).pipe(inside);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve({
        port,
        path,
        close: () => {
          server.close();
          for (const s of open) s.destroy();
        },
      });
    });
  });
}
