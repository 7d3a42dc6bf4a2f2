/**
 * Shallow checkouts of remote git sources with the real `git` binary: one commit, no tags, no
 * submodules, never a prompt (GIT_TERMINAL_PROMPT=0, ssh BatchMode), every call under a timeout, and
 * only the http(s)/ssh/git/file transports. A checkout is reused while its ref still points at the same
 * commit; a ref that does not exist is an error naming it. Nothing from the repository is executed.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readlink, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { AxisError } from '../util/errors.js';
import { DirLockTimeout, markInUse, otherUsers, withDirLock } from './dir-lock.js';
import { shownUrl } from './sources.js';

const LS_REMOTE_TIMEOUT_MS = 30_000;
const FETCH_TIMEOUT_MS = 120_000;
const FULL_SHA = /^[0-9a-f]{40}$/i;
const SHORT_SHA = /^[0-9a-f]{7,39}$/i;

export interface CheckoutRequest {
  url: string;
  ref?: string;
  /** Absolute checkout directory. */
  dir: string;
  /** How the source was written, for messages. */
  spec: string;
  /** true: fetch even when the checkout looks current (`--refresh-skills`). */
  force?: boolean;
  /** false: use an existing checkout as it is, without asking the remote (skills cache). */
  checkMoved?: boolean;
}

export interface Checkout {
  dir: string;
  commit: string;
  /** What happened, for notices: cloned, updated, current, or cached (remote not reachable). */
  action: 'cloned' | 'updated' | 'current' | 'cached';
  note?: string;
}

/** A problem with a remote source the user can fix (bad URL, missing ref, unreachable, unsafe tree). */
export class RemoteError extends AxisError {
  constructor(message: string) {
    super(message, { exitCode: 2 });
    this.name = 'RemoteError';
  }
}

function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -oBatchMode=yes',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
  };
}

const SAFE = [
  '-c',
  'protocol.allow=never',
  ...['https', 'http', 'ssh', 'git', 'file'].flatMap((p) => ['-c', `protocol.${p}.allow=always`]),
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'advice.detachedHead=false',
];

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git; resolves with its exit code (never rejects, except when git itself is missing). */
export function git(args: string[], opts: { cwd?: string; timeoutMs: number }): Promise<GitResult> {
  return new Promise((done, fail) => {
    execFile(
      'git',
      [...SAFE, ...args],
      {
        cwd: opts.cwd,
        env: gitEnv(),
        timeout: opts.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        if (e?.code === 'ENOENT') {
          fail(new RemoteError('git is not installed (or not on PATH); it is needed for git sources'));
          return;
        }
        if (e?.killed) {
          done({ code: 124, stdout, stderr: `timed out after ${Math.round(opts.timeoutMs / 1000)} s` });
          return;
        }
        done({ code: typeof e?.code === 'number' ? e.code : e ? 1 : 0, stdout, stderr });
      },
    );
  });
}

const firstLine = (s: string) =>
  s
    .split('\n')
    .map((l) => l.replace(/^(fatal|error): /, '').trim())
    .find(Boolean) ?? '';

/** The commit `ref` names on the remote (`HEAD` when unset), undefined when it names nothing. */
export async function remoteCommit(url: string, ref: string | undefined): Promise<string | undefined> {
  const r = await git(['ls-remote', '--', url, ...(ref ? [ref, `${ref}^{}`] : ['HEAD'])], {
    timeoutMs: LS_REMOTE_TIMEOUT_MS,
  });
  if (r.code !== 0)
    throw new RemoteError(
      `cannot reach ${shownUrl(url)}: ${firstLine(r.stderr) || `git exited with ${r.code}`}`,
    );
  const refs = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    const [sha, name] = line.split('\t');
    if (sha && name) refs.set(name, sha);
  }
  if (!ref) return refs.get('HEAD');
  // Exact names only (ls-remote matches `v1` against `refs/heads/feature/v1` too), in the order `git fetch`
  // reads a name (a tag before a branch of that name), so this is the commit fetchInto gets; a tag's
  // commit is its peeled value.
  return (
    refs.get(`${ref}^{}`) ??
    refs.get(ref) ??
    refs.get(`refs/tags/${ref}^{}`) ??
    refs.get(`refs/tags/${ref}`) ??
    refs.get(`refs/heads/${ref}`)
  );
}

