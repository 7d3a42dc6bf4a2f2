import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildManifest } from '../../../src/report/build-manifest.js';
import { failedPairs } from '../../../src/report/manifest.js';
import { createScrubber } from '../../../src/report/scrub.js';
import { readManifest, resolveReportId, runFiles } from '../../../src/report/locate.js';
import { ReportStore } from '../../../src/report/store.js';
import { writeFileAtomic } from '../../../src/util/atomic-write.js';
import type { JobResult } from '../../../src/report/job-result.js';
import type { JobStatus } from '../../../src/transcript/model.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

function result(over: Partial<JobResult> & { status: JobStatus }): JobResult {
  return {
    index: 0,
    scenarioKey: 'cms/post',
    scenarioBaseKey: 'cms/post',
    scenarioName: 'Post',
    agentName: 'claude-code',
    agent: { name: 'claude-code', agent: 'claude-code', flags: {}, env: {}, skills: [], args: [] },
    run: 1,
    runs: 1,
    prompt: 'p',
    criteria: [],
    limits: { time_minutes: 15 },
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    timings: { setupMs: 1, agentMs: 2, afterAgentMs: 0, teardownMs: 3 },
    transcript: {
      agent: 'claude-code',
      events: [],
      result: 'ok',
      usage: { input: 10, output: 5, cacheReadInput: 2, cacheWriteInput: 1 },
      exitCode: 0,
      startedAt: 0,
      endedAt: 1,
      durationMs: 1,
    },
    rawLineCount: 3,
    artifacts: [],
    ...over,
  };
}

const base = {
  reportId: '2026-01-01-000000',
  startedAt: new Date('2026-01-01T00:00:00Z'),
  now: new Date('2026-01-01T00:00:09Z'),
  incomplete: false,
  config: 'axis.config.json',
  settings: { concurrency: 2, runs: 1, simulate: false },
  skippedScenarios: [],
};

describe('buildManifest', () => {
  it('one entry per (scenario, agent) pair, counted as pairs and as runs', () => {
    const results = [
      result({ index: 0, status: 'completed' }),
      result({ index: 1, scenarioKey: 'b', status: 'failed', reason: 'boom', errorClass: 'crash' }),
      result({
        index: 2,
        scenarioKey: 'c',
        status: 'cancelled',
        reason: 'Run cancelled by SIGINT',
        errorClass: 'cancelled',
      }),
    ];
    const m = buildManifest({ ...base, results: [...results].reverse() });
    expect(m.results.map((r) => [r.scenarioKey, r.status])).toEqual([
      ['cms/post', 'completed'],
      ['b', 'failed'],
      ['c', 'cancelled'],
    ]);
    // A cancelled pair is its own state: neither completed nor failed.
    expect(m.summary).toEqual({
      total: 3,
      completed: 1,
      failed: 1,
      cancelled: 1,
      runsTotal: 3,
      runsFailed: 1,
      runsCancelled: 1,
      skipped: 0,
    });
    expect(m.durationMs).toBe(9000);
    expect(m.incomplete).toBeUndefined();
    expect(m.results[0]).toMatchObject({
      exitCode: 0,
      tokenUsage: { input: 10, output: 5, cacheReadInput: 2 },
      representativeRun: 1,
    });
    expect(m.results[1]).toMatchObject({ reason: 'boom', errorClass: 'crash' });
    expect(failedPairs(m)).toEqual([
      { scenarioKey: 'b', agentName: 'claude-code' },
      { scenarioKey: 'c', agentName: 'claude-code' },
    ]);
  });

  it('with runs > 1 a pair completes when any run did, and the reason names the failing run', () => {
    const runs = [1, 2, 3].map((run) =>
      result({
        index: run - 1,
        run,
        runs: 3,
        durationMs: run * 100,
        status: run === 2 ? 'timeout' : 'completed',
        ...(run === 2 ? { reason: 'Scenario time limit reached (5m)', errorClass: 'timeout' as const } : {}),
      }),
    );
    const m = buildManifest({ ...base, results: runs, incomplete: true });
    expect(m.incomplete).toBe(true);
    expect(m.summary).toMatchObject({ total: 1, completed: 1, failed: 0, runsTotal: 3, runsFailed: 1 });
    const [entry] = m.results;
    expect(entry).toMatchObject({
      status: 'completed',
      reason: 'run 2 of 3: Scenario time limit reached (5m)',
      runsCompleted: 2,
      runsFailed: 1,
      representativeRun: 1,
      durationMs: 100,
    });
    expect(entry!.runs.map((r) => r.status)).toEqual(['completed', 'timeout', 'completed']);
  });
});

