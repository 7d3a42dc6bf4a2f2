import { chmodSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { selfOwner } from './contain.js';

/**
 * File in every temp dir AXIS makes: who made it (pid, start time, boot, pid namespace). The start-up
 * sweep removes a dir only when that owner is provably dead (sweep.ts).
 */
export const OWNER_FILE = '.axis-owner';

/** A job's fstab for its private /tmp, in its root (job-space.ts writes it). */
export const FSTAB_FILE = '.axis-fstab';
/** A recycled workspace's spare file (see Workspace.spare). */
export const SPARE_FILE = '.axis-spare';

/**
 * One job's private directories:
 * ```
 * <root>/        mkdtemp(<os tmp>/axis-XXXXXX)
 *   work/        the agent's cwd (scenario files, artifacts are captured from here)
 *   home/        HOME, with .config, .cache, .local/share, .local/state for the XDG variables
 *   tmp/         TMPDIR for the agent and its scripts
 * ```
 */
export interface Workspace {
  root: string;
  work: string;
  home: string;
  tmp: string;
  /** Empty directories in `tmp` that the job's private /tmp binds kept paths onto (job-space.ts). */
  bindPoints?: string[];
  /** What the job's fstab (`<root>/.axis-fstab`) says, once written. */
  fstabText?: string;
  /**
   * `<root>/.axis-spare` while it is there: a zeroed file a recycled workspace keeps from the job before,
   * for the first file the next job's adapter writes (workspace-pool.ts).
   */
  spare?: string;
}

export interface CreateWorkspaceOptions {
  /** Parent directory; default `os.tmpdir()`. */
  parentDir?: string;
  /** Directory name prefix; default `axis-`. */
  prefix?: string;
}

// Temp dirs that must go on Ctrl-C or process exit.
const tempDirs = new Set<string>();
let exitHookInstalled = false;

/** Registers a directory for removal by {@link removeAllTempDirsSync} (Ctrl-C, process exit). */
export function registerTempDir(dir: string): void {
  tempDirs.add(dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => removeAllTempDirsSync());
  }
}

export function unregisterTempDir(dir: string): void {
  tempDirs.delete(dir);
}

/** Registered temp dirs not removed yet. */
export function liveTempDirs(): string[] {
  return [...tempDirs];
}

/** A fresh registered temp dir `<parent>/<prefix>XXXXXX` carrying the owner marker. */
export async function makeTempDir(prefix: string, parentDir = tmpdir()): Promise<string> {
  const created = await mkdtemp(join(parentDir, prefix));
  registerTempDir(created);
  await writeOwner(created);
  return created;
}

async function writeOwner(dir: string): Promise<void> {
  const owner = selfOwner();
  if (owner) await writeFile(join(dir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
}

/** Real paths of temp parents, resolved once: a dir made inside a real path needs no realpath of its own. */
const realParents = new Map<string, Promise<string>>();

function realParent(dir: string): Promise<string> {
  let real = realParents.get(dir);
  if (!real) {
    real = realpath(dir);
    realParents.set(dir, real);
    real.catch(() => realParents.delete(dir));
  }
  return real;
}

/** Created level by level with plain mkdir calls (a recursive mkdir first fails on the missing parent). */
export const WORKSPACE_DIRS = [
  ['work', 'tmp', 'home'],
  ['home/.config', 'home/.cache', 'home/.local'],
  ['home/.local/share', 'home/.local/state'],
];

export async function createWorkspace(opts: CreateWorkspaceOptions = {}): Promise<Workspace> {
  // Real path, so paths we hand out match what child processes see (macOS /var → /private/var).
  const parent = await realParent(opts.parentDir ?? tmpdir());
  const root = await mkdtemp(join(parent, opts.prefix ?? 'axis-'));
  registerTempDir(root);
  const ws: Workspace = { root, work: join(root, 'work'), home: join(root, 'home'), tmp: join(root, 'tmp') };
  const [first, ...rest] = WORKSPACE_DIRS.map(
    (level) => () => Promise.all(level.map((rel) => mkdir(join(root, rel)))),
  );
  // The owner marker goes in alongside the first level (both need only the root).
  await Promise.all([writeOwner(root), first!()]);
  for (const level of rest) await level();
  return ws;
}

/**
 * Removes a workspace (or any registered temp dir). Never throws: problems are passed to `log` and
 * false is returned. Read-only files and directories are made writable first when needed.
 */
export async function removeWorkspace(
  target: Workspace | string,
  log: (message: string) => void = (m) => process.stderr.write(`${m}\n`),
): Promise<boolean> {
  const dir = typeof target === 'string' ? target : target.root;
  // In a workspace, home/ and home/.local/ always have entries: read them without trying rmdir first.
  const full = typeof target === 'string' ? undefined : new Set([target.home, join(target.home, '.local')]);
  try {
    await removeTree(dir, full).catch(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  } catch (first) {
    try {
      await makeWritable(dir);
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      log(`Could not remove temp dir ${dir}: ${errorText(err ?? first)}`);
      return false;
    }
  }
  unregisterTempDir(dir);
  return true;
}

/**
 * Removes a tree that AXIS itself laid out, where most directories are empty: rmdir first, and only a
 * directory that is not empty is read (unlink its files, recurse into its directories). Node's `rm -r`
 * lstats every entry and reads every directory first, about half again the calls for a fresh workspace.
 * `full` names directories known to have entries, read at once; only ones reached through a directory
 * listing (so known to be real directories, not links), never `dir` itself: a link in its place must
 * fail rmdir (ENOTDIR) and go to `rm`, which removes the link and never follows it.
 * Anything unusual (permissions, a busy entry) throws, and the caller falls back to `rm`.
 */
export async function removeTree(dir: string, full?: ReadonlySet<string>, listed = false): Promise<void> {
  if (!(listed && full?.has(dir))) {
    try {
      await rmdir(dir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
  }
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? removeTree(join(dir, e.name), full, true) : unlink(join(dir, e.name)),
    ),
  );
  await rmdir(dir);
}

/** Synchronous removal of every registered temp dir (second Ctrl-C, `process.on('exit')`). */
export function removeAllTempDirsSync(): string[] {
  const failed: string[] = [];
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      try {
        makeWritableSync(dir);
        rmSync(dir, { recursive: true, force: true });
      } catch {
        failed.push(dir);
        continue;
      }
    }
    tempDirs.delete(dir);
  }
  return failed;
}

async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => {});
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await makeWritable(path);
    else if (!entry.isSymbolicLink()) await chmod(path, 0o600).catch(() => {});
  }
}

function makeWritableSync(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = lstatSync(path);
      if (st.isDirectory()) makeWritableSync(path);
      else if (!st.isSymbolicLink()) chmodSync(path, 0o600);
    }
  } catch {
    // best effort; the caller reports what is left
  }
}

/** True when `path` is `dir` or below it (both absolute, already resolved). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
