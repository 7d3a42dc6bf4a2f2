/**
 * Process containment: how a job's processes are kept from outliving it.
 *
 * - `pid-namespace` (Linux, when a PID namespace may be created: root, or an unprivileged user
 *   namespace): every spawned process is the only child of a fresh PID namespace's init. When it exits,
 *   the kernel kills everything left in the namespace, whatever it forked, detached (`setsid`) or
 *   disowned (`nohup … &`). A parent-death signal ties the namespace to AXIS itself, so a `kill -9` of
 *   AXIS takes the namespace down too. Started by AXIS's own helper, dist/native/axis-contain (one exec,
 *   native/axis-contain.c), or, where it is not built or fails its self-test, by util-linux: `setpriv
 *   --pdeathsig KILL` → `unshare` → `sh` as init (three execs, four with the private /tmp's `mount`).
 * - `process-group` (elsewhere): the process leads its own group; when it exits, the group and every
 *   process still carrying the spawn's tag in its environment (a descendant that changed group or
 *   session) are terminated. A descendant that both leaves the group and clears its environment escapes.
 *
 * Every process also carries `AXIS_PROCESS_TAG` (owner pid, owner start time, pid namespace, spawn
 * number), which the start-up sweep uses to reap what a killed AXIS left behind (see sweep.ts).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants as fsConstants, readdirSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { readOr, selfOwner, statFields, type Owner } from '../util/owner.js';
import { distPath } from '../util/package-root.js';

export type ContainmentMode = 'pid-namespace' | 'process-group';

export interface Containment {
  mode: ContainmentMode;
  /** One line for `-v`: what is in force and, for the fallback, why. */
  description: string;
  /** Command prefix that starts a program inside the containment (empty for process-group). */
  prefix: readonly string[];
  /**
   * `prefix` plus a private /tmp: the init first mounts what the job's fstab lists (job-space.ts).
   * Unprivileged, the namespace's user is root (mount needs it) and the program runs mapped back to
   * the real uid and gid in a nested user namespace. Undefined for process-group.
   */
  tmpPrefix?: (fstab: string) => string[];
  /**
   * With the one-exec helper: the whole prefix of a job process, its private /tmp, network namespace and
   * (lifecycle scripts) the host PID namespace included. Undefined for the util-linux chain.
   */
  space?: (space: JobSpaceArgs) => string[];
  /** The one-exec helper's path, when it is what `prefix` starts with. */
  helper?: string;
}

/**
 * The variable that tells axis-contain its parent's pid (native/axis-contain.c): its parent-death
 * signal is armed only once it runs, and a parent that died before then is told from a live one only
 * by this. {@link containedLaunch} sets it empty; whoever forks the helper fills in its own pid
 * ({@link withParentPid}; the spawner, which imports nothing of AXIS, does the same by hand).
 */
export const CONTAIN_PARENT_VAR = 'AXIS_CONTAIN_PARENT';

/** The env of a spawn by this process: the helper's parent pid filled in where it was asked for. */
export function withParentPid(env: Record<string, string>): Record<string, string> {
  return env[CONTAIN_PARENT_VAR] === '' ? { ...env, [CONTAIN_PARENT_VAR]: String(process.pid) } : env;
}

/** What a job process's namespaces hold besides the PID namespace (see job-space.ts). */
export interface JobSpaceArgs {
  /** The job's fstab (its private /tmp). */
  fstab?: string;
  /** The pid of the holder of the network namespace to join. */
  netPid?: number;
  /** Stay in the host PID namespace: only the mount namespace (needs `fstab`). */
  hostPid?: boolean;
}

/** Environment variable every contained process carries (inherited by its descendants). */
export const TAG_VAR = 'AXIS_PROCESS_TAG';

/**
 * PID 1 of the namespace. A namespace init ignores signals it has no handler for, so the program must not
 * be PID 1 itself (SIGTERM would be ignored): `sh` runs it as its only child, in the foreground (so with
 * default signal dispositions and stdin), and exits with its status (128 + n for a signal). The trailing
 * `exit` keeps the shell from exec'ing the program in its place. `sh`, not bash: on Debian it is dash,
 * which starts in a third of bash's time, and this runs once per spawned process. The shell's own stderr
 * goes to /dev/null and the program gets the real one back in a subshell that then execs it (dash applies
 * a command's own redirections in the parent while it waits), so dash's "Terminated" job notice never
 * lands in the program's output.
 */
