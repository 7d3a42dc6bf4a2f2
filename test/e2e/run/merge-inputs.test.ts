/**
 * `axis reports merge` given paths that are not blob files: a FIFO, a character device. Each is refused
 * (exit 2, naming the path and what it is) before a byte is read, never a hang.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { buildDist, startAxis } from './helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

/** The merge's result, or a kill after 10 s: a hang fails the test instead of stalling it. */
async function merge(input: string) {
  const run = startAxis(['reports', 'merge', input], makeProject({}));
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 10_000);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}

describe('axis reports merge: inputs that are not regular files', () => {
  it('a FIFO named like a blob is refused, not waited on', async () => {
    const fifo = join(tempDir('axis-fifo-'), 'axis-blob-1-of-2.zip');
    execFileSync('mkfifo', [fifo]);
    const r = await merge(fifo);
    expect(r.signal).toBe(null);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${fifo}: expected a regular file, found a FIFO (named pipe)`);
  }, 20_000);

  it('/dev/zero is refused, not read forever', async () => {
    const r = await merge('/dev/zero');
    expect(r.signal).toBe(null);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/dev/zero: expected a regular file, found a character device');
  }, 20_000);
});
