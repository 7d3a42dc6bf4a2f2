/**
 * Recycled job workspaces. Where /tmp is ext4 without a journal (CI runners, this machine class), every
 * inode created after recent deletions costs ~0.15 ms of kernel CPU (docs/performance.md), and a fresh
 * workspace is 9 directories and a marker made and removed per job: most of AXIS's own CPU per job. A
 * finished job's workspace is instead emptied back to its skeleton (every entry the job made is removed)
 * and checked (each skeleton directory a real directory of ours with the mode it was made with; the owner
 * marker and the fstab plain files of ours with one link, saying what AXIS wrote), so the next job sees
 * what a fresh workspace would show it. It keeps its path, so the fstab and the bind points are already
 * right for the next job. One plain file the job left is kept, zeroed, as the spare the next job's first
 * adapter file is written over (no inode made, none freed). Anything unexpected, and any error, removes
 * the workspace the ordinary way.
 *
 * Only a workspace that nothing can still reach is recycled: the caller says so (every process of the
 * job ran in a PID namespace that is gone, and no lifecycle script started processes on the host).
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { selfOwner } from './contain.js';
import {
  createWorkspace,
  FSTAB_FILE,
  isInside,
  OWNER_FILE,
  removeTree,
  removeWorkspace,
  SPARE_FILE,
  WORKSPACE_DIRS,
  type Workspace,
} from './workspace.js';

/** At most this many emptied workspaces wait for a job (a run never needs more than its concurrency). */
const MAX_POOLED = 32;
/**
 * Emptied workspaces by project dir: its private /tmp keeps that project's path visible (a bind point
 * in `tmp/`), so a workspace only goes to another job of the same project (runs of several projects can
 * share one process through the library API).
 */
const pools = new Map<string, Workspace[]>();
const projectOf = new WeakMap<Workspace, string>();
const LAYOUT = WORKSPACE_DIRS.flat();

function pooledCount(): number {
  let n = 0;
  for (const list of pools.values()) n += list.length;
  return n;
}

/** The modes a fresh workspace's root and its other directories got (mkdtemp, then mkdir under the umask). */
let modes: { root: number; dir: number } | undefined;

/** A workspace for a job of the project in `projectDir`: an emptied one from the pool, else a fresh one. */
export async function acquireWorkspace(projectDir: string): Promise<Workspace> {
  const reused = pools.get(projectDir)?.pop();
  if (reused) {
    recycledOnes.add(reused);
    projectOf.set(reused, projectDir);
    return reused;
  }
  const ws = await createWorkspace();
  projectOf.set(ws, projectDir);
  if (!modes) {
    const [root, work] = await Promise.all([lstat(ws.root), lstat(ws.work)]);
    modes = { root: root.mode & 0o7777, dir: work.mode & 0o7777 };
  }
  return ws;
}

/**
 * Ends a job's workspace: emptied into the pool when `reusable` and it checks out, else removed. Never
 * throws; a removal problem goes to `log` as with {@link removeWorkspace}.
 */
export async function releaseWorkspace(
  ws: Workspace,
  reusable: boolean,
  log: (m: string) => void,
): Promise<void> {
  const project = projectOf.get(ws);
  const next =
    reusable && project !== undefined && pooledCount() < MAX_POOLED
      ? await recycled(ws).catch(() => undefined)
      : undefined;
  if (next && project !== undefined) {
    const list = pools.get(project) ?? [];
    list.push(next);
    pools.set(project, list);
  } else await removeWorkspace(ws, log);
}

/** Removes every pooled workspace (the end of a run). */
export async function drainWorkspacePool(log: (m: string) => void): Promise<void> {
  const all = [...pools.values()].flat();
  pools.clear();
  await Promise.all(all.map((ws) => removeWorkspace(ws, log)));
}

const recycledOnes = new WeakSet<Workspace>();

/** Whether {@link acquireWorkspace} handed out an emptied workspace of an earlier job (for `-v`). */
export function isRecycled(ws: Workspace): boolean {
  return recycledOnes.has(ws);
}

/**
 * Moves the workspace's spare file to `target` (AdapterRunContext.useSpareFile); false when there is
 * none or the move failed (a missing directory), and then the spare stays where it was.
 */
export function useSpare(ws: Workspace, target: string): boolean {
  if (ws.spare === undefined) return false;
  try {
    renameSync(ws.spare, target);
  } catch {
    return false;
  }
  ws.spare = undefined;
  return true;
}

/** Pooled workspaces (tests). */
export function pooledWorkspaces(): readonly Workspace[] {
  return [...pools.values()].flat();
}

