/**
 * `<agent>.raw.ndjson` written as the agent prints it, so a long run's raw lines are never all held in
 * memory. Lines are scrubbed on arrival and appended a chunk at a time to a temp file next to the final
 * one; `commit` renames it into place once the run ends (so a killed run leaves no half-written raw log
 * under the real name, only a `.tmp-<pid>-…` file the report pack skips, as for every atomic write).
 *
 * Chunks are written with synchronous calls, and the one buffer is filled again at once. Asynchronous
 * writes went one at a time through the thread pool, and their completions waited for the event loop,
 * which was busy reading and parsing the agent's output (libuv reads a pipe up to 32 times per turn): a
 * 20 MB run had all 18 of its megabyte chunks in flight at once, each fresh memory (about 3 ms a
 * megabyte to touch on the VMs AXIS is measured on), where writing them took 3-5 ms in all.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Scrubber } from './scrub.js';
import type { RawLineSink } from '../exec/output-cap.js';
import { writeSmallFileAtomic } from '../util/small-write.js';
import { giveBuffer, POOL_BUFFER_BYTES, takeBuffer } from '../util/buffer-pool.js';

/** The largest buffer: a pool buffer (util/buffer-pool.ts), given back at the commit. */
const CHUNK_BYTES = POOL_BUFFER_BYTES;
/** The first buffer: a short job's few lines do not cost a quarter megabyte of external memory each. */
const FIRST_BYTES = 16 * 1024;
const NEWLINE = Buffer.from('\n');

/** `ensureDir` makes the file's directory, synchronously (it runs inside the agent's output callback). */
export function openRawFile(
  path: string,
  scrub: Scrubber,
  ensureDir: () => void = () => void mkdirSync(dirname(path), { recursive: true }),
): RawLineSink {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  // Lines are encoded straight into a buffer: joining them into 256 KB strings put each chunk in V8's
  // large-object space (freed only by a full collection) before it was encoded anyway.
  // The buffer doubles from FIRST_BYTES up to CHUNK_BYTES, allocated when a line arrives.
  let size = FIRST_BYTES;
  let buf: Buffer | undefined;
  let at = 0;
  let fd: number | undefined;
  let failure: unknown;
  let closed = false;
  /** Writes `chunk` out whole; the first write makes the temp file. A failure stops all later writes. */
  const put = (chunk: Buffer) => {
    if (failure !== undefined) return;
    try {
      if (fd === undefined) {
        ensureDir();
        fd = openSync(tmp, 'w');
      }
      for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done, chunk.length - done);
    } catch (err) {
      failure = err;
    }
  };
  const flush = () => {
    put(buf!.subarray(0, at));
    at = 0;
    if (size < CHUNK_BYTES) {
      // The next chunk gets a bigger buffer (a pool one at full size); a full-size one is filled again.
      buf = undefined;
      size = Math.min(CHUNK_BYTES, size * 2);
    }
  };
  const close = () => {
    if (closed || fd === undefined) return;
    closed = true;
    try {
      closeSync(fd);
    } catch (err) {
      failure ??= err;
    }
  };
  return {
    write(line, utf8) {
      // After a failed write nothing more is kept: the commit reports the failure.
      if (failure !== undefined) return;
      // indexOf first: a regex scan of every line cost 28 ms on a 20 MB run that had no line breaks.
      const flat = line.includes('\r') || line.includes('\n') ? line.replace(/[\r\n]+/g, ' ') : line;
      // The line and its newline are written separately: `${line}\n` made a flattened copy of every
      // line (a 20 MB run's worth of garbage) only to encode it.
      const text = scrub.line(flat);
      // A line nothing changed is copied as the bytes it was read as: encoding a 20 MB run's lines
      // again cost 70-85 ms (a sixth of its lines hold non-ASCII text).
      const bytes = utf8 !== undefined && text === line ? utf8 : undefined;
      // A UTF-16 code unit takes at most 3 bytes in UTF-8; one more for the newline.
      const most = (bytes ? bytes.length : text.length * 3) + 1;
      if (at + most > size && at > 0) flush();
      if (most > size) put(bytes ? Buffer.concat([bytes, NEWLINE]) : Buffer.from(`${text}\n`, 'utf8'));
      else {
        buf ??= size === CHUNK_BYTES ? takeBuffer() : Buffer.allocUnsafe(size);
        at += bytes ? bytes.copy(buf, at) : buf.write(text, at, 'utf8');
        buf[at++] = 0x0a;
      }
    },
    async commit() {
      try {
        if (fd === undefined && failure === undefined) {
          if (at === 0) return false;
          // Never flushed: a short job's few lines, written at once (util/small-write.ts says why sync).
          ensureDir();
          writeSmallFileAtomic(path, buf!.subarray(0, at));
          return true;
        }
        if (at > 0) flush();
        close();
        if (failure !== undefined) throw failure;
        renameSync(tmp, path);
        return true;
      } catch (err) {
        failure ??= err;
        throw err;
      } finally {
        if (buf) giveBuffer(buf);
        buf = undefined;
        close();
        if (failure !== undefined) removeQuietly(tmp);
      }
    },
  };
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // the write's error is the one to report
  }
}
