/**
 * How a job process starts: the command line under the containment in force, the checks that keep
 * "command not found" a start error, and the direct fork used when the spawner is off.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve as resolvePath } from 'node:path';
import {
  bwrapPrefix,
  CONTAIN_PARENT_VAR,
  containment,
  jobSandbox,
  newTag,
  TAG_VAR,
  withParentPid,
} from './contain.js';
import { jobPrefix, netPrefix, type JobSpace } from './job-space.js';
import type { SpawnRequest } from './remote-child.js';

const isWindows = process.platform === 'win32';

/** What a start failure means, in words a user can act on. */
export function describeSpawnError(
  opts: { command: string; args: readonly string[]; cwd: string },
  err: NodeJS.ErrnoException,
): string {
  const head = `Cannot start "${opts.command}"`;
  switch (err.code) {
    case 'ENOENT':
      return existsSync(opts.cwd)
        ? `${head}: command not found (ENOENT). Is it installed and on PATH?`
        : `${head}: working directory does not exist: ${opts.cwd}`;
    case 'EACCES':
      return `${head}: permission denied (EACCES). Is the file executable?`;
    case 'E2BIG': {
      const bytes = opts.args.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
      return `${head}: argument list too long (E2BIG, ${bytes} bytes of arguments). Pass large input through stdin instead.`;
    }
    default:
      return `${head}: ${err.code ? `${err.code}: ` : ''}${err.message}`;
  }
}

/** Forks the process from AXIS itself (the spawner is off or failed). */
export function spawnDirect(req: SpawnRequest): { child: ChildProcess } | { error: NodeJS.ErrnoException } {
  try {
    const child = spawn(req.command, req.args, {
      cwd: req.cwd,
      env: withParentPid(req.env),
      stdio: [req.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: !isWindows,
      windowsHide: true,
    });
    if (child.stdin) {
      child.stdin.on('error', () => {}); // EPIPE when the child does not read its input
      child.stdin.end(req.stdin);
    }
    return { child };
  } catch (err) {
    // E2BIG and friends are thrown synchronously.
    return { error: err as NodeJS.ErrnoException };
  }
}

export interface Ready {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Started under a namespace wrapper. */
  contained: boolean;
  tag?: string;
}
type Launch = Ready | { error: NodeJS.ErrnoException };

/**
 * The command line that starts `command` inside the containment in force (see contain.ts), with the
 * spawn's tag in its environment. Inside a namespace a missing binary would only show as the init's exit
 * 127, so the binary and the cwd are checked here first to keep "command not found" a start error.
 */
export function containedLaunch(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd: string,
  scopeTag?: string,
  space?: JobSpace,
): Launch {
  const tag = scopeTag ?? newTag();
  const withTag: Record<string, string> = tag ? { ...env, [TAG_VAR]: tag } : { ...env };
  const sandbox = jobSandbox.getStore();
  // The job's private /tmp and network (job-space.ts) come with the containment.
  const prefix = sandbox
    ? [...netPrefix(space), ...bwrapPrefix(sandbox)]
    : jobPrefix(scopeTag !== undefined, space);
  // Under a namespace init (whose exit status reports a signal death as 128 + n).
  const contained = sandbox !== undefined || (scopeTag === undefined && containment().prefix.length > 0);
  if (prefix.length === 0)
    return { command, args: [...args], env: withTag, contained: false, ...(tag ? { tag } : {}) };
  const problem = executableProblem(command, env.PATH ?? '', cwd);
  if (problem) return { error: problem };
  // Asked for here, filled in by whoever forks it (withParentPid, the spawner).
  if (!sandbox && prefix[0] === containment().helper) withTag[CONTAIN_PARENT_VAR] = '';
  return {
    command: prefix[0]!,
    args: [...prefix.slice(1), command, ...args],
    env: withTag,
    contained,
    ...(tag ? { tag } : {}),
  };
}

/** ENOENT / EACCES the way spawn would report them, for a command about to run under a wrapper. */
function executableProblem(command: string, path: string, cwd: string): NodeJS.ErrnoException | undefined {
  const err = (code: string): NodeJS.ErrnoException =>
    Object.assign(new Error(`spawn ${command} ${code}`), { code });
  if (!existsSync(cwd)) return err('ENOENT');
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolvePath(cwd, command)]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(resolvePath(cwd, dir), command));
  let denied = false;
  for (const file of candidates) {
    try {
      // A missing candidate is not an error worth building (one per PATH entry before the right one).
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
      accessSync(file, fsConstants.X_OK);
      return undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EACCES') denied = true;
    }
  }
  return err(denied ? 'EACCES' : 'ENOENT');
}
