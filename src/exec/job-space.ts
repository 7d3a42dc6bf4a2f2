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
 * - **loopback-only network** (`network: "loopback"`, job-net.ts): one holder process per job owns a network
 *   namespace with only loopback, and the agent's processes enter it (the helper's `--net`, else
 *   `nsenter`). Each allowed host port is forwarded: socat listens on 127.0.0.1:<port> inside and
 *   relays each connection over a Unix socket in the job dir (filesystem sockets cross network
 *   namespaces) to a relay in AXIS that connects to the host's 127.0.0.1:<port>.
 *   Everything else is unreachable.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import {
  containment,
  detectContainment,
  MOUNT_FSTAB,
  ownIds,
  type Containment,
  type ProbeRunner,
} from './contain.js';
import { isRoot, type JobNet } from './job-net.js';
import { runProbe } from './probe.js';
import { FSTAB_FILE, isInside } from './workspace.js';

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
 * spawner where it runs (exec/probe.ts).
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
