/**
 * Reading files AXIS does not control (configs, scenarios, tapes, stored reports): only regular files, at most
 * a size cap, and never blocking. The file is opened with O_NONBLOCK and checked through its descriptor, so a
 * FIFO, /dev/zero or a swapped-in device is refused before a single byte is read, whatever the path was
 * a symlink to when it was checked.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { formatBytes } from './bytes.js';

/** Why a file could not be used; `message` reads after "<file>: ". */
export class InputFileError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'InputFileError';
  }
}

/** Config and scenario files: far above any real one, far below what could hurt. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

const REASONS: Record<string, string> = {
  ELOOP: 'a symlink loop',
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a directory',
  ENAMETOOLONG: 'the path is too long',
  ENOTDIR: 'a part of the path is not a directory',
};

/** `a symlink loop (ELOOP)`; the message's first line for errors without a code. */
export function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code) return REASONS[code] ? `${REASONS[code]} (${code})` : code;
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0] ?? message;
}

/** What a non-regular file is, for "expected a regular file, found …". */
export function fileKind(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'a special file';
}

function checkStats(st: Stats, maxBytes: number): void {
  if (!st.isFile()) throw new InputFileError(`expected a regular file, found ${fileKind(st)}`);
  if (st.size > maxBytes)
    throw new InputFileError(
      `the file is ${formatBytes(st.size)}; expected at most ${formatBytes(maxBytes)}`,
    );
}

const cannotRead = (err: unknown) =>
  new InputFileError(`could not read the file: ${fsReason(err)}`, (err as NodeJS.ErrnoException).code);

/**
 * Checks `path` (following symlinks) is a regular file of at most `maxBytes`, for files another
 * loader reads itself (modules through jiti).
 */
export function checkInputFile(path: string, maxBytes = MAX_INPUT_BYTES): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw cannotRead(err);
  }
  checkStats(st, maxBytes);
}

/**
 * `bytes` as UTF-8 text; InputFileError naming the line and column of the first byte that is not UTF-8
 * (Buffer#toString would turn it into U+FFFD without a word). A real U+FFFD in the file is kept.
 */
export function decodeUtf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  // `at` is the byte offset of text[i], advanced piece by piece so a file of many U+FFFD stays linear.
  let at = 0;
  let prev = 0;
  for (let i = text.indexOf('\ufffd'); i !== -1; i = text.indexOf('\ufffd', i + 1)) {
    at += Buffer.byteLength(text.slice(prev, i));
    prev = i;
    if (bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) continue;
    const before = text.slice(0, i);
    const line = before.split('\n').length;
    const column = i - before.lastIndexOf('\n');
    const hex = bytes[at]!.toString(16).padStart(2, '0');
    throw new InputFileError(
      `not valid UTF-8 at line ${line}, column ${column} (byte 0x${hex}): save the file as UTF-8`,
    );
  }
  return text;
}

/** The text of a regular file of at most `maxBytes`; InputFileError otherwise. */
export function readInputFile(path: string, maxBytes = MAX_INPUT_BYTES): string {
  return readInputBytes(path, maxBytes).toString('utf8');
}

/** The bytes of a regular file of at most `maxBytes`; InputFileError otherwise. */
export function readInputBytes(path: string, maxBytes = MAX_INPUT_BYTES): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw cannotRead(err);
  }
  try {
    const st = fstatSync(fd);
    checkStats(st, maxBytes);
    // Read to the end, not to the size fstat saw, and stop past the cap: the file may still be growing.
    // The buffer is sized from fstat, one byte over to see the end, so a file that did not grow is
    // read without a copy: a fixed 64 KB buffer per file (the trend reads a small file per stored
    // report) was a fresh allocation and a concatenation each time, and twice a big file's size.
    let buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(Math.max(buf.length * 2, 1 << 16), maxBytes + 1));
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
      }
      const room = buf.length - total;
      const n = readSync(fd, buf, total, room, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes)
        throw new InputFileError(`the file is over ${formatBytes(maxBytes)}; expected at most that`);
      // A short read of a regular file that has all fstat saw is its end: no second read to be told so.
      // A file fstat says is empty (procfs, which hands out a page at a time) is read until a read is 0.
      if (n < room && st.size > 0 && total >= st.size) break;
    }
    return buf.subarray(0, total);
  } catch (err) {
    throw err instanceof InputFileError ? err : cannotRead(err);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of `path` when it is a regular file (not a link) of at most `maxBytes`, else undefined. For
 * files an agent may have planted where AXIS reads after it: opened without blocking and without
 * following a link, so a FIFO or a link to /dev/zero is passed over at once.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await fh.read(buf, 0, st.size, 0);
    return buf.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => {});
  }
}
