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

/**
 * A blob's job names become the report's scenario keys and agent names, printed on every summary line and
 * in the job summary: one with a bidi override or a C1 control (U+009B is a terminal's CSI) is refused, as
 * validation refuses it in a config, before anything is written or shown.
 */
describe('axis reports merge: a job name a terminal would not show as it is', () => {
  const UNSHOWN = /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
  const HOSTILE = [
    ['scenarioKey', 'a bidi override', 'k\u202egnp.exe'],
    ['agentName', 'a C1 control', 'c\u009b2J'],
  ] as const;

  it.each(HOSTILE)(
    '%s with %s is refused naming the blob and the field (exit 2)',
    async (field, _, value) => {
      const dir = makeProject({ 'scenarios/k.json': { name: 'K', prompt: 'p', judge: 'j' } });
      writeFileSync(join(dir, 'agent.sh'), '#!/bin/sh\necho \'{"type":"result","text":"ok"}\'\n', {
        mode: 0o755,
      });
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({
          scenarios: './scenarios',
          agents: [{ agent: 'command', name: 'c', command: join(dir, 'agent.sh'), output: 'ndjson' }],
        }),
      );
      const ran = await axis(['run', '--no-score', '--shard', '1/1'], dir);
      expect(ran.code, ran.stderr).toBe(0);
      const blob = join(dir, '.axis/blobs/axis-blob-1-of-1.zip');
      const old = field === 'scenarioKey' ? 'k' : 'c';
      const rename = (n: string) =>
        field === 'scenarioKey'
          ? n.replace('report/scenarios/k/', `report/scenarios/${value}/`)
          : n.replace(/\/c(\.|\/)/, `/${value}$1`);
      const files: Record<string, Uint8Array> = {};
      for (const [name, data] of Object.entries(unzipSync(readFileSync(blob)))) {
        const text = Buffer.from(data).toString('utf8');
        files[rename(name)] = name.endsWith('.json')
          ? Buffer.from(text.split(JSON.stringify(old)).join(JSON.stringify(value)))
          : data;
      }
      writeFileSync(blob, zipSync(files));
      const r = await axis(['reports', 'merge', blob], makeProject({}));
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain(`${blob}: axis-blob.json: jobs.0.${field}: expected`);
      expect(r.stdout + r.stderr).not.toMatch(UNSHOWN);
    },
    30_000,
  );
});
