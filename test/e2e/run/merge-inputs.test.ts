/**
 * `axis reports merge` given paths that are not blob files (a FIFO, a character device), or a blob whose
 * run files are damaged. Each is refused (exit 2, naming the path and what is wrong), never a hang or an
 * internal error.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, startAxis } from './helpers.js';
import { newProject } from './shard-fixture.js';

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

describe('axis reports merge: a damaged run file in a blob', () => {
  it('is refused naming the blob, the file and the field (exit 2), not an internal error', async () => {
    const dir = newProject();
    for (const k of [1, 2]) await axis(['run', '--runs', '1', '--shard', `${k}/2`], dir);
    const blob = join(dir, '.axis/blobs/axis-blob-1-of-2.zip');
    const files = unzipSync(readFileSync(blob));
    const detail = Object.keys(files).find((n) => /^report\/scenarios\/[^/]+\/[^/.]+\.json$/.test(n))!;
    const run = JSON.parse(Buffer.from(files[detail]!).toString('utf8')) as Record<string, unknown>;
    files[detail] = Buffer.from(JSON.stringify({ ...run, transcript: {} }));
    writeFileSync(blob, zipSync(files));
    const r = await axis(['reports', 'merge', join(dir, '.axis/blobs')], makeProject({}));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`axis-blob-1-of-2.zip: ${detail.slice('report/'.length)}: transcript.`);
    expect(r.stderr).not.toContain('Internal error');
  }, 30_000);
});

describe('axis reports merge: a project whose .axis/reports cannot hold a report', () => {
  it('says why in words, as axis run does (exit 2), not an error code', async () => {
    const dir = newProject();
    for (const k of [1, 2]) await axis(['run', '--runs', '1', '--shard', `${k}/2`], dir);
    const target = makeProject({});
    mkdirSync(join(target, '.axis'), { recursive: true });
    writeFileSync(join(target, '.axis/reports'), 'not a folder');
    const r = await axis(['reports', 'merge', join(dir, '.axis/blobs')], target);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Cannot create a report in .axis/reports: .axis/reports (or a folder above it) is a file, not a directory.',
    );
  }, 60_000);
});
