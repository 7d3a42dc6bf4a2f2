/**
 * A job's private /tmp and loopback-only network (Linux; the containment helper, dist/native/axis-contain,
 * or util-linux `unshare`/`nsenter`/`mount`):
 *
 * - **private /tmp**: every job process gets a mount namespace where the job's own `tmp/` dir is /tmp,
 *   so it cannot read or write the host's or another job's /tmp files; the job dir (and a project dir
 *   under /tmp) is bound back at its own path. The mounts are listed in a per-job fstab that the
 *   containment helper mounts itself (no exec of its own), or, with util-linux, the process's namespace
 *   init with one `mount -a` (one exec per spawn). No extra process per job. Every process of the job
 *   binds the same `tmp/`, so setup scripts and the agent share it.
 * - **loopback-only network** (`network: "loopback"`): one holder process per job owns a network
 *   namespace with only loopback, and the agent's processes enter it (the helper's `--net`, else
 *   `nsenter`). Each allowed host port is forwarded: socat listens on 127.0.0.1:<port> inside and
 *   relays each connection over a Unix socket in the job dir (filesystem sockets cross network
 *   namespaces) to a relay in AXIS that connects to the host's 127.0.0.1:<port>.
 *   Everything else is unreachable.
 */
import { spawn, spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join, relative } from 'node:path';
import {
  containment,
  detectContainment,
  MOUNT_FSTAB,
  newTag,
  ownIds,
  TAG_VAR,
  type Containment,
  type ProbeRunner,
} from './contain.js';
import { runProbe } from './probe.js';
import { FSTAB_FILE, isInside } from './workspace.js';

/** The holder of a loopback job's network namespace. */
export interface JobNet {
  pid: number;
  close(): Promise<void>;
}

/**
 * What a job's processes get: set per job once its isolation is open, `agent` for the agent phase. It is
 * handed to every spawn of the job explicitly (adapters, lifecycle scripts, `run` checks), not through
 * an AsyncLocalStorage: that turns on async hooks for every promise of the process, which cost about
 * 0.2 ms of the main thread per job in a 200-job profile.
 */
export interface JobSpace {
  /** The job's fstab: present when the job has a private /tmp. */
  fstab?: string;
  net?: JobNet;
  /** The agent phase: its processes also enter the job's network namespace. */
  agent?: boolean;
}

/** The agent phase's view of a job's space: what it starts also enters the job's network namespace. */
export function agentSpace(space: JobSpace | undefined): JobSpace | undefined {
  return space?.net ? { ...space, agent: true } : space;
}

/**
 * The command prefix for a job process: `hostPid` (lifecycle scripts, which stay in the host PID
 * namespace) or the PID-namespace containment, with the job's private /tmp, entering the job's network
 * namespace first in the agent phase. Without a job space: the containment as it is.
 */
export function jobPrefix(hostPid: boolean, space?: JobSpace): string[] {
  const c = containment();
  const fstab = space?.fstab;
  // The one-exec helper makes the private /tmp and joins the network namespace itself.
  if (c.space && (fstab || !hostPid))
    return c.space({ fstab, hostPid, netPid: space?.agent ? space.net?.pid : undefined });
  const inner = hostPid
    ? fstab
      ? hostPidTmpPrefix(fstab)
      : []
    : fstab && c.tmpPrefix
      ? c.tmpPrefix(fstab)
      : [...c.prefix];
  return [...netPrefix(space), ...inner];
}

/** `nsenter` into the job's network namespace (agent phase of a loopback job), else nothing. */
export function netPrefix(space?: JobSpace): string[] {
  if (!space?.agent || !space.net) return [];
  const ns = `/proc/${space.net.pid}/ns`;
  // Unprivileged, the network namespace belongs to the holder's user namespace, entered first.
  const user = isRoot() ? [] : [`--user=${ns}/user`, '--preserve-credentials'];
  return ['nsenter', ...user, `--net=${ns}/net`, '--'];
}