const INIT = 'exec 3>&2 2>/dev/null; (exec 2>&3 3>&-; exec "$@"); exit $?';

/** Mounts the fstab in $1 (exit 125 when it cannot), then runs the program as {@link INIT} does. */
export const MOUNT_FSTAB = 'mount -a -T "$1" || exit 125; shift; ';

/** Arguments that map the user back to its own uid and gid inside a nested user namespace. */
export function ownIds(): string[] {
  return ['--user', `--map-user=${process.getuid!()}`, `--map-group=${process.getgid!()}`];
}

let cached: Containment | undefined;

/**
 * The containment in force for this process, detected once. `AXIS_CONTAINMENT=process-group` forces the
 * process-group fallback, `AXIS_CONTAINMENT=util-linux` the util-linux chain instead of the helper (for
 * tests of them, and for hosts where either misbehaves). `AXIS_CONTAIN_HELPER` names another helper binary.
 */
export function containment(): Containment {
  cached ??= withNote(detect());
  return cached;
}

const FORCED = ['process-group', 'util-linux'];

/** An `AXIS_CONTAINMENT` value that means nothing is said so in the `-v` line, not ignored quietly. */
function withNote(c: Containment): Containment {
  const forced = process.env.AXIS_CONTAINMENT;
  if (!forced || FORCED.includes(forced)) return c;
  const note = ` (AXIS_CONTAINMENT=${forced} ignored: expected ${FORCED.join(' or ')})`;
  return { ...c, description: c.description + note };
}

/** `detection` with each probe run here, synchronously. */
function detect(): Containment {
  const steps = detection();
  for (let step = steps.next(); ;) {
    if (step.done) return step.value;
    const [cmd, args] = step.value;
    const res = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    step = steps.next({ ...res, stderr: res.stderr.toString() });
  }
}

/**
 * `containment()` detected without blocking the event loop, the helper's self-test run by `run` (the
 * spawner, where it runs: exec/probe.ts); the same answer, cached for `containment()` to return.
 * Only the rare fallback to the util-linux chain still probes synchronously.
 */
export function detectContainment(run: ProbeRunner): Promise<Containment> {
  if (cached) return (detecting ??= Promise.resolve(cached));
  detecting ??= (async () => {
    const steps = detection();
    let step = steps.next();
    while (!step.done) step = steps.next(await run(...step.value));
    return (cached ??= withNote(step.value));
  })().catch(() => containment()); // a probe that could not run: detected here, synchronously
  return detecting;
}

let detecting: Promise<Containment> | undefined;

/** Runs a probe program; what its end says (exec/probe.ts). */
export type ProbeRunner = (
  command: string,
  args: string[],
  stdin?: string,
) => Promise<{ status: number | null; signal?: string | null; error?: Error; stderr: string }>;

type ProbeEnd = Awaited<ReturnType<ProbeRunner>>;

/**
 * The containment for this host: yields each helper self-test to run (command, args), takes how it
 * ended, returns the answer. One definition for the synchronous and the probed detection.
 */
function* detection(): Generator<[string, string[]], Containment, ProbeEnd> {
  if (process.platform !== 'linux') return processGroup(`no PID namespaces on ${process.platform}`);
  if (process.env.AXIS_CONTAINMENT === 'process-group') return processGroup('AXIS_CONTAINMENT=process-group');
  const sh = onPath('sh');
  const helper =
    process.env.AXIS_CONTAINMENT === 'util-linux'
      ? 'AXIS_CONTAINMENT=util-linux'
      : yield* helperSelfTests(sh);
  if (typeof helper !== 'string') return helper;
  const chain = utilLinux(sh, helper);
  return 'problem' in chain ? processGroup(`unshare: ${chain.problem}`) : chain;
}

function processGroup(why: string): Containment {
  return {
    mode: 'process-group',
    description: `containment: process groups + descendant scan (${why})`,
    prefix: [],
  };
}

