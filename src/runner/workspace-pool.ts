/**
 * Recycled job workspaces. Where /tmp is ext4 without a journal (CI runners, this machine class), every
 * inode created after recent deletions costs ~0.15 ms of kernel CPU (docs/performance.md), and a fresh
 * workspace is 9 directories and a marker made and removed per job: most of AXIS's own CPU per job. A
 * finished job's workspace is instead emptied back to its skeleton (every entry the job made is removed),
 * checked (each skeleton directory a real directory of ours with the mode it was made with, the marker
 * and fstab plain files of ours with one link) and renamed to a fresh name, so the next job sees what a
 * fresh workspace would show it, at a path no earlier job had. Anything unexpected, and any error,
 * removes the workspace the ordinary way instead.
 *
 * Only a workspace that nothing can still reach is recycled: the caller says so (every process of the
 * job ran in a PID namespace that is gone, and no lifecycle script started processes on the host).
 */
import { randomInt } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { lstat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { selfOwner } from './contain.js';
import {
  createWorkspace,
  FSTAB_FILE,
  isInside,
  OWNER_FILE,
  registerTempDir,
  removeTree,
  removeWorkspace,
  unregisterTempDir,
  WORKSPACE_DIRS,
  type Workspace,
} from './workspace.js';

/** At most this many emptied workspaces wait for a job (a run never needs more than its concurrency). */
const MAX_POOLED = 32;
const pool: Workspace[] = [];
const LAYOUT = WORKSPACE_DIRS.flat();

/** The modes a fresh workspace's root and its other directories got (mkdtemp, then mkdir under the umask). */
let modes: { root: number; dir: number } | undefined;

/** A workspace for a job: an emptied one from the pool, else a fresh one. */
export async function acquireWorkspace(): Promise<Workspace> {
  const reused = pool.pop();
  if (reused) {
    recycledOnes.add(reused);
    return reused;
  }
  const ws = await createWorkspace();
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
  const next =
    reusable && pool.length < MAX_POOLED ? await recycled(ws, log).catch(() => undefined) : undefined;
  if (next) pool.push(next);
  else await removeWorkspace(ws, log);
}

/** Removes every pooled workspace (the end of a run). */
export async function drainWorkspacePool(log: (m: string) => void): Promise<void> {
  await Promise.all(pool.splice(0).map((ws) => removeWorkspace(ws, log)));
}

const recycledOnes = new WeakSet<Workspace>();

/** Whether {@link acquireWorkspace} handed out an emptied workspace of an earlier job (for `-v`). */
export function isRecycled(ws: Workspace): boolean {
  return recycledOnes.has(ws);
}

/** Pooled workspaces (tests). */
export function pooledWorkspaces(): readonly Workspace[] {
  return pool;
}

async function recycled(ws: Workspace, log: (m: string) => void): Promise<Workspace | undefined> {
  if (!modes) return undefined;
  const skeleton = skeletonOf(ws, modes);
  const files = new Set([OWNER_FILE, ...(ws.bindPoints ? [FSTAB_FILE] : [])]);
  const removals: Promise<void>[] = [];
  let intact = false;
  try {
    intact = [...skeleton].every(([dir, mode]) => emptyDir(dir, mode, skeleton, ws.root, files, removals));
  } finally {
    // Settled before anything else touches the tree (the caller removes it when this fails).
    const settled = await Promise.allSettled(removals);
    intact &&= settled.every((r) => r.status === 'fulfilled');
  }
  return intact ? renamed(ws, log) : undefined;
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

/**
 * Starts removing what the job left in `dir` (pushed to `removals`), keeping skeleton directories (each
 * checked on its own) and, in the root, the marker files. False when `dir` or a kept entry is not what AXIS
 * made. The checks are synchronous on purpose: a handful of lstat and readdir calls on cached directories
 * cost microseconds, while each promise-based call cost the event loop 20-40 µs (profiled, 200 jobs).
 */
function emptyDir(
  dir: string,
  mode: number,
  skeleton: ReadonlyMap<string, number>,
  root: string,
  files: ReadonlySet<string>,
  removals: Promise<void>[],
): boolean {
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o7777) !== mode) return false;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (skeleton.has(path)) {
      if (!e.isDirectory()) return false;
    } else if (dir === root && files.has(e.name)) {
      if (!plainFile(path)) return false;
    } else {
      // A link is removed, never followed (removeTree lists only real directories).
      removals.push(e.isDirectory() ? removeTree(path) : unlink(path));
    }
  }
  return true;
}

function plainFile(path: string): boolean {
  const st = lstatSync(path);
  return st.isFile() && st.nlink === 1 && st.uid === uid;
}

/** The emptied workspace under a fresh name (and its own bind point renamed with it). */
async function renamed(ws: Workspace, log: (m: string) => void): Promise<Workspace | undefined> {
  const parent = dirname(ws.root);
  const prefix = basename(ws.root).replace(/[A-Za-z0-9]{6}$/, '');
  const root = join(parent, prefix + randomName());
  // rename() would replace an empty directory already there: the name must be free.
  if (existsSync(root)) return undefined;
  renameSync(ws.root, root);
  unregisterTempDir(ws.root);
  registerTempDir(root);
  const next: Workspace = {
    root,
    work: join(root, 'work'),
    home: join(root, 'home'),
    tmp: join(root, 'tmp'),
  };
  try {
    const own = join(ws.tmp, relative('/tmp', ws.root));
    if (ws.bindPoints?.includes(own))
      renameSync(join(next.tmp, relative('/tmp', ws.root)), join(next.tmp, relative('/tmp', root)));
    if (ws.bindPoints)
      next.bindPoints = ws.bindPoints.map((p) =>
        p === own ? join(next.tmp, relative('/tmp', root)) : join(next.tmp, relative(ws.tmp, p)),
      );
    // The agent could have changed it, and the start-up sweep trusts what it says.
    const marker = join(root, OWNER_FILE);
    const owner = selfOwner();
    const text = owner ? `${JSON.stringify(owner)}\n` : '';
    if (owner && readFileSync(marker, 'utf8') !== text) await writeFile(marker, text);
    return next;
  } catch {
    await removeWorkspace(next, log);
    return undefined;
  }
}

const NAME_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Six random letters and digits, as mkdtemp makes. */
function randomName(): string {
  let name = '';
  for (let i = 0; i < 6; i++) name += NAME_CHARS[randomInt(NAME_CHARS.length)];
  return name;
}