async function recycled(ws: Workspace): Promise<Workspace | undefined> {
  if (!modes) return undefined;
  const skeleton = skeletonOf(ws, modes);
  // The files kept in the root, with what they must say: the agent could have changed them, and the
  // start-up sweep trusts the marker, the next job's namespace the fstab.
  const owner = selfOwner();
  const files = new Map<string, string>();
  if (owner) files.set(OWNER_FILE, `${JSON.stringify(owner)}\n`);
  if (ws.fstabText !== undefined) files.set(FSTAB_FILE, ws.fstabText);
  // A spare the job did not use must still be zeros; else the job's first plain file becomes the spare.
  const spare = { path: join(ws.root, SPARE_FILE), kept: ws.spare !== undefined };
  const removals: Promise<void>[] = [];
  let intact = false;
  try {
    intact = [...skeleton].every(([dir, mode]) =>
      emptyDir(dir, mode, { skeleton, root: ws.root, files, spare, removals }),
    );
  } finally {
    // Settled before anything else touches the tree (the caller removes it when this fails).
    const settled = await Promise.allSettled(removals);
    intact &&= settled.every((r) => r.status === 'fulfilled');
  }
  // A new object: the finished job's reference to the old one is left alone.
  if (!intact) return undefined;
  const { spare: _old, ...rest } = ws;
  return spare.kept ? { ...rest, spare: spare.path } : rest;
}

/** The directories a fresh workspace has, with their modes, plus the bind points and their parents. */
function skeletonOf(ws: Workspace, m: { root: number; dir: number }): Map<string, number> {
  const skeleton = new Map([[ws.root, m.root]]);
  for (const rel of LAYOUT) skeleton.set(join(ws.root, rel), m.dir);
  for (const point of ws.bindPoints ?? [])
    for (let d = point; d !== ws.tmp && isInside(d, ws.tmp); d = dirname(d)) skeleton.set(d, m.dir);
  return skeleton;
}

const uid = process.getuid?.() ?? -1;

interface Emptying {
  skeleton: ReadonlyMap<string, number>;
  root: string;
  /** Files kept in the root, with what they must say. */
  files: ReadonlyMap<string, string>;
  /** The root's spare file, and whether there is one (unused and kept, or made from a file the job left). */
  spare: { path: string; kept: boolean };
  removals: Promise<void>[];
}

/**
 * Starts removing what the job left in `dir` (pushed to `removals`), keeping skeleton directories (each
 * checked on its own) and, in the root, the kept files; the first plain file of ours the job left becomes
 * the spare instead of being removed. False when `dir` or a kept entry is not what AXIS made. The checks
 * are synchronous on purpose: a handful of lstat, readdir and small reads on cached directories cost
 * microseconds, while each promise-based call cost the event loop 20-40 µs (profiled, 200 jobs).
 */
function emptyDir(dir: string, mode: number, e: Emptying): boolean {
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o7777) !== mode) return false;
  let sawSpare = false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const expected = dir === e.root ? e.files.get(entry.name) : undefined;
    if (e.skeleton.has(path)) {
      if (!entry.isDirectory()) return false;
    } else if (e.spare.kept && path === e.spare.path) {
      if (!zeroedSpare(path)) return false;
      sawSpare = true;
    } else if (expected !== undefined) {
      if (!keptFile(path, expected)) return false;
    } else if (entry.isDirectory()) {
      // A link is removed, never followed (removeTree lists only real directories).
      e.removals.push(removeTree(path));
    } else if (!e.spare.kept && entry.isFile() && madeSpare(path, e.spare.path)) {
      e.spare.kept = true;
    } else unlinkSync(path); // synchronous: see util/small-write.ts
  }
  // An unused spare the job removed: there is none now (the root is emptied first, so a file in the
  // directories after it may still become one).
  if (dir === e.root && !sawSpare) e.spare.kept = false;
  return true;
}

/** Files larger than this are removed, not kept as the spare (zeroing one must stay cheap). */
export const SPARE_MAX_BYTES = 64 * 1024;

/**
 * Zeroes a plain file of ours with one link (opened without following a link) in place, sets mode 0600
 * and moves it to `spare`. Reusing the inode and its blocks saves creating a file (where files were just
 * removed, ext4 without a journal skips every recently freed inode when it allocates) and freeing blocks
 * (a truncation to 0 cost up to 0.6 ms per job under load): docs/performance.md. False, with the file
 * left for removal, when it is anything else.
 */
function madeSpare(path: string, spare: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1 || st.uid !== uid || st.size > SPARE_MAX_BYTES) return false;
    const zeros = Buffer.alloc(st.size);
    for (let at = 0; at < zeros.length;) at += writeSync(fd, zeros, at, zeros.length - at, at);
    fchmodSync(fd, 0o600);
    renameSync(path, spare);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** An unused spare: still a plain file of ours with one link, mode 0600, holding only zero bytes. */
function zeroedSpare(path: string): boolean {
  const st = lstatSync(path);
  if (!st.isFile() || st.nlink !== 1 || st.uid !== uid || (st.mode & 0o7777) !== 0o600) return false;
  if (st.size > SPARE_MAX_BYTES) return false;
  return readFileSync(path).every((b) => b === 0);
}

/** A plain file of ours, with one link, saying exactly `expected`. */
function keptFile(path: string, expected: string): boolean {
  const st = lstatSync(path);
  if (!st.isFile() || st.nlink !== 1 || st.uid !== uid || st.size !== Buffer.byteLength(expected))
    return false;
  return readFileSync(path, 'utf8') === expected;
}
