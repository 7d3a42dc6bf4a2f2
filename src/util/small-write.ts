/**
 * Small files written with synchronous calls. On the VMs AXIS is measured on (CI runners are the same
 * kind), every libuv thread-pool operation costs 25–40 µs of CPU in hand-offs between threads, and files
 * created from several pool threads at once contend in the file system: creating and renaming a 2 KB file
 * cost 1.0–1.3 ms of CPU through `fs/promises` against 0.24–0.7 ms with the synchronous calls on this
 * machine (docs/performance.md). A job's small files (prompt, detail, raw lines, judge cache entries,
 * sparse index) block the event loop for well under a millisecond; anything larger than
 * {@link SMALL_FILE_UNITS} still goes through the asynchronous path.
 */
import {
  closeSync,
  constants,
  ftruncateSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  type WriteFileOptions,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';

/** Up to this many UTF-16 units (or bytes) a file counts as small. */
export const SMALL_FILE_UNITS = 256 * 1024;

/** Writes `data` to a temp name next to `path` and renames it into place; the temp file never stays. */
export function writeSmallFileAtomic(path: string, data: string | Buffer, options?: WriteFileOptions): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    writeFileSync(tmp, data, options);
    renameSync(tmp, path);
  } catch (err) {
    removeQuietly(tmp);
    throw err;
  }
}

/**
 * Like {@link writeSmallFileAtomic} for data of any size, chunks included: for a process about to exit,
 * which cannot wait for an asynchronous write.
 */
export function writeFileAtomicSync(path: string, data: FileData): void {
  if (typeof data === 'string' || Buffer.isBuffer(data)) return writeSmallFileAtomic(path, data);
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      for (const chunk of data) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        for (let at = 0; at < buf.length;) at += writeSync(fd, buf, at, buf.length - at);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    removeQuietly(tmp);
    throw err;
  }
}

function removeQuietly(tmp: string): void {
  try {
    rmSync(tmp, { force: true });
  } catch {
    // the write's error is the one to report
  }
}

/** Writes `data` to `path` synchronously when it is small, else through `fs/promises`. */
export async function writeFileBySize(
  path: string,
  data: string | Buffer,
  options?: WriteFileOptions,
): Promise<void> {
  if (data.length <= SMALL_FILE_UNITS) writeFileSync(path, data, options);
  else await writeFile(path, data, options);
}

/**
 * Writes `data` over the start of the existing file at `path` (not following a link) and cuts it to the
 * length written: the file keeps its inode and blocks, where a truncating open would free them first.
 */
export function overwriteFileInPlace(path: string, data: string | Buffer): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    for (let at = 0; at < buf.length;) at += writeSync(fd, buf, at, buf.length - at, at);
    ftruncateSync(fd, buf.length);
  } finally {
    closeSync(fd);
  }
}

export type FileData = string | Buffer | Iterable<string | Buffer>;

/**
 * `data` whole when it is small (an iterable is read only as far as needed to tell), else what to write
 * asynchronously: the same data, with an iterable's pieces already read put back in front.
 */
export function splitSmall(data: FileData): { small: string | Buffer } | { large: FileData } {
  if (typeof data === 'string' || Buffer.isBuffer(data))
    return data.length <= SMALL_FILE_UNITS ? { small: data } : { large: data };
  const it = data[Symbol.iterator]();
  const head: (string | Buffer)[] = [];
  let units = 0;
  for (let r = it.next(); !r.done; r = it.next()) {
    head.push(r.value);
    units += r.value.length;
    if (units > SMALL_FILE_UNITS) return { large: rest(head, it) };
  }
  if (head.every((p) => typeof p === 'string')) return { small: (head as string[]).join('') };
  return { small: Buffer.concat(head.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p))) };
}

function* rest(
  head: readonly (string | Buffer)[],
  it: Iterator<string | Buffer>,
): Generator<string | Buffer> {
  yield* head;
  for (let r = it.next(); !r.done; r = it.next()) yield r.value;
}