/** A lifecycle script: its own mount namespace with the job's /tmp, in the host PID namespace. */
function hostPidTmpPrefix(fstab: string): string[] {
  const back = isRoot() ? '' : `set -- unshare ${ownIds().join(' ')} -- "$@"; `;
  const user = isRoot() ? [] : ['--user', '--map-root-user'];
  return [
    'unshare',
    ...user,
    '--mount',
    '--',
    'bash',
    '-c',
    `${MOUNT_FSTAB}${back}exec "$@"`,
    'axis-tmp',
    fstab,
  ];
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
// Private /tmp

/** fstab's escapes for a path field (space, tab, newline, backslash). */
function fstabPath(path: string): string {
  return path.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

/**
 * Writes `<root>/.axis-fstab`: each of `keep` under /tmp bound to the same place inside `tmp`, then `tmp`
 * bound onto /tmp (recursively, so the keeps come along). Returns its path, what it says and the bind
 * points (kept by a recycled workspace).
 */
export async function writeJobFstab(
  root: string,
  tmp: string,
  keep: readonly string[],
  /** Bind points a recycled workspace already has, and what its fstab says (workspace-pool.ts). */
  made: { points?: readonly string[]; text?: string } = {},
): Promise<{ path: string; text: string; points: string[] }> {
  const lines: string[] = [];
  const points: string[] = [];
  for (const [dir, point] of bindPoints(tmp, keep)) {
    if (!made.points?.includes(point)) await mkdir(point, { recursive: true });
    lines.push(`${fstabPath(dir)} ${fstabPath(point)} none bind 0 0`);
    points.push(point);
  }
  lines.push(`${fstabPath(tmp)} /tmp none rbind 0 0`);
  const path = join(root, FSTAB_FILE);
  const text = `${lines.join('\n')}\n`;
  if (text !== made.text) await writeFile(path, text);
  return { path, text, points };
}

/** Each of `keep` under /tmp with the empty directory inside `tmp` it is bound onto. */
function bindPoints(tmp: string, keep: readonly string[]): [dir: string, point: string][] {
  return keep
    .filter((dir) => dir !== '/tmp' && isInside(dir, '/tmp'))
    .map((dir) => [dir, join(tmp, relative('/tmp', dir))]);
}

// ---------------------------------------------------------------------------------------------
// What the host permits (checked once per containment mode, by running the real thing)

const checks = new Map<string, string | null>();

/** Why jobs cannot get a private /tmp here, or null when they can. */
export function privateTmpProblem(): string | null {
  return checked('tmp', () =>
    containment().space
      ? helperBindProblem()
      : probe(['--mount'], 'mount -t tmpfs axis-probe /tmp', 'mount namespaces'),
  );
}

type SpaceArgs = NonNullable<ReturnType<typeof containment>['space']>;
const PROBE_FSTAB = '/tmp /tmp none bind 0 0\n';

/** The helper binding /tmp onto itself from an fstab on stdin, as in a job (and in a lifecycle script). */
export function helperBindProblem(space: SpaceArgs = containment().space!): string | null {
  for (const hostPid of [false, true]) {
    const [cmd, ...args] = space({ fstab: '-', hostPid });
    const res = spawnSync(cmd!, [...args, 'true'], { input: PROBE_FSTAB, stdio: 'pipe' });
    if (res.status === 0) continue;
    // A helper that exits before reading its stdin gives EPIPE: its own status and words say more.
    // "spawnSync x ENOENT" is said as the asynchronous check says it ("spawn x ENOENT").
    const epipe = (res.error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
    const error = epipe ? undefined : res.error?.message.replace(/^spawnSync /, 'spawn ');
    return bindProblem(error, res.stderr?.toString() ?? '', res.status);
  }
  return null;
}

function bindProblem(error: string | undefined, stderr: string, status: number | null): string {
  const why = error ?? (stderr.trim().split('\n')[0] || `exit ${status}`);
  return `mount namespaces are not permitted here (${why})`;
}

/**
 * `helperBindProblem` with both probes running at once without blocking the event loop, forked by the
 * spawner where it runs (runner/probe.ts).
 */
export async function helperBindProblemAsync(
  space: SpaceArgs = containment().space!,
  run: ProbeRunner = runProbe,
): Promise<string | null> {
  const one = async (hostPid: boolean) => {
    const [cmd, ...args] = space({ fstab: '-', hostPid });
    const res = await run(cmd!, [...args, 'true'], PROBE_FSTAB);
    return res.status === 0 ? null : bindProblem(res.error?.message, res.stderr, res.status);
  };
  const [inPidNs, inHostPid] = await Promise.all([one(false), one(true)]);
  return inPidNs ?? inHostPid;
}

/** The check started for the current detection (a test that resets the containment starts anew). */
let started: { detection: Promise<Containment>; done: Promise<void> } | undefined;

/**
 * Starts the host's checks in the background, so `axis run` loads its config meanwhile instead of
 * waiting for them: the containment's detection (the helper's self-test) and then the private-/tmp
 * check (two short children); `privateTmpReady` waits for both. Checking synchronously before they are
 * done still gives the same answers (it runs the checks itself).
 */
export function startPrivateTmpCheck(): void {
  const detection = detectContainment(runProbe);
  if (started?.detection === detection) return;
  const done = detection
    .then(async (c) => {
      const key = `tmp:${c.mode}`;
      if (!c.space || checks.has(key)) return;
      const problem = await helperBindProblemAsync(c.space);
      if (!checks.has(key)) checks.set(key, problem);
    })
    .catch(() => undefined); // never rejects: what failed here is checked synchronously when needed
  started = { detection, done };
}

/** Resolves once a check started by `startPrivateTmpCheck` is done. */
export async function privateTmpReady(): Promise<void> {
  await started?.done;
}

/** Why jobs cannot get a loopback-only network here, or null when they can. */
export function loopbackProblem(): string | null {
  return checked(
    'net',
    () =>
      socatProblem() ??
      probe(['--net'], 'ip link set lo up', 'network namespaces') ??
      (nsenterWorks() ? null : 'nsenter (util-linux) is not installed'),
  );
}

function checked(what: string, run: () => string | null): string | null {
  const key = `${what}:${containment().mode}`;
  if (!checks.has(key)) checks.set(key, run());
  return checks.get(key)!;
}

function probe(flags: string[], script: string, what: string): string | null {
  const c = containment();
  if (c.mode !== 'pid-namespace') return `${what} need the PID-namespace containment (${c.description})`;
  // Unprivileged, the namespace's user is root and processes map back to their ids (see jobPrefix).
  const user = isRoot() ? [] : ['--user', '--map-root-user'];
  const back = isRoot() ? '' : ` && unshare ${ownIds().join(' ')} true`;
  const res = spawnSync('unshare', [...user, ...flags, '--', 'bash', '-c', script + back], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (res.status === 0) return null;
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

// ---------------------------------------------------------------------------------------------
// The network holder

/**
 * The holder's script: `port socket` pairs as arguments. It brings loopback up, starts one socat per
 * port, prints "ready" once every one listens, then waits for AXIS to close its stdin.
 */
const HOLDER = `set -e
ip link set lo up
want=()
while [ $# -gt 0 ]; do
  setpriv --pdeathsig KILL socat "TCP-LISTEN:$1,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$2" &
  want+=("$(printf '0100007F:%04X 00000000:0000 0A' "$1")"); shift 2
done
for w in "\${want[@]}"; do until grep -q "$w" /proc/net/tcp; do sleep 0.01; done; done
echo ready
read -r _ || true`;

const READY_MS = 10_000;
/** sun_path holds 108 bytes, the last one a NUL. */
const MAX_SOCKET_PATH = 107;

/** Starts a loopback job's network namespace forwarding `ports`; throws with a plain reason when it cannot. */
export async function openJobNet(root: string, ports: readonly number[]): Promise<JobNet> {
  const relays = await startRelays(join(root, 'net'), ports);
  const pairs = relays.flatMap((r) => [String(r.port), r.path]);
  const user = isRoot() ? [] : ['--user', '--map-root-user'];
  const args = ['--pdeathsig', 'KILL', 'unshare', ...user, '--net', '--', 'bash', '-c', HOLDER, 'axis-net'];
  const tag = newTag();
  const child = spawn('setpriv', [...args, ...pairs], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(tag ? { [TAG_VAR]: tag } : {}) },
  });
  const stopRelays = (): void => relays.forEach((r) => r.close());
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await holderReady(child);
  } catch (err) {
    stopRelays();
    killGroup(child.pid);
    throw err;
  }
  return {
    pid: child.pid!,
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
    const onErr = (d: Buffer): void => {
      err = (err + d.toString()).slice(-4000);
    };
    const timer = setTimeout(() => fail('the network namespace was not ready within 10 s'), READY_MS);
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(err.trim().split('\n').pop() || why));
    };
    child.on('error', (e) => fail(e.message));
    child.on('exit', (code) => fail(`the network namespace holder exited (${code})`));
    child.stderr!.on('data', onErr);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('ready\n')) return;
      clearTimeout(timer);
      // From now on its output is drained, not kept.
      child.stdout!.removeAllListeners('data').resume();
      child.stderr!.removeListener('data', onErr).resume();
      resolve();
    });
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