/**
 * Which source a checkout holds: a hash of its URL (`axis.source`), since the URL may carry credentials
 * that must not be written (a remote scenario's `copy` could read `.git/config`). Checkouts made before
 * keep the URL as `remote.origin.url`.
 */
const sourceKey = (url: string) => createHash('sha256').update(url).digest('hex');

async function localState(
  dir: string,
): Promise<{ key: string; ref: string; commit: string; legacy: boolean } | undefined> {
  const get = (key: string) => git(['config', '--get', key], { cwd: dir, timeoutMs: 10_000 });
  // Four reads of one checkout, none writing: at once, not one git process after another.
  const [source, origin, ref, head] = await Promise.all([
    get('axis.source'),
    get('remote.origin.url'),
    get('axis.ref'),
    git(['rev-parse', 'HEAD'], { cwd: dir, timeoutMs: 10_000 }),
  ]);
  const key =
    source.code === 0 ? source.stdout.trim() : origin.code === 0 ? sourceKey(origin.stdout.trim()) : '';
  if (!key || head.code !== 0) return undefined;
  return { key, ref: ref.stdout.trim(), commit: head.stdout.trim(), legacy: source.code !== 0 };
}

/** Records the source as cloneFresh does; an older checkout's stored URL (credentials and all) is removed. */
async function recordSource(dir: string, url: string, legacy = false): Promise<void> {
  await git(['config', 'axis.source', sourceKey(url)], { cwd: dir, timeoutMs: 10_000 });
  await git(['config', 'axis.url', shownUrl(url)], { cwd: dir, timeoutMs: 10_000 });
  if (legacy) await git(['remote', 'remove', 'origin'], { cwd: dir, timeoutMs: 10_000 });
}

/** The ref names nothing in the repository: an error even when an older checkout exists. */
class MissingRefError extends RemoteError {}

const missingRef = (req: CheckoutRequest) =>
  new MissingRefError(
    `${req.spec}: ref "${req.ref}" does not exist in ${shownUrl(req.url)} (expected a branch, a tag or a full 40-character commit of that repository` +
      `${req.ref && SHORT_SHA.test(req.ref) ? '; an abbreviated commit cannot be fetched' : ''})`,
  );

/** Fetches `ref` (one commit) into an empty repository at `dir` and checks it out. */
async function fetchInto(dir: string, req: CheckoutRequest): Promise<string> {
  const ref = req.ref ?? 'HEAD';
  const fetched = await git(
    ['fetch', '--depth', '1', '--no-tags', '--no-recurse-submodules', '--', req.url, ref],
    {
      cwd: dir,
      timeoutMs: FETCH_TIMEOUT_MS,
    },
  );
  if (fetched.code !== 0) {
    const why = firstLine(fetched.stderr);
    if (
      req.ref &&
      /couldn't find remote ref|not our ref|no such remote ref|unadvertised object|invalid refspec/i.test(
        fetched.stderr,
      )
    ) {
      throw missingRef(req);
    }
    throw new RemoteError(
      `${req.spec}: cannot fetch from ${shownUrl(req.url)}: ${why || `git exited with ${fetched.code}`}`,
    );
  }
  const co = await git(['checkout', '-q', '--force', '--detach', 'FETCH_HEAD'], {
    cwd: dir,
    timeoutMs: FETCH_TIMEOUT_MS,
  });
  if (co.code !== 0) throw new RemoteError(`${req.spec}: cannot check out ${ref}: ${firstLine(co.stderr)}`);
  const head = await git(['rev-parse', 'HEAD'], { cwd: dir, timeoutMs: 10_000 });
  return head.stdout.trim();
}

