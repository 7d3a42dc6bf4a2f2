/**
 * Reads a blob as untrusted input. Entries are streamed from disk and counted as they are inflated, so the
 * caps hold whatever sizes the zip's headers claim; every entry name is checked before anything is written
 * (no absolute paths, no `..`, no backslashes or drive letters, no control characters, no duplicates), and
 * files are only ever created fresh (O_EXCL), never written through an existing file or symlink.
 */
import { createReadStream } from 'node:fs';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { AxisError } from '../../util/errors.js';
import { MAX_BLOB_ENTRIES, MAX_ENTRY_BYTES, MAX_TOTAL_BYTES } from './limits.js';

/** What to do with an entry: skip it, or read it whole (up to `maxBytes`) and hand it to `onEntry`. */
export type EntryChoice = 'skip' | { maxBytes: number };

export interface ReadBlobOptions {
  /** The blob as the user named it, for messages. */
  shown: string;
  choose: (name: string) => EntryChoice;
  /** Awaited before more of the blob is read. */
  onEntry: (name: string, data: Buffer) => Promise<void> | void;
  /** Stop reading once this returns true (checked after each entry). */
  done?: () => boolean;
}

/** Why `name` is not a safe relative path, or null when it is. */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0 || name.length > 1024) return 'an empty or over-long name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a control character';
  if (name.includes('\\')) return 'a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return 'an empty, "." or ".." path segment';
  return null;
}

export async function readBlob(file: string, opts: ReadBlobOptions): Promise<void> {
  const fail = (why: string): never => {
    throw new AxisError(`${opts.shown}: ${why}`, { exitCode: 2 });
  };
  const seen = new Set<string>();
  const ready: { name: string; data: Buffer }[] = [];
  let total = 0;
  let error: AxisError | undefined;

  const unzip = new Unzip((entry: UnzipFile) => {
    try {
      onFile(entry);
    } catch (err) {
      error ??=
        err instanceof AxisError ? err : new AxisError(`${opts.shown}: ${String(err)}`, { exitCode: 2 });
    }
  });
  unzip.register(UnzipInflate);

  const onFile = (entry: UnzipFile): void => {
    if (error) return;
    const name = entry.name;
    const unsafe = unsafeEntryName(name);
    if (unsafe) fail(`refused entry ${JSON.stringify(name)}: ${unsafe}`);
    if (seen.has(name)) fail(`refused entry ${JSON.stringify(name)}: it appears twice`);
    seen.add(name);
    if (seen.size > MAX_BLOB_ENTRIES) fail(`more than ${MAX_BLOB_ENTRIES} entries`);
    if (entry.compression !== 0 && entry.compression !== 8)
      fail(
        `entry ${JSON.stringify(name)} uses compression method ${entry.compression} (only deflate is read)`,
      );
    const choice = name.endsWith('/') ? 'skip' : opts.choose(name);
    if (choice === 'skip') return;
    const cap = Math.min(choice.maxBytes, MAX_ENTRY_BYTES);
    const chunks: Uint8Array[] = [];
    let size = 0;
    entry.ondata = (err, chunk, final) => {
      if (error) return;
      if (err) {
        error = new AxisError(`${opts.shown}: entry ${JSON.stringify(name)} is corrupt (${err.message})`, {
          exitCode: 2,
        });
        return;
      }
      size += chunk.length;
      total += chunk.length;
      if (size > cap) {
        error = new AxisError(`${opts.shown}: entry ${JSON.stringify(name)} is larger than ${cap} bytes`, {
          exitCode: 2,
        });
        entry.terminate();
        return;
      }
      if (total > MAX_TOTAL_BYTES) {
        error = new AxisError(`${opts.shown}: more than ${MAX_TOTAL_BYTES} bytes once decompressed`, {
          exitCode: 2,
        });
        entry.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) ready.push({ name, data: Buffer.concat(chunks) });
    };
    entry.start();
  };

  // Errors of `onEntry` (writing the merged report) pass through as they are.
  let entryError: unknown;
  const drain = async (): Promise<void> => {
    while (ready.length) {
      const next = ready.shift()!;
      try {
        await opts.onEntry(next.name, next.data);
      } catch (err) {
        entryError = err;
        throw err;
      }
    }
  };

  try {
    const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      try {
        unzip.push(chunk);
      } catch (err) {
        error ??= new AxisError(`${opts.shown}: not a readable zip (${(err as Error).message})`, {
          exitCode: 2,
        });
      }
      if (error) break;
      await drain();
      if (opts.done?.()) break;
    }
    if (!error && !opts.done?.()) {
      try {
        unzip.push(new Uint8Array(0), true);
      } catch (err) {
        error ??= new AxisError(`${opts.shown}: not a readable zip (${(err as Error).message})`, {
          exitCode: 2,
        });
      }
      if (!error) await drain();
    }
  } catch (err) {
    if (err instanceof AxisError || err === entryError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new AxisError(`Cannot read ${opts.shown}: ${code ?? (err as Error).message}`, { exitCode: 2 });
  }
  if (error) throw error;
}
