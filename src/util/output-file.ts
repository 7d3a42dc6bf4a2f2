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
import { shownPath } from './shown-path.js';

/**
 * Throws AxisError (exit 2) when `path` is a directory, or a file stands where one of its folders must be;
 * `what` names it (`-o out`). Checked before a run, so a typo does not cost the run's outputs at its end.
 */
export function checkOutputFile(path: string, what: string): void {
  if (statOrCode(path) === 'dir')
    throw new AxisError(`${what}: a directory; expected a file to write`, { exitCode: 2 });
  // The nearest existing folder on the path (missing ones are made when writing).
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const st = statOrCode(dir);
    if (st === 'dir' || st === 'unknown') return;
    if (st === 'other') {
      throw new AxisError(`${what}: ${shownPath(dir)} is a file, not a folder; expected a path to write`, {
        exitCode: 2,
      });
    }
    if (dirname(dir) === dir) return;
  }
}

/** What is at `path`; `missing` when nothing (or a file is in the way further up), `unknown` when unreadable. */
function statOrCode(path: string): 'dir' | 'other' | 'missing' | 'unknown' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'other';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Unreadable (permissions, a loop): the write says why, if it fails.
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unknown';
  }
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