/** A fresh checkout in a sibling temp dir, renamed into place (a half-done clone is never left at `dir`). */
async function cloneFresh(req: CheckoutRequest): Promise<string> {
  await mkdir(dirname(req.dir), { recursive: true });
  const tmp = `${req.dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    const init = await git(['init', '-q', tmp], { timeoutMs: 30_000 });
    if (init.code !== 0) throw new RemoteError(`cannot create ${tmp}: ${firstLine(init.stderr)}`);
    // The URL is given to each fetch, never stored: only its hash, and the URL as shown (credentials masked).
    await recordSource(tmp, req.url);
    await git(['config', 'axis.ref', req.ref ?? ''], { cwd: tmp, timeoutMs: 10_000 });
    const commit = await fetchInto(tmp, req);
    await rm(req.dir, { recursive: true, force: true });
    await rename(tmp, req.dir);
    return commit;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Makes `req.dir` a checkout of `req.url` at `req.ref`. Reuses it when it already holds that commit;
 * a commit ref never needs the network once checked out. When the remote cannot be reached but a
 * checkout exists, that checkout is used and `note` says so. One process at a time per checkout
 * (`<dir>.lock`, config/dir-lock.ts): a second axis waits, then finds the checkout current. A checkout
 * another live axis uses (`<dir>.users/`) is not replaced when its ref moved: it is used as it is, with a note.
 */
export async function ensureCheckout(req: CheckoutRequest): Promise<Checkout> {
  try {
    return await withDirLock(
      req.dir,
      req.spec,
      async () => {
        const co = await checkoutUnlocked(req);
        await markInUse(req.dir);
        return co;
      },
      // Before any live display: a long wait for another axis's clone says what it waits for.
      { onWait: (message) => process.stderr.write(`note: ${message}\n`) },
    );
  } catch (err) {
    if (err instanceof DirLockTimeout) throw new RemoteError(err.message);
    throw err;
  }
}

async function checkoutUnlocked(req: CheckoutRequest): Promise<Checkout> {
  const state = await localState(req.dir).catch(() => undefined);
  const same = state && state.key === sourceKey(req.url) && state.ref === (req.ref ?? '');
  if (!same) return { dir: req.dir, commit: await cloneFresh(req), action: 'cloned' };
  if (state.legacy) await recordSource(req.dir, req.url, true);
  const ref = req.ref;
  const isCommit = ref !== undefined && FULL_SHA.test(ref);
  if (!req.force) {
    if (isCommit && state.commit.toLowerCase() === ref.toLowerCase())
      return { dir: req.dir, commit: state.commit, action: 'current' };
    if (req.checkMoved === false) return { dir: req.dir, commit: state.commit, action: 'current' };
  }
  if (!isCommit) {
    let wanted: string | undefined;
    try {
      wanted = await remoteCommit(req.url, ref);
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err;
      return {
        dir: req.dir,
        commit: state.commit,
        action: 'cached',
        note: `${req.spec}: ${err.message}; ${using(state.commit)}`,
      };
    }
    if (ref && !wanted) throw missingRef(req);
    if (!req.force && wanted === state.commit)
      return { dir: req.dir, commit: state.commit, action: 'current' };
  }
  const users = await otherUsers(req.dir);
  if (users.length > 0) {
    const pids = users.map((u) => u.pid).join(', ');
    return {
      dir: req.dir,
      commit: state.commit,
      action: 'cached',
      note: `${req.spec}: not updated: another axis (pid ${pids}) is still using the checkout at ${state.commit.slice(0, 12)}; using it as it is (a later run updates it)`,
    };
  }
  try {
    return { dir: req.dir, commit: await cloneFresh(req), action: 'updated' };
  } catch (err) {
    // A fetch that fails (`--refresh-skills` at a commit, offline) leaves the checkout: use it, as above.
    if (!(err instanceof RemoteError) || err instanceof MissingRefError) throw err;
    return {
      dir: req.dir,
      commit: state.commit,
      action: 'cached',
      note: `${err.message}; ${using(state.commit)}`,
    };
  }
}

const using = (commit: string) => `using the checkout already at ${commit.slice(0, 12)}`;

/**
 * Symlinks in a checkout that point outside it (or are absolute), as paths relative to `dir`. A remote
 * with any of these is refused: AXIS would otherwise read (or copy into a job) files outside the remote.
 */
export async function escapingLinks(dir: string): Promise<string[]> {
  const root = await realpath(dir);
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      if (entry.name === '.git' && d === dir) continue;
      const full = join(d, entry.name);
      if (entry.isSymbolicLink()) {
        const target = await readlink(full);
        const abs = resolve(dirname(full), target);
        const rel = relative(root, abs);
        if (target.startsWith('/') || rel === '..' || rel.startsWith(`..${sep}`))
          out.push(relative(dir, full));
      } else if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(dir);
  return out.sort();
}

/** Whether `path` (absolute) is `root` or inside it, by real paths where they exist. */
export async function insideDir(path: string, root: string): Promise<boolean> {
  const real = async (p: string) => realpath(p).catch(() => resolve(p));
  const [a, b] = [await real(path), await real(root)];
  const rel = relative(b, a);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith('/'));
}
