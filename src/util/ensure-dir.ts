/**
 * A directory the user names for output (`axis run -o <dir>`), made ready before any work is done.
 */
import { constants } from 'node:fs';
import { access, lstat, mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Makes `dir` an existing, writable directory, creating missing parents one level at a time. Returns
 * what is wrong (naming the part of the path at fault), or undefined when the directory is ready.
 *
 * Written by hand rather than `mkdir(dir, { recursive: true })`: on Node 20 that never returns under a
 * file system that answers ENOENT to every mkdir (`/proc/x` spins at full CPU), and its errors name the
 * deepest path rather than the file or missing link that is in the way.
 */
export async function ensureDir(dir: string): Promise<string | undefined> {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const found = await stat(at).then(
      (s) => (s.isDirectory() ? 'dir' : 'other'),
      (err: NodeJS.ErrnoException) => err,
    );
    if (found === 'other') return `${at} is not a directory`;
    if (found === 'dir') break;
    if (found.code !== 'ENOENT' && found.code !== 'ENOTDIR') return `${at}: ${found.message}`;
    if (found.code === 'ENOENT' && (await isLink(at))) return `${at} is a symbolic link to a missing target`;
    const parent = dirname(at);
    if (parent === at) return `${at} does not exist`;
    // Under ENOTDIR a parent is a file: the walk up finds it and says so.
    if (found.code === 'ENOENT') missing.push(at);
    at = parent;
  }
  for (const d of missing.reverse()) {
    const err = await mkdir(d).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : e),
    );
    if (err) return `cannot create ${d} (${err.code ?? err.message})`;
  }
  const target = resolve(dir);
  const denied = await access(target, constants.W_OK).then(
    () => undefined,
    (e: NodeJS.ErrnoException) => e,
  );
  return denied ? `${target} is not writable (${denied.code ?? denied.message})` : undefined;
}

async function isLink(path: string): Promise<boolean> {
  return lstat(path).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
}
