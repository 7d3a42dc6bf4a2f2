/**
 * Reads a blob as untrusted input. Entries are streamed from disk and counted as they are inflated, so the
 * caps hold whatever sizes the zip's headers claim; every entry name is checked before anything is written
 * (no absolute paths, no `..`, no backslashes or drive letters, no control characters, no duplicates), and
 * files are only ever created fresh (O_EXCL), never written through an existing file or symlink.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { AxisError } from '../../util/errors.js';
import { fileKind } from '../../util/input-file.js';
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
  const r: BlobRead = { opts, seen: new Set(), ready: [], total: 0, error: undefined, entryError: undefined };
  const unzip = unzipper(r);
  try {
    await pushFile(r, unzip, file);
  } catch (err) {
    if (err instanceof AxisError || err === r.entryError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new AxisError(`Cannot read ${opts.shown}: ${code ?? (err as Error).message}`, { exitCode: 2 });
  }
  if (r.error) throw r.error;
}

/** One blob being read: what the zip's callbacks and the read loop share. */
interface BlobRead {
  opts: ReadBlobOptions;
  /** Entry names so far. */
  seen: Set<string>;
  /** Entries read whole, waiting for `onEntry`. */
  ready: { name: string; data: Buffer }[];
  /** Bytes inflated so far, every entry together. */
  total: number;
  /** The first thing wrong with the blob: reading stops there. */
  error: AxisError | undefined;
  /** Errors of `onEntry` (writing the merged report) pass through as they are. */
  entryError: unknown;
}

function unzipper(r: BlobRead): Unzip {
  const unzip = new Unzip((entry: UnzipFile) => {
    try {
      onFile(r, entry);
    } catch (err) {
      r.error ??=
        err instanceof AxisError ? err : new AxisError(`${r.opts.shown}: ${String(err)}`, { exitCode: 2 });
    }
  });
  unzip.register(UnzipInflate);
  return unzip;
}

/**
 * Opens `file` without blocking and checks the open file itself: a FIFO would wait for a writer and
 * /dev/zero never ends, so anything but a regular file is refused before a byte is read.
 */
async function openRegular(file: string, shown: string): Promise<FileHandle> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const st = await handle.stat().catch(async (err: unknown) => {
    await handle.close();
    throw err;
  });
  if (st.isFile()) return handle;
  await handle.close();
  throw new AxisError(`${shown}: expected a regular file, found ${fileKind(st)}`, { exitCode: 2 });
}

/** Streams `file` into `unzip`, handing the entries read so far to `onEntry` before reading on. */
async function pushFile(r: BlobRead, unzip: Unzip, file: string): Promise<void> {
  const { opts } = r;
  const handle = await openRegular(file, opts.shown);
  const stream = handle.createReadStream({ highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      push(r, unzip, chunk);
      if (r.error) break;
      await drain(r);
      if (opts.done?.()) break;
    }
    if (!r.error && !opts.done?.()) {
      push(r, unzip, new Uint8Array(0), true);
      if (!r.error) await drain(r);
    }
  } finally {
    stream.destroy();
    await handle.close().catch(() => {});
  }
}

function push(r: BlobRead, unzip: Unzip, chunk: Uint8Array, final?: boolean): void {
  try {
    unzip.push(chunk, final);
  } catch (err) {
    r.error ??= new AxisError(`${r.opts.shown}: not a readable zip (${(err as Error).message})`, {
      exitCode: 2,
    });
  }
}

async function drain(r: BlobRead): Promise<void> {
  while (r.ready.length) {
    const next = r.ready.shift()!;
    try {
      await r.opts.onEntry(next.name, next.data);
    } catch (err) {
      r.entryError = err;
      throw err;
    }
  }
}

function onFile(r: BlobRead, entry: UnzipFile): void {
  if (r.error) return;
  const name = entry.name;
  checkEntry(r, entry);
  const choice = name.endsWith('/') ? 'skip' : r.opts.choose(name);
  if (choice === 'skip') return;
  readEntry(r, entry, Math.min(choice.maxBytes, MAX_ENTRY_BYTES));
}

/** Throws when the entry's name or method is refused, or the blob has too many entries. */
function checkEntry(r: BlobRead, entry: UnzipFile): void {
  const { opts, seen } = r;
  const fail = (why: string): never => {
    throw new AxisError(`${opts.shown}: ${why}`, { exitCode: 2 });
  };
  const name = entry.name;
  const unsafe = unsafeEntryName(name);
  if (unsafe) fail(`refused entry ${JSON.stringify(name)}: ${unsafe}`);
  if (seen.has(name)) fail(`refused entry ${JSON.stringify(name)}: it appears twice`);
  seen.add(name);
  if (seen.size > MAX_BLOB_ENTRIES) fail(`more than ${MAX_BLOB_ENTRIES} entries`);
  if (entry.compression !== 0 && entry.compression !== 8)
    fail(`entry ${JSON.stringify(name)} uses compression method ${entry.compression} (only deflate is read)`);
}

/** Inflates the entry into `ready`, counting its bytes against `cap` and the blob's total as they come. */
function readEntry(r: BlobRead, entry: UnzipFile, cap: number): void {
  const { opts } = r;
  const name = entry.name;
  const chunks: Uint8Array[] = [];
  let size = 0;
  entry.ondata = (err, chunk, final) => {
    if (r.error) return;
    if (err) {
      r.error = new AxisError(`${opts.shown}: entry ${JSON.stringify(name)} is corrupt (${err.message})`, {
        exitCode: 2,
      });
      return;
    }
    size += chunk.length;
    r.total += chunk.length;
    r.error = overLimit(r, name, size, cap);
    if (r.error) {
      entry.terminate();
      return;
    }
    chunks.push(chunk);
    if (final) r.ready.push({ name, data: Buffer.concat(chunks) });
  };
  entry.start();
}

/** Why the bytes inflated so far are too many: the entry's own cap first, then the blob's total. */
function overLimit(r: BlobRead, name: string, size: number, cap: number): AxisError | undefined {
  const { opts } = r;
  if (size > cap) {
    return new AxisError(`${opts.shown}: entry ${JSON.stringify(name)} is larger than ${cap} bytes`, {
      exitCode: 2,
    });
  }
  if (r.total > MAX_TOTAL_BYTES) {
    return new AxisError(`${opts.shown}: more than ${MAX_TOTAL_BYTES} bytes once decompressed`, {
      exitCode: 2,
    });
  }
  return undefined;
}