/** Where `npm run build` puts the helper (dist/native), from src/exec or dist/exec alike. */
const HELPER = distPath('native', 'axis-contain');

/**
 * The one-exec helper, when it is there and passes its self-test: the program must run as PID 2 of a new
 * PID namespace with SIGTERM at its default (it kills itself with it) and its status must come back as
 * 128 + 15, through the private-/tmp code path (an empty fstab). Else why not, for the `-v` line.
 */
function* helperSelfTests(sh: string): Generator<[string, string[]], Containment | string, ProbeEnd> {
  const helper = process.env.AXIS_CONTAIN_HELPER || HELPER;
  try {
    accessSync(helper, fsConstants.X_OK);
  } catch {
    return `${helper} not built (\`npm run build\` compiles it with \`cc\`)`;
  }
  let problem = '';
  for (const [flags, what] of [
    [[], 'PID namespace'],
    [['--userns'], 'PID namespace in a user namespace'],
  ] as const) {
    const end = yield [helper, selfTest(flags, sh)];
    if (end.status === 128 + 15) return helperContainment(helper, flags, what);
    problem ||= end.error
      ? end.error.message
      : end.stderr.trim().split('\n')[0] || `self-test exit ${end.status ?? end.signal}`;
  }
  return `${helper}: ${problem}`;
}

function selfTest(flags: readonly string[], sh: string): string[] {
  return [...flags, '--fstab', '/dev/null', '--', sh, '-c', '[ $$ = 2 ] && kill -TERM $$'];
}

function helperContainment(helper: string, flags: readonly string[], what: string): Containment {
  const base = [helper, ...flags];
  return {
    mode: 'pid-namespace',
    helper,
    description: `containment: ${what} per process (axis-contain, one exec; dies with AXIS)`,
    prefix: [...base, '--'],
    tmpPrefix: (fstab) => [...base, '--fstab', fstab, '--'],
    space: ({ fstab, netPid, hostPid }) => [
      ...base,
      ...(netPid !== undefined ? ['--net', String(netPid)] : []),
      ...(fstab !== undefined ? ['--fstab', fstab] : []),
      ...(hostPid ? ['--host-pid'] : []),
      '--',
    ],
  };
}

