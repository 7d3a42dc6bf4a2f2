/**
 * One process at a time per directory under `.axis/remotes` (and `.axis/skills-cache`): two `axis`
 * runs checking out the same remote ref would otherwise delete and rename the same folder under each
 * other. Written by hand because the need is small and no lock library is a dependency: an exclusive-
 * create lock file `<dir>.lock` holding its owner (pid, start time, boot, pid namespace; util/owner.ts).
 * A live owner is waited for; a provably dead one (killed axis, another boot, a reused pid) is taken over.
 * In-use markers (below) keep a checkout a live run still reads from being replaced.
 */
import { rmSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ownerState, selfOwner, type Owner } from '../util/owner.js';

export interface LockOptions {
  /** Give up waiting for a live owner after this long (default 10 minutes: a slow clone). */
  timeoutMs?: number;
  pollMs?: number;
  /** Who else would hold it, for the timeout's message (default: a checkout of the same source). */
  holderHint?: string;
  /** Told once when the wait passes `noticeAfterMs` (default 2 s): a blocked command says why. */
  onWait?: (message: string) => void;
  noticeAfterMs?: number;
}

interface Holder {
  pid: number;
  owner?: Owner;
  since: string;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** The lock stayed with a live holder past the timeout. */
export class DirLockTimeout extends Error {}

/** Runs `fn` while holding `<dir>.lock`; the lock is released however `fn` ends. */
export async function withDirLock<T>(
  dir: string,
  what: string,
  fn: () => Promise<T>,
  opts: LockOptions = {},
): Promise<T> {
  const file = `${dir}.lock`;
  await mkdir(dirname(file), { recursive: true });
  const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let noticeAt: number | undefined = Date.now() + (opts.noticeAfterMs ?? 2_000);
  const content = `${JSON.stringify(holder())}\n`;
  for (;;) {
    if (await tryCreate(file, content)) break;
    const held = await readHolder(file);
    if (held !== 'gone' && (await isStale(file, held))) {
      await breakStale(file, held);
      continue;
    }
    if (opts.onWait && noticeAt !== undefined && Date.now() >= noticeAt && held !== 'gone') {
      noticeAt = undefined;
      opts.onWait(`${what}: waiting for ${file} (${waitReason(held)})`);
    }
    if (Date.now() >= deadline) {
      const by = typeof held === 'object' ? `pid ${held.pid} since ${held.since}` : 'another process';
      throw new DirLockTimeout(
        `${what}: ${file} is held by ${by} (${opts.holderHint ?? 'another axis checking out the same source'}); waited ${Math.round((opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s. Remove the file if no axis is running.`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
  }
  try {
    return await fn();
  } finally {
    await unlink(file).catch(() => {});
  }
}

function waitReason(held: Holder | 'unreadable'): string {
  return held === 'unreadable'
    ? `being written, or left by a process killed while writing it: taken over ${UNREADABLE_STALE_MS / 1000} s after its last change`
    : `held by pid ${held.pid} since ${held.since}`;
}

async function tryCreate(file: string, content: string): Promise<boolean> {
  try {
    const fh = await open(file, 'wx');
    try {
      await fh.writeFile(content);
    } finally {
      await fh.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** The lock's holder; 'unreadable' while its owner is still writing it (or it is not ours). */
async function readHolder(file: string): Promise<Holder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  try {
    const v = JSON.parse(text) as Partial<Holder>;
    if (typeof v.pid !== 'number' || typeof v.since !== 'string') return 'unreadable';
    return { pid: v.pid, since: v.since, ...(v.owner ? { owner: v.owner } : {}) };
  } catch {
    return 'unreadable';
  }
}

/** An empty or garbled lock is a holder killed while writing it, once it is older than this. */
const UNREADABLE_STALE_MS = 30_000;

async function isStale(file: string, held: Holder | 'unreadable'): Promise<boolean> {
  if (held !== 'unreadable') return state(held) === 'dead';
  const st = await stat(file).catch(() => undefined);
  return st !== undefined && Date.now() - st.mtimeMs > UNREADABLE_STALE_MS;
}

function state(h: Holder): 'dead' | 'alive' | 'unknown' {
  if (h.owner && selfOwner()) return ownerState(h.owner);
  // Without /proc identity only "the pid is gone" is proof.
  try {
    process.kill(h.pid, 0);
    return 'alive';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'unknown';
  }
}

/**
 * Removes a dead holder's lock. It is first renamed aside (atomic), so two processes breaking the same
 * stale lock cannot delete each other's fresh one: if what was moved is not the dead holder's, it is put
 * back with link(), which fails rather than overwrite a lock created meanwhile.
 */
async function breakStale(file: string, dead: Holder | 'unreadable'): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(file, aside);
  } catch {
    return; // someone else moved or released it first
  }
  const moved = await readHolder(aside);
  const same =
    dead === 'unreadable'
      ? moved === 'unreadable'
      : typeof moved === 'object' && moved.pid === dead.pid && moved.since === dead.since;
  if (!same) await link(aside, file).catch(() => {});
  await unlink(aside).catch(() => {});
}

// ---------------------------------------------------------------------------------------------
// In-use markers: a run reads a checkout for its whole length (scenarios, tapes, copy sources, skills),
// so a checkout another live axis uses is never replaced under it; `<dir>.users/<pid>` says who.

const marked = new Set<string>();

function holder(): Holder {
  const me: Holder = { pid: process.pid, since: new Date().toISOString() };
  const owner = selfOwner();
  if (owner) me.owner = owner;
  return me;
}

/** Marks `dir` as used by this process until it exits. */
export async function markInUse(dir: string): Promise<void> {
  if (marked.has(dir)) return;
  const file = join(`${dir}.users`, String(process.pid));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(holder())}\n`);
  marked.add(dir);
  process.once('exit', () => rmSync(file, { force: true }));
}

/** Live processes other than this one using `dir`; markers of dead ones are removed on the way. */
export async function otherUsers(dir: string): Promise<Holder[]> {
  const folder = `${dir}.users`;
  const names = await readdir(folder).catch(() => [] as string[]);
  const live: Holder[] = [];
  for (const name of names) {
    const file = join(folder, name);
    const h = await readHolder(file);
    if (typeof h !== 'object') continue;
    if (state(h) === 'dead') await unlink(file).catch(() => {});
    else if (h.pid !== process.pid) live.push(h);
  }
  return live;
}
