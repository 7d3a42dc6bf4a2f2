/**
 * `<agent>.raw.ndjson` written as the agent prints it, so a long run's raw lines are never all held in
 * memory. Lines are scrubbed on arrival and appended a chunk at a time to a temp file next to the final
 * one; `commit` renames it into place once the run ends (so a killed run leaves no half-written raw log
 * under the real name, only a `.tmp-<pid>-…` file the report pack skips, as for every atomic write).
 */
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Scrubber } from './scrub.js';
import { writeSmallFileAtomic } from '../util/small-write.js';
import { giveBuffer, POOL_BUFFER_BYTES, takeBuffer } from '../util/buffer-pool.js';
import { writeAll } from '../util/chunk-write.js';

/** The largest buffer: a pool buffer (util/buffer-pool.ts), given back once written. */
const CHUNK_BYTES = POOL_BUFFER_BYTES;
/** The first buffer: a short job's few lines do not cost a quarter megabyte of external memory each. */
const FIRST_BYTES = 16 * 1024;
const NEWLINE = Buffer.from('\n');

export interface RawLineSink {
  /** One raw line (without its newline); `utf8`, when given, must be exactly its UTF-8 encoding. */
  write(line: string, utf8?: Buffer): void;
  /** Moves the file into place; resolves true when it was written, false when nothing was printed. */
  commit(): Promise<boolean>;
}

export function openRawFile(
  path: string,
  scrub: Scrubber,
  ensureDir = () => mkdir(dirname(path), { recursive: true }).then(() => {}),
): RawLineSink {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  // Lines are encoded straight into a buffer: joining them into 256 KB strings put each chunk in V8's
  // large-object space (freed only by a full collection) before it was encoded anyway.
  // Buffers double from FIRST_BYTES up to CHUNK_BYTES, allocated when a line arrives.
  let size = FIRST_BYTES;
  let buf: Buffer | undefined;
  let at = 0;
  let handle: FileHandle | undefined;
  let chain: Promise<void> | undefined;
  let failure: unknown;
  const push = (chunk: Buffer) => {
    chain = (chain ?? start()).then(async () => {
      if (failure === undefined) await writeAll(handle!, chunk);
      giveBuffer(chunk);
    });
    chain = chain.catch((err: unknown) => {
      failure ??= err;
    });
  };
  const flush = () => {
    push(buf!.subarray(0, at));
    buf = undefined;
    size = Math.min(CHUNK_BYTES, size * 2);
    at = 0;
  };
  const start = async () => {
    await ensureDir();
    handle = await open(tmp, 'w');
  };
  return {
    write(line, utf8) {
      // indexOf first: a regex scan of every line cost 28 ms on a 20 MB run that had no line breaks.
      const flat = line.includes('\r') || line.includes('\n') ? line.replace(/[\r\n]+/g, ' ') : line;
      // The line and its newline are written separately: `${line}\n` made a flattened copy of every
      // line (a 20 MB run's worth of garbage) only to encode it.
      const text = scrub.line(flat);
      // A line nothing changed is copied as the bytes it was read as: encoding a 20 MB run's lines
      // again cost 70-85 ms (a sixth of its lines hold non-ASCII text), the copy 3 ms.
      const bytes = utf8 !== undefined && text === line ? utf8 : undefined;
      // A UTF-16 code unit takes at most 3 bytes in UTF-8; one more for the newline.
      const most = (bytes ? bytes.length : text.length * 3) + 1;
      if (at + most > size && at > 0) flush();
      if (most > size) push(bytes ? Buffer.concat([bytes, NEWLINE]) : Buffer.from(`${text}\n`, 'utf8'));
      else {
        buf ??= size === CHUNK_BYTES ? takeBuffer() : Buffer.allocUnsafe(size);
        at += bytes ? bytes.copy(buf, at) : buf.write(text, at, 'utf8');
        buf[at++] = 0x0a;
      }
    },
    async commit() {
      if (!chain && at > 0) {
        // Never flushed: a short job's few lines, written at once (util/small-write.ts says why sync).
        await ensureDir();
        writeSmallFileAtomic(path, buf!.subarray(0, at));
        return true;
      }
      if (at > 0) flush();
      if (!chain) return false;
      await chain;
      await handle?.close().catch((err: unknown) => (failure ??= err));
      if (failure === undefined) await rename(tmp, path).catch((err: unknown) => (failure = err));
      if (failure === undefined) return true;
      await rm(tmp, { force: true }).catch(() => {});
      throw failure;
    },
  };
}
