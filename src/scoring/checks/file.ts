/**
 * `file` checks: exists / contains / matches, confined to the workspace. A path is resolved against the
 * workspace and must stay inside it after symbolic links are resolved: a link that leads out is not
 * followed and the check fails saying so.
 */
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { matchInWorker, unfinishedEvidence } from './regex.js';
import type { CheckVerdict } from './types.js';

/** Bytes of a file read for `contains` / `matches`. */
export const MAX_READ_BYTES = 16 * 1024 * 1024;
const EXCERPT = 160;

export type Located =
  | { ok: true; path: string; exists: false }
  | { ok: true; path: string; exists: true; isDirectory: boolean; size: number; special?: string }
  | { ok: false; reason: string };

/** Resolves `rel` inside `workDir`, refusing anything (through `..` or a symlink) that leaves it. */
export async function locate(workDir: string, rel: string): Promise<Located> {
  const root = await realpath(workDir);
  const abs = resolve(root, rel);
  if (!inside(root, abs)) return { ok: false, reason: `${rel} is outside the workspace` };
  let real: string | undefined;
  try {
    real = await realpath(abs);
  } catch (err) {
    // ENOTDIR: a part of the path is a file (`notes.md/x`), so the path does not exist either.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return { ok: false, reason: `${rel}: ${errText(err)}` };
  }
  if (real === undefined) {
    // Not there (or a dangling link): the nearest existing parent must still be inside.
    let dir = dirname(abs);
    for (;;) {
      try {
        const parent = await realpath(dir);
        if (!inside(root, parent)) return { ok: false, reason: outsideLink(rel) };
        break;
      } catch {
        if (dir === root || dirname(dir) === dir) break;
        dir = dirname(dir);
      }
    }
    return { ok: true, path: abs, exists: false };
  }
  if (!inside(root, real)) return { ok: false, reason: outsideLink(rel) };
  const s = await stat(real);
  const special = specialKind(s);
  return {
    ok: true,
    path: real,
    exists: true,
    isDirectory: s.isDirectory(),
    size: s.size,
    ...(special ? { special } : {}),
  };
}

/** What a non-regular, non-directory file is; reading one could block forever (a FIFO) or never end. */
function specialKind(s: import('node:fs').Stats): string | undefined {
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  return undefined;
}

export async function fileExists(workDir: string, rel: string, expected: boolean): Promise<CheckVerdict> {
  const at = await locate(workDir, rel);
  if (!at.ok) return { passed: false, evidence: at.reason };
  const what = at.exists
    ? `${rel} exists${at.isDirectory ? ' (a directory)' : at.special ? ` (${at.special})` : ` (${at.size} bytes)`}`
    : `${rel} does not exist`;
  return { passed: at.exists === expected, evidence: what };
}

export async function fileContains(workDir: string, rel: string, needle: string): Promise<CheckVerdict> {
  const read = await readText(workDir, rel);
  if ('reason' in read) return { passed: false, evidence: read.reason };
  const at = read.text.indexOf(needle);
  if (at === -1)
    return {
      passed: false,
      evidence: `${rel} (${read.size} bytes${read.cut ? ', first part read' : ''}) does not contain ${JSON.stringify(needle)}; it begins: ${excerpt(read.text, 0, 0)}`,
    };
  return {
    passed: true,
    evidence: `${rel} contains ${JSON.stringify(needle)}: ${excerpt(read.text, at, needle.length)}`,
  };
}

export async function fileMatches(
  workDir: string,
  rel: string,
  pattern: string,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<CheckVerdict> {
  const read = await readText(workDir, rel);
  if ('reason' in read) return { passed: false, evidence: read.reason };
  const m = await matchInWorker(pattern, read.text, opts);
  if (m.kind === 'timeout' || m.kind === 'stopped')
    return { passed: false, evidence: unfinishedEvidence(rel, pattern, m) };
  if (m.kind === 'no_match')
    return {
      passed: false,
      evidence: `${rel} (${read.size} bytes${read.cut ? ', first part read' : ''}) does not match ${pattern}; it begins: ${excerpt(read.text, 0, 0)}`,
    };
  return { passed: true, evidence: `${rel} matches ${pattern}: ${excerpt(read.text, m.index, m.length)}` };
}

async function readText(
  workDir: string,
  rel: string,
): Promise<{ text: string; size: number; cut: boolean } | { reason: string }> {
  const at = await locate(workDir, rel);
  if (!at.ok) return { reason: at.reason };
  if (!at.exists) return { reason: `${rel} does not exist` };
  if (at.isDirectory) return { reason: `${rel} is a directory, not a file` };
  if (at.special) return { reason: notRegular(rel, at.special) };
  // O_NONBLOCK: should the path be swapped for a FIFO after the stat, the open still returns at once.
  const fh = await open(at.path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    const special = specialKind(st);
    if (special || !st.isFile()) return { reason: notRegular(rel, special ?? 'not a regular file') };
    const length = Math.min(at.size, MAX_READ_BYTES);
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, 0);
    return {
      text: buf.subarray(0, bytesRead).toString('utf8'),
      size: at.size,
      cut: at.size > MAX_READ_BYTES,
    };
  } finally {
    await fh.close();
  }
}

/** The text around a match (or the start), on one line, quoted; a match longer than that, its start. */
export function excerpt(text: string, at: number, length: number): string {
  const from = Math.max(0, at - Math.max(0, Math.floor((EXCERPT - length) / 2)));
  const to = Math.min(text.length, from + EXCERPT);
  const body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return JSON.stringify(`${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`);
}

function notRegular(rel: string, what: string): string {
  return `${rel} is ${what}, not a regular file (not read)`;
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function outsideLink(rel: string): string {
  return `${rel} leads outside the workspace through a symbolic link (not followed)`;
}

function errText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ?? e.message ?? String(err);
}