/** The util-linux chain (`helperProblem`: why the helper is not used), or why it cannot run either. */
function utilLinux(sh: string, helperProblem: string): Containment | { problem: string } {
  const pid = ['--pid', '--fork', '--kill-child', '--mount-proc'];
  const candidates: [string[], string][] = [
    [pid, 'PID namespace'],
    [['--user', '--map-current-user', ...pid], 'PID namespace in a user namespace'],
  ];
  // Absolute paths: every spawn would otherwise search PATH for each of the three (a failed execve per
  // PATH entry before the right one, in every job).
  const [setpriv, unshare] = ['setpriv', 'unshare'].map(onPath);
  const deathSig = works([setpriv!, '--pdeathsig', 'KILL', 'true']) ? [setpriv!, '--pdeathsig', 'KILL'] : [];
  let error = '';
  for (const [flags, what] of candidates) {
    const prefix = [...deathSig, unshare!, ...flags, '--', sh, '-c', INIT, 'axis-init'];
    const res = spawnSync(prefix[0]!, [...prefix.slice(1), 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (res.status === 0) {
      const userns = flags.includes('--user');
      const tmpFlags = flags.map((f) => (f === '--map-current-user' ? '--map-root-user' : f));
      const back = userns ? `set -- unshare ${ownIds().join(' ')} -- "$@"; ` : '';
      const init = MOUNT_FSTAB + back + INIT;
      return {
        mode: 'pid-namespace',
        description: `containment: ${what} per process (util-linux unshare${deathSig.length ? ', dies with AXIS' : ''}; axis-contain not used: ${helperProblem})`,
        prefix,
        tmpPrefix: (fstab) => [
          ...deathSig,
          unshare!,
          ...tmpFlags,
          '--',
          sh, // dash, as for `prefix`: this too runs once per spawned process
          '-c',
          init,
          'axis-init',
          fstab,
        ],
      };
    }
    error ||= res.error
      ? res.error.message
      : res.stderr.toString().trim().split('\n')[0] || `exit ${res.status}`;
  }
  return { problem: error };
}

/** `name`'s absolute path on AXIS's own PATH, or `name` itself when it is not there (spawn then says so). */
export function onPath(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const file = join(dir, name);
    try {
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
      accessSync(file, fsConstants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return name;
}

function works(cmd: string[]): boolean {
  return spawnSync(cmd[0]!, cmd.slice(1), { stdio: 'ignore' }).status === 0;
}

/** Forgets the detected mode (tests that switch `AXIS_CONTAINMENT`). */
export function resetContainment(): void {
  cached = undefined;
  detecting = undefined;
}

// ---------------------------------------------------------------------------------------------
// settings.sandbox: "bwrap" lives in bwrap.ts.

export { bwrapPrefix, bwrapProblem, jobSandbox, type JobSandbox } from './bwrap.js';

// ---------------------------------------------------------------------------------------------
// Owner identity lives in util/owner.ts (the remotes lock uses it too).

export { ownerState, selfOwner, startTime, statFields, type Owner } from '../util/owner.js';

// ---------------------------------------------------------------------------------------------
// Tags

let spawnSeq = 0;

/** A fresh tag for one spawn: `<pid>.<start>.<boot>.<pidns inode>.<n>`, or undefined without /proc. */
export function newTag(): string | undefined {
  const me = selfOwner();
  if (!me) return undefined;
  return `${me.pid}.${me.start}.${me.boot}.${me.pidns.replace(/\D/g, '')}.${++spawnSeq}`;
}

/** The owner a tag names (its spawn number dropped). */
export function tagOwner(tag: string): Owner | undefined {
  const m = /^(\d+)\.(\d+)\.([0-9a-f-]+)\.(\d+)\.\d+$/.exec(tag);
  if (!m) return undefined;
  return { pid: Number(m[1]), start: Number(m[2]), boot: m[3]!, pidns: `pid:[${m[4]}]` };
}

/** A process the scan may skip everything older than: its pid and /proc start time (clock ticks). */
export interface ScanSince {
  pid: number;
  start: number;
}

/**
 * Live processes whose environment carries a tag `accept` takes (zombies and AXIS itself skipped). With
 * `since`, only processes started after that one are read: the kernel hands out pids in rising order,
 * wrapping at pid_max, so the newer ones are those between `since.pid` and the last pid allocated
 * (/proc/loadavg), found from the directory names alone, each then checked by start time. Reading every
 * host process's environment cost ~2.5 ms per job exit; most of the host's processes predate any one job.
 * (A job that outlives a whole cycle of pid_max could have a stray skipped; pid_max is 4M on 64-bit.)
 */
export function taggedProcesses(accept: (tag: string) => boolean, since?: ScanSince): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return found;
  }
  const newer = since && startedAfter(since);
  const needle = `\0${TAG_VAR}=`;
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    if (newer && !newer(Number(name))) continue;
    const environ = readOr(`/proc/${name}/environ`);
    if (!environ) continue;
    const text = `\0${environ}`;
    const at = text.indexOf(needle);
    if (at === -1) continue;
    const end = text.indexOf('\0', at + needle.length);
    const tag = text.slice(at + needle.length, end === -1 ? undefined : end);
    if (!accept(tag)) continue;
    if (statFields(name)?.[0] === 'Z') continue;
    found.push(Number(name));
  }
  return found;
}

/** A test for "started after `since`", read after the directory listing so every listed pid is covered. */
function startedAfter(since: ScanSince): (pid: number) => boolean {
  const last = Number(readOr('/proc/loadavg').trim().split(' ')[4]); // "0.52 0.58 0.59 2/301 4567"
  const inRange = !Number.isInteger(last)
    ? () => true
    : last >= since.pid
      ? (pid: number) => pid > since.pid && pid <= last
      : (pid: number) => pid > since.pid || pid <= last; // wrapped at pid_max
  return (pid) => inRange(pid) && (Number(statFields(pid)?.[19]) || 0) >= since.start;
}

/** Sends `signal` to each pid; returns how many it reached. */
export function signalEach(pids: readonly number[], signal: NodeJS.Signals): number {
  let n = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
      n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}
