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
  const file: RawFile = {
    path,
    tmp: `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
    scrub,
    ensureDir,
    size: FIRST_BYTES,
    buf: undefined,
    at: 0,
    fd: undefined,
    failure: undefined,
    closed: false,
  };
  return {
    write: (line, utf8) => writeLine(file, line, utf8),
    commit: () => commitFile(file),
  };
}

/**
 * One raw file being written. Lines are encoded straight into `buf`: joining them into 256 KB strings
 * put each chunk in V8's large-object space (freed only by a full collection) before it was encoded
 * anyway. The buffer doubles from FIRST_BYTES up to CHUNK_BYTES, allocated when a line arrives.
 */
interface RawFile {
  readonly path: string;
  readonly tmp: string;
  readonly scrub: Scrubber;
  readonly ensureDir: () => void;
  size: number;
  buf: Buffer | undefined;
  at: number;
  fd: number | undefined;
  failure: unknown;
  closed: boolean;
}

function writeLine(file: RawFile, line: string, utf8: Buffer | undefined): void {
  // After a failed write nothing more is kept: the commit reports the failure.
  if (file.failure !== undefined) return;
  // indexOf first: a regex scan of every line cost 28 ms on a 20 MB run that had no line breaks.
  const flat = line.includes('\r') || line.includes('\n') ? line.replace(/[\r\n]+/g, ' ') : line;
  // The line and its newline are written separately: `${line}\n` made a flattened copy of every
  // line (a 20 MB run's worth of garbage) only to encode it.
  const text = file.scrub.line(flat);
  // A line nothing changed is copied as the bytes it was read as: encoding a 20 MB run's lines
  // again cost 70-85 ms (a sixth of its lines hold non-ASCII text).
  const bytes = utf8 !== undefined && text === line ? utf8 : undefined;
  // A UTF-16 code unit takes at most 3 bytes in UTF-8; one more for the newline.
  const most = (bytes ? bytes.length : text.length * 3) + 1;
  if (file.at + most > file.size && file.at > 0) flush(file);
  if (most > file.size) put(file, bytes ? Buffer.concat([bytes, NEWLINE]) : Buffer.from(`${text}\n`, 'utf8'));
  else {
    const buf = (file.buf ??= file.size === CHUNK_BYTES ? takeBuffer() : Buffer.allocUnsafe(file.size));
    file.at += bytes ? bytes.copy(buf, file.at) : buf.write(text, file.at, 'utf8');
    buf[file.at++] = 0x0a;
  }
}

async function commitFile(file: RawFile): Promise<boolean> {
  try {
    if (file.fd === undefined && file.failure === undefined) {
      if (file.at === 0) return false;
      // Never flushed: a short job's few lines, written at once (util/small-write.ts says why sync).
      file.ensureDir();
      writeSmallFileAtomic(file.path, file.buf!.subarray(0, file.at));
      return true;
    }
    if (file.at > 0) flush(file);
    close(file);
    if (file.failure !== undefined) throw file.failure;
    renameSync(file.tmp, file.path);
    return true;
  } catch (err) {
    file.failure ??= err;
    throw err;
  } finally {
    if (file.buf) giveBuffer(file.buf);
    file.buf = undefined;
    close(file);
    if (file.failure !== undefined) removeQuietly(file.tmp);
  }
}

/** Writes `chunk` out whole; the first write makes the temp file. A failure stops all later writes. */
function put(file: RawFile, chunk: Buffer): void {
  if (file.failure !== undefined) return;
  try {
    if (file.fd === undefined) {
      file.ensureDir();
      file.fd = openSync(file.tmp, 'w');
    }
    const fd = file.fd;
    for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done, chunk.length - done);
  } catch (err) {
    file.failure = err;
  }
}

function flush(file: RawFile): void {
  put(file, file.buf!.subarray(0, file.at));
  file.at = 0;
  if (file.size < CHUNK_BYTES) {
    // The next chunk gets a bigger buffer (a pool one at full size); a full-size one is filled again.
    file.buf = undefined;
    file.size = Math.min(CHUNK_BYTES, file.size * 2);
  }
}

function close(file: RawFile): void {
  if (file.closed || file.fd === undefined) return;
  file.closed = true;
  try {
    closeSync(file.fd);
  } catch (err) {
    file.failure ??= err;
  }
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // the write's error is the one to report
  }
}
