/**
 * The process's standard output streams, made only when something uses them. Node makes
 * `process.stdout` on first use; for a pipe that is a net.Socket with its libuv handle, about 6 ms
 * here, a fifteenth of `axis --help` (docs/performance.md, "Start-up"). Help and version text goes
 * straight to the file descriptor instead (`writeStd`), and the streams' error handlers (main.ts) are
 * attached when a stream is first made (`whenMade`), not by making both at start-up.
 */
import { fstatSync, writeSync } from 'node:fs';

type StdName = 'stdout' | 'stderr';
const FD: Record<StdName, number> = { stdout: 1, stderr: 2 };
const made: Record<StdName, boolean> = { stdout: false, stderr: false };

/**
 * Calls `attach` with the stream as soon as `process[name]` is first read, by anyone (Node's own
 * warnings and `console` included). Node defines the property as a configurable getter that makes the
 * stream once; the wrapper calls it, puts it back and attaches. Without such a getter (never seen) the
 * stream is made now.
 */
export function whenMade(name: StdName, attach: (stream: NodeJS.WriteStream) => void): void {
  const own = Object.getOwnPropertyDescriptor(process, name);
  const get = own?.get;
  if (!own || !get || !own.configurable) {
    made[name] = true;
    attach(process[name]);
    return;
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      Object.defineProperty(process, name, own);
      const stream = get.call(process) as NodeJS.WriteStream;
      made[name] = true;
      attach(stream);
      return stream;
    },
  });
}

/**
 * Whether the descriptor is a pipe, a file, a socket or one of Linux's memory devices (/dev/null,
 * /dev/full: character devices of major number 1): never a terminal, so help needs neither its width nor
 * its colours. Any other character device may be a terminal and answers no: `tty.isatty` would tell,
 * but loading `tty` loads `net` and the stream classes, the cost being avoided.
 */
export function plainOutput(fd: number): boolean {
  try {
    const s = fstatSync(fd);
    if (s.isFIFO() || s.isFile() || s.isSocket()) return true;
    return s.isCharacterDevice() && process.platform === 'linux' && linuxMajor(s.rdev) === 1;
  } catch {
    return false;
  }
}

const plainStd = new Map<StdName, boolean>();
/** `plainOutput` of stdout or stderr, looked at once: help asks it for its width, colours and each write. */
export function plainStdOutput(name: StdName): boolean {
  let plain = plainStd.get(name);
  if (plain === undefined) plainStd.set(name, (plain = plainOutput(FD[name])));
  return plain;
}

/** The major number of a Linux device number (glibc's `major()`; the high bits only past 32 bits). */
function linuxMajor(rdev: number): number {
  return ((rdev >>> 8) & 0xfff) | (Math.floor(rdev / 2 ** 32) & ~0xfff);
}

/**
 * `text` written to the stream's descriptor synchronously while the stream is not made; once it is, or
 * for a terminal, through it, so nothing it still holds is overtaken.
 */
export function writeStd(name: StdName, text: string): void {
  if (made[name] || !plainStdOutput(name)) {
    process[name].write(text);
    return;
  }
  writeAll(FD[name], text, (rest) => process[name].write(rest));
}

/**
 * Writes `text` to `fd`, handing what is left to `rest` when a write fails. A descriptor another
 * process made non-blocking answers EAGAIN once its pipe is full, and the stream then waits for room;
 * any other failure (EPIPE, ENOSPC) reaches the stream too, whose error handler says it once
 * (main.ts), so a direct write fails the way a stream write does.
 */
export function writeAll(fd: number, text: string, rest: (left: Buffer) => void): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at);
  } catch {
    rest(bytes.subarray(at));
  }
}