describe('scrubber', () => {
  const scrub = createScrubber({
    secrets: ['sk-secret-123456', 'pa"ss\\word99'],
    paths: [
      ['/tmp/axis-AbC/work', '<workspace>'],
      ['/tmp/axis-AbC', '<job>'],
      ['/home/me/proj/', ''],
    ],
  });

  it('replaces temp paths (longest first), project paths and secrets in text', () => {
    expect(scrub.text('cd /tmp/axis-AbC/work/src && cat /tmp/axis-AbC/tmp/x')).toBe(
      'cd <workspace>/src && cat <job>/tmp/x',
    );
    expect(scrub.text('see /home/me/proj/scenarios/a.json')).toBe('see scenarios/a.json');
    expect(scrub.text('key=sk-secret-123456!')).toBe('key=[REDACTED]!');
  });

  it('catches JSON-escaped secrets in raw lines', () => {
    const line = JSON.stringify({ a: 'pa"ss\\word99', b: 'sk-secret-123456', p: '/tmp/axis-AbC/work/f' });
    const out = scrub.line(line);
    expect(out).not.toContain('word99');
    expect(out).not.toContain('sk-secret');
    expect(JSON.parse(out)).toEqual({ a: '[REDACTED]', b: '[REDACTED]', p: '<workspace>/f' });
  });

  it('deep-scrubs values, keys included, without touching non-strings', () => {
    expect(scrub.value({ 'sk-secret-123456': [1, 'sk-secret-123456', { n: null, ok: true }] })).toEqual({
      '[REDACTED]': [1, '[REDACTED]', { n: null, ok: true }],
    });
  });

  it('redacts secrets inside binary content and leaves clean content alone', () => {
    const buf = Buffer.concat([
      Buffer.from([0, 1, 2]),
      Buffer.from('xx sk-secret-123456 yy'),
      Buffer.from([255]),
    ]);
    const out = scrub.bytes(buf);
    expect(out?.includes(Buffer.from('sk-secret'))).toBe(false);
    expect(out?.includes(Buffer.from('[REDACTED]'))).toBe(true);
    expect(scrub.bytes(Buffer.from('nothing here'))).toBeNull();
  });
});

