// readInputBytes: the exact bytes of a regular file whatever its size, the cap said, files whose size
// stat does not tell (procfs) read to their end, and anything but a regular file refused unread.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputFileError, readInputBytes, readInputFile } from '../../../src/util/input-file.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-input-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + 3) % 256));

describe('readInputBytes', () => {
  it.each([0, 1, 100, 4095, 65_536, 65_537, 300_001])('reads a file of %i bytes exactly', (n) => {
    const file = join(dir, `f${n}`);
    const bytes = bytesOf(n);
    writeFileSync(file, bytes);
    const read = readInputBytes(file);
    expect(read.length).toBe(n);
    expect(read.equals(bytes)).toBe(true);
  });

  it('reads a file whose size stat does not tell (procfs says 0) to its end', () => {
    const read = readInputFile('/proc/self/status');
    expect(read.length).toBeGreaterThan(0);
    expect(read).toMatch(/^Name:/);
    expect(read).toContain('\nPid:');
  });

  it('refuses a file over the cap, at the limit or past it, naming the sizes', () => {
    const file = join(dir, 'big');
    writeFileSync(file, bytesOf(4096));
    expect(readInputBytes(file, 4096).length).toBe(4096);
    expect(() => readInputBytes(file, 2048)).toThrow(
      new InputFileError('the file is 4.0 KiB; expected at most 2.0 KiB'),
    );
    // A file stat says is empty (procfs) is stopped once its bytes pass the cap.
    expect(() => readInputBytes('/proc/self/status', 100)).toThrow(
      new InputFileError('the file is over 100 B; expected at most that'),
    );
  });

  it('follows a symlink to a regular file, and refuses a FIFO, a directory and a missing file', () => {
    const target = join(dir, 'target');
    writeFileSync(target, 'hello');
    const link = join(dir, 'link');
    symlinkSync(target, link);
    expect(readInputFile(link)).toBe('hello');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => readInputBytes(fifo)).toThrow('expected a regular file, found a FIFO (named pipe)');
    expect(() => readInputBytes(dir)).toThrow('expected a regular file, found a directory');
    expect(() => readInputBytes(join(dir, 'missing'))).toThrow(
      'could not read the file: no such file (ENOENT)',
    );
    expect(readFileSync(target, 'utf8')).toBe('hello');
  });
});
