// Help and version text written straight to a descriptor (src/cli/std-output.ts): what a full,
// non-blocking pipe leaves for the stream, and which outputs count as plain.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { plainOutput, writeAll } from '../../../src/cli/std-output.js';

const open: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const fd of open.splice(0)) closeSync(fd);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Both ends of a named pipe, non-blocking, as a pipe another process made non-blocking behaves. */
function fifo(): { read: number; write: number } {
  const dir = mkdtempSync(join(tmpdir(), 'axis-std-output-'));
  dirs.push(dir);
  const path = join(dir, 'pipe');
  execFileSync('mkfifo', [path]);
  const read = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const write = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  open.push(read, write);
  return { read, write };
}

/** Fills the pipe until a write would block; returns how many bytes it holds. */
function fill(fd: number): number {
  const block = Buffer.alloc(4096, 'x');
  let held = 0;
  for (;;) {
    try {
      held += writeSync(fd, block);
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('EAGAIN');
      return held;
    }
  }
}

describe('writeAll', () => {
  it('writes the whole text when there is room, and hands nothing on', () => {
    const { read, write } = fifo();
    const handed: Buffer[] = [];
    writeAll(write, 'héllo\n', (rest) => handed.push(rest));
    const got = Buffer.alloc(64);
    const n = readSync(read, got);
    expect(got.subarray(0, n).toString()).toBe('héllo\n');
    expect(handed).toEqual([]);
  });

  it('hands the stream exactly the bytes a full pipe did not take, in order', () => {
    const { read, write } = fifo();
    const held = fill(write);
    // Room for 4,096 bytes: a 10,000-byte text goes in part, the rest is handed on.
    readSync(read, Buffer.alloc(4096));
    const text = Array.from({ length: 10_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const handed: Buffer[] = [];
    writeAll(write, text, (rest) => handed.push(rest));
    expect(handed).toHaveLength(1);
    const rest = handed[0]!.toString();
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.length).toBeLessThan(text.length);
    // What the pipe took, after what it held, is the text's start; the rest is its end.
    const all = Buffer.alloc(held + text.length);
    let got = 0;
    for (;;) {
      try {
        const n = readSync(read, all, got, all.length - got, null);
        if (n === 0) break;
        got += n;
      } catch {
        break;
      }
    }
    const taken = all.subarray(held - 4096, got).toString();
    expect(taken + rest).toBe(text);
  });

  it('hands on the whole text when the pipe is full', () => {
    const { write } = fifo();
    fill(write);
    const handed: Buffer[] = [];
    writeAll(write, 'version\n', (rest) => handed.push(rest));
    expect(handed.map((b) => b.toString())).toEqual(['version\n']);
  });
});

describe('plainOutput', () => {
  it('is true for a pipe, a file and /dev/null; false for a terminal and a closed descriptor', () => {
    const { write } = fifo();
    expect(plainOutput(write)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'axis-std-output-'));
    dirs.push(dir);
    const file = openSync(join(dir, 'out.txt'), 'w');
    open.push(file);
    expect(plainOutput(file)).toBe(true);
    const devNull = openSync('/dev/null', 'w');
    open.push(devNull);
    expect(plainOutput(devNull)).toBe(process.platform === 'linux');
    expect(plainOutput(987_654)).toBe(false);
  });

  it('is false for a terminal (a pseudo-terminal from /dev/ptmx)', () => {
    const ptmx = openSync('/dev/ptmx', constants.O_RDWR | constants.O_NOCTTY);
    open.push(ptmx);
    expect(plainOutput(ptmx)).toBe(false);
  });
});