describe('files', () => {
  it('names per-run files; runs > 1 get .run-<n> and run-<n>/ artifacts', () => {
    expect(runFiles('cms/post@v2', 'claude-code|opus', 1, 1)).toEqual({
      detail: 'scenarios/cms/post@v2/claude-code|opus.json',
      raw: 'scenarios/cms/post@v2/claude-code|opus.raw.ndjson',
      artifactsDir: 'scenarios/cms/post@v2/claude-code|opus/artifacts',
      debug: 'scenarios/cms/post@v2/claude-code|opus.debug.ndjson',
      debugStderr: 'scenarios/cms/post@v2/claude-code|opus.debug.stderr.log',
    });
    expect(runFiles('a', 'x', 2, 3)).toMatchObject({
      detail: 'scenarios/a/x.run-2.json',
      raw: 'scenarios/a/x.run-2.raw.ndjson',
      artifactsDir: 'scenarios/a/x/run-2/artifacts',
    });
  });

  it('writes atomically and leaves no temp file behind', async () => {
    const dir = tempDir('axis-store-');
    const path = join(dir, 'a', 'b.json');
    await writeFileAtomic(path, '{"v":1}\n');
    await writeFileAtomic(path, '{"v":2}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"v":2}\n');
    expect(readdirSync(join(dir, 'a'))).toEqual(['b.json']);
  });

  /** A store in a fresh dir whose one secret is `tok-abcdefgh1`. */
  const secretStore = async () => {
    const dir = tempDir('axis-store-');
    const store = await ReportStore.create({
      configDir: dir,
      startedAt: new Date(),
      secrets: ['tok-abcdefgh1'],
    });
    return { dir, store };
  };

  it('store writes scrubbed JSON and one raw line per line', async () => {
    const { dir, store } = await secretStore();
    const scrub = store.scrubber([['/tmp/axis-zz/work', '<workspace>']]);
    await store.writeJson(
      'x.json',
      { v: 'tok-abcdefgh1 in /tmp/axis-zz/work/a', f: `${dir}/scenarios/s.json` },
      scrub,
    );
    await store.writeLines('x.raw.ndjson', ['{"a":"tok-abcdefgh1"}', '{"b":2}'], scrub);
    expect(JSON.parse(readFileSync(join(store.dir, 'x.json'), 'utf8'))).toEqual({
      v: '[REDACTED] in <workspace>/a',
      f: 'scenarios/s.json',
    });
    expect(readFileSync(join(store.dir, 'x.raw.ndjson'), 'utf8')).toBe('{"a":"[REDACTED]"}\n{"b":2}\n');
  });

  it('raw logs make their folder once, short and long, and the store’s own writes share it', async () => {
    const { store } = await secretStore();
    const scrub = store.scrubber();
    const short = store.openRawLog('scenarios/s0001/a.raw.ndjson', scrub);
    short.write('{"a":"tok-abcdefgh1"}', undefined);
    expect(await short.commit()).toBe(true);
    // a second job's raw log in the folder made by the first, flushed in megabyte chunks
    const long = store.openRawLog('scenarios/s0001/b.raw.ndjson', scrub);
    const line = `{"x":"${'y'.repeat(1000)}"}`;
    for (let i = 0; i < 2000; i++) long.write(line, undefined);
    expect(await long.commit()).toBe(true);
    await store.writeJson('scenarios/s0001/a.json', { ok: 1 });
    // and a folder the async writes made first
    await store.writeJson('scenarios/s0002/a.json', { ok: 2 });
    const third = store.openRawLog('scenarios/s0002/a.raw.ndjson', scrub);
    third.write('{"c":3}', undefined);
    expect(await third.commit()).toBe(true);
    const at = (rel: string) => readFileSync(join(store.dir, rel), 'utf8');
    expect(at('scenarios/s0001/a.raw.ndjson')).toBe('{"a":"[REDACTED]"}\n');
    expect(at('scenarios/s0001/b.raw.ndjson')).toBe(`${line}\n`.repeat(2000));
    expect(JSON.parse(at('scenarios/s0001/a.json'))).toEqual({ ok: 1 });
    expect(at('scenarios/s0002/a.raw.ndjson')).toBe('{"c":3}\n');
    expect(readdirSync(join(store.dir, 'scenarios/s0001')).sort()).toEqual([
      'a.json',
      'a.raw.ndjson',
      'b.raw.ndjson',
    ]);
  });

  it('a lost part is recorded (and so printed) without the secrets its error quotes', async () => {
    const { dir, store } = await secretStore();
    store.recordFailure('a/art', new Error(`EACCES: permission denied, open '${dir}/w/d-tok-abcdefgh1'`));
    expect(store.failures).toEqual([
      { path: 'a/art', message: `EACCES: permission denied, open '${dir}/w/d-[REDACTED]'` },
    ]);
  });

  it('a live text log (--debug stderr) scrubs a secret or path that arrives cut between two chunks', async () => {
    const { store } = await secretStore();
    const log = await store.openLog(
      'x.debug.stderr.log',
      store.scrubber([['/tmp/axis-zz/work', '<ws>']]),
      'text',
    );
    for (const chunk of [
      'key tok-abc',
      'defgh1 in /tmp/axis',
      '-zz/work/a\nlast tok-abcdefg',
      'h1 tok-ab',
      'c',
    ])
      log.write(chunk);
    await log.close();
    expect(readFileSync(join(store.dir, 'x.debug.stderr.log'), 'utf8')).toBe(
      'key [REDACTED] in <ws>/a\nlast [REDACTED] tok-abc',
    );
  });

  it('the scrubber without job paths is made once and scrubs the same way; one with paths is its own', async () => {
    const { dir, store } = await secretStore();
    const plain = store.scrubber();
    expect(store.scrubber()).toBe(plain);
    expect(store.scrubber([])).toBe(plain);
    const withPaths = store.scrubber([['/tmp/axis-zz/work', '<workspace>']]);
    expect(withPaths).not.toBe(plain);
    const value = { v: 'tok-abcdefgh1 in /tmp/axis-zz/work/a', f: `${dir}/scenarios/s.json` };
    for (let round = 0; round < 2; round++)
      expect(plain.value(value)).toEqual({ v: '[REDACTED] in /tmp/axis-zz/work/a', f: 'scenarios/s.json' });
    expect(withPaths.value(value).v).toBe('[REDACTED] in <workspace>/a');
  });
});

describe('reading reports', () => {
  it('latest is the newest id with a report.json; unknown ids and empty stores are clear errors', async () => {
    const dir = tempDir('axis-read-');
    await expect(resolveReportId(dir, 'latest')).rejects.toThrow(/No reports found/);
    const at = new Date('2026-03-01T10:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const store = await ReportStore.create({ configDir: dir, startedAt: at, secrets: [] });
      ids.push(store.id);
      await store.writeManifest(buildManifest({ ...base, reportId: store.id, results: [] }));
    }
    // A claimed directory without a manifest yet (a run that just started) is not "latest".
    await ReportStore.create({ configDir: dir, startedAt: at, secrets: [] });
    expect(await resolveReportId(dir, undefined)).toBe('2026-03-01-100000-3');
    expect(await resolveReportId(dir, ids[0])).toBe(ids[0]);
    await expect(resolveReportId(dir, '2020-01-01-000000')).rejects.toThrow(
      /Report "2020-01-01-000000" not found/,
    );
    expect((await readManifest(dir, ids[1]!)).reportId).toBe(ids[1]);
  });

  it('a file that is not a report is refused with its path', async () => {
    const dir = tempDir('axis-read-');
    const store = await ReportStore.create({ configDir: dir, startedAt: new Date(), secrets: [] });
    writeFileSync(join(store.dir, 'report.json'), '{"hello":1}');
    await expect(readManifest(dir, store.id)).rejects.toThrow(/not an AXIS report/);
    expect(existsSync(join(store.dir, 'report.json'))).toBe(true);
  });
});
