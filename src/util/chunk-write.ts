/**
 * A large file written from a sequence of chunks with the next chunk built while the previous one is
 * being written. `fs/promises.writeFile` awaits each chunk's write before asking the iterable for the
 * next, so the main thread sat idle for every write (about 3 ms per megabyte on the VMs AXIS is measured
 * on: a 30 MB detail file spent ~100 ms waiting) and the writing thread for every chunk it built. Here
 * at most one write is in flight while the following chunk is serialized (docs/performance.md).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { giveBuffer } from './buffer-pool.js';

/** Writes every chunk to `path` (created or truncated), in order. */
export async function writeChunksOverlapped(
  path: string,
  data: string | Buffer | Iterable<string | Buffer>,
): Promise<void> {
  const fh = await open(path, 'w');
  let inFlight: Promise<void> = Promise.resolve();
  let failed = false;
  try {
    const chunks = typeof data === 'string' || Buffer.isBuffer(data) ? [data] : data;
    // The iterable builds chunk n+1 (on this thread) while the pool thread writes chunk n.
    for (const chunk of chunks) {
      await inFlight;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (buf.length === 0) continue;
      // Written, the chunk's buffer goes back to the pool (json-chunks.ts takes its chunks from there).
      inFlight = writeAll(fh, buf).then(() => giveBuffer(buf));
      // Awaited at the next chunk or below; a rejection before then is not unhandled.
      inFlight.catch(() => undefined);
    }
    await inFlight;
  } catch (err) {
    failed = true;
    // A chunk that failed to build leaves a write in flight: settled before the handle closes.
    await inFlight.catch(() => undefined);
    throw err;
  } finally {
    const closing = fh.close();
    if (failed) await closing.catch(() => undefined);
    else await closing;
  }
}

/** All of `buf` at the handle's position: `write` may write part of it (a full disk), the rest follows. */
export async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  for (let at = 0; at < buf.length;) {
    const { bytesWritten } = await fh.write(buf, at, buf.length - at);
    at += bytesWritten;
  }
}
