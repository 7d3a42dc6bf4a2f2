/**
 * Files the user names on the command line for AXIS to write (`axis badge -o`, `--reporter json=…`). They
 * are written as a shell redirection would: a device or a FIFO (`/dev/stdout`, `/dev/null`) is written to,
 * a symlink keeps pointing where it did (its target gets the content), and a directory is refused up front.
 * Only a regular file (or a new one) is replaced atomically.
 */
import { statSync } from 'node:fs';
import { readlink, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { AxisError } from './errors.js';
import { cannotWrite } from './write-error.js';

/** Throws AxisError (exit 2) when `path` is a directory; `what` names it (`-o out`). */
export function checkOutputFile(path: string, what: string): void {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // Missing (or unreachable): the write says why, if it fails.
  }
  if (isDir) throw new AxisError(`${what}: a directory; expected a file to write`, { exitCode: 2 });
}

/** Writes `data` to `path` (absolute); `what` names it in the error for a directory. */
export async function writeOutputFile(path: string, data: string, what: string): Promise<void> {
  checkOutputFile(path, what);
  const st = await stat(path).catch(() => undefined);
  try {
    if (st && !st.isFile()) await writeFile(path, data);
    else await writeFileAtomic(await linkTarget(path), data);
  } catch (err) {
    throw cannotWrite(path, err);
  }
}

/**
 * Where a symlink leads, even when its target does not exist yet; `path` itself for anything else (and for
 * a loop of links, after as many hops as Linux follows).
 */
async function linkTarget(path: string, hops = 0): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (real) return real;
  const link = hops < 40 ? await readlink(path).catch(() => undefined) : undefined;
  return link === undefined ? path : linkTarget(resolve(dirname(path), link), hops + 1);
}
