/**
 * Sharded runs end to end: a suite run as 3 shards (separate `axis` processes in separate project copies)
 * and merged equals one unsharded run of the same suite, apart from ids and times. The agent is a scripted
 * `command` agent; the simulator plays the judge from each scenario's tape.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, makeProject, readJson, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { expectValidReport } from '../../helpers/report-schema.js';
import { axis, buildDist } from './helpers.js';
import { AGENT_T0, newProject, onlyReport } from './shard-fixture.js';

const T = 240_000;

/** Drops what differs between any two runs of the same suite: ids, clocks, provenance. */
const VOLATILE = new Set([
  'reportId',
  'timestamp',
  'updatedAt',
  'durationMs',
  'startedAt',
  'endedAt',
  'timings',
]);
/**
 * Also the judge's prompt size: its sparse index carries receipt-time durations (`~12ms`, when AXIS's own
 * clock measured an interaction), so `inputChars` and input tokens follow the clock. Scores do not.
 */
function normalise(value: unknown, inJudge = false): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, inJudge));
  if (value && typeof value === 'object') {
    let obj = value as Record<string, unknown>;
    if (inJudge)
      obj = Object.fromEntries(
        Object.entries(obj)
          .filter(([k]) => k !== 'inputChars')
          .map(([k, v]) => [k, k === 'tokens' ? { output: (v as { output?: unknown }).output } : v]),
      );
    // Events AXIS stamped itself (on arrival, or an exit) carry the clock; the agent's own timestamps are kept.
    const ts = obj.ts;
    const clock = typeof ts === 'number' && (ts < AGENT_T0 || ts > AGENT_T0 + 60_000);
    return Object.fromEntries(
      Object.entries(obj)
        .filter(([k]) => !VOLATILE.has(k) && k !== 'merged' && k !== 'shard' && !(clock && k === 'ts'))
        .map(([k, v]) => [k, normalise(v, inJudge || k === 'judge')]),
    );
  }
  return value;
}

/** Sparse index lines: receipt-time durations (`~12ms`, `~1.2s`) are the clock's; the agent's are kept. */
const withoutReceiptTimes = (text: string) => text.replace(/ ~\d+(\.\d+)?m?s$/gm, ' ~');

type Manifest = {
  results: {
    scenarioKey: string;
    agentName: string;
    representativeRun: number;
    runs: { run: number; scoreStatus?: string }[];
    spread?: { reliability: number; min: number | null; max: number | null };
  }[];
  incomplete?: boolean;
  shard?: { index: number; total: number };
  merged?: { total: number; shards: { index: number }[] };
};

/**
 * The unsharded report with every run's duration set to 1 s. Measured durations vary from run to run, and
 * the split they weigh may put all of a pair's runs on one shard; equal weights deal the jobs out in key
 * order, so each pair's three runs land on three shards and the merge must join them.
 */
function evenDurations(reportDir: string): unknown {
  const m = readJson<{ results: { runs: { durationMs?: number }[] }[] }>(join(reportDir, 'report.json'));
  for (const e of m.results) for (const r of e.runs) r.durationMs = 1000;
  return m;
}

let unsharded: string;
let shardDirs: string[];
let blobDirs: string[];
let merged: string;
let mergeOut: Awaited<ReturnType<typeof axis>>;
/** Exit code of the unsharded run: the merge must end the same way. */
let singleCode: number | null;

beforeAll(async () => {
  buildDist();
  const single = newProject();
  const r = await axis(['run', '--no-cache'], single);
  expect([0, 1], r.stderr).toContain(r.code);
  singleCode = r.code;
  unsharded = onlyReport(single);

  // Three machines: separate copies, separate processes, all at once; the durations file is the same on each.
  shardDirs = [1, 2, 3].map(() => newProject());
  blobDirs = shardDirs.map((d) => join(d, 'out'));
  const runs = await Promise.all(
    shardDirs.map((dir, i) => {
      writeFileSync(join(dir, 'previous.json'), JSON.stringify(evenDurations(unsharded)));
      return axis(
        ['run', '--no-cache', '--shard', `${i + 1}/3`, '--shard-durations', 'previous.json', '-o', 'out'],
        dir,
      );
    }),
  );
  for (const [i, x] of runs.entries()) {
    expect(x.stderr).not.toContain('Internal error');
    expect(x.stdout, x.stderr).toContain(`Shard ${i + 1}/3 (`);
  }
  const mergeDir = makeProject({});
  mergeOut = await axis(
    ['reports', 'merge', blobDirs[0]!, join(blobDirs[1]!, 'axis-blob-2-of-3.zip'), blobDirs[2]!],
    mergeDir,
  );
  merged = existsSync(join(mergeDir, '.axis/reports')) ? onlyReport(mergeDir) : '';
}, T);

afterAll(removeTempDirs);

describe('axis run --shard + axis reports merge', () => {
  it('every job ran in exactly one shard, and a pair’s runs were split across shards', () => {
    const seen = new Map<string, number[]>();
    for (const [i, dir] of shardDirs.entries()) {
      const m = readJson<Manifest>(join(onlyReport(dir), 'report.json'));
      expect(m.shard).toEqual({ index: i + 1, total: 3 });
      for (const e of m.results)
        for (const r of e.runs) {
          const key = `${e.scenarioKey}/${e.agentName}/${r.run}`;
          seen.set(key, [...(seen.get(key) ?? []), i + 1]);
        }
    }
    expect(seen.size).toBe(3 * 2 * 3);
    for (const [i, dir] of blobDirs.entries()) {
      const m = JSON.parse(
        Buffer.from(
          unzipSync(readFileSync(join(dir, `axis-blob-${i + 1}-of-3.zip`)))['axis-blob.json']!,
        ).toString(),
      ) as { weighted: boolean; planJobs: number; shard: { index: number } };
      expect(m).toMatchObject({ weighted: true, planJobs: 18, shard: { index: i + 1 } });
    }
    for (const shards of seen.values()) expect(shards).toHaveLength(1);
    const shardsOfPair = (pair: string) => new Set([1, 2, 3].map((run) => seen.get(`${pair}/${run}`)![0]));
    expect(shardsOfPair('count/alpha').size).toBeGreaterThan(1);
    expect(shardsOfPair('flaky/beta').size).toBeGreaterThan(1);
  });

  it('the merged report equals the unsharded one apart from ids and times', () => {
    expect(mergeOut.code, mergeOut.stdout + mergeOut.stderr).toBe(singleCode);
    expect(mergeOut.stdout).toContain('Merged 3 blobs (shards 1, 2, 3 of 3)');
    expect(merged).not.toBe('');
    const a = readJson<Manifest>(join(unsharded, 'report.json'));
    const b = readJson<Manifest>(join(merged, 'report.json'));
    expect(b.merged?.shards.map((s) => s.index)).toEqual([1, 2, 3]);
    expect(b.incomplete).toBeUndefined();
    expect(normalise(b)).toEqual(normalise(a));
    // What the recomputation had to get right across shards, checked outright too.
    const pair = (m: Manifest, key: string) =>
      m.results.find((e) => `${e.scenarioKey}/${e.agentName}` === key)!;
    expect(pair(b, 'flaky/beta').spread?.reliability).toBe(0.667);
    const count = pair(b, 'count/alpha');
    expect(count.spread!.min!).toBeLessThan(count.spread!.max!); // run 2 missed the check
    expect(count.representativeRun).not.toBe(2);
    const statuses = b.results.flatMap((e) =>
      e.runs.map((r) => `${e.scenarioKey}/${e.agentName}/${r.run}:${r.scoreStatus}`),
    );
    expect(statuses.filter((x) => !x.endsWith(':scored'))).toEqual(['flaky/beta/3:failed']);
    expectValidReport(merged);
  });

  it('--json prints the merged report.json as one document', async () => {
    const dir = makeProject({});
    const r = await axis(['reports', 'merge', '--json', ...blobDirs], dir);
    expect(r.code, r.stderr).toBe(singleCode);
    const doc = JSON.parse(r.stdout) as Manifest & { reportDir: string };
    expect(doc.reportDir).toMatch(/^\.axis\/reports\/\d{4}-/);
    expect(doc.merged?.total).toBe(3);
    expect(normalise(doc)).toMatchObject(normalise(readJson(join(merged, 'report.json'))) as object);
  });

  it('the CI reporters work on the merged result (junit file, github)', async () => {
    const dir = makeProject({});
    const r = await axis(
      ['reports', 'merge', '--reporter', 'junit=junit.xml', '--reporter', 'github', ...blobDirs],
      dir,
    );
    expect(r.code, r.stderr).toBe(singleCode);
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(6);
    expect(xml).toMatch(/<testcase [^>]*flaky/);
    expect(r.stderr).not.toContain('reporter failed');
  });

  it('restores every run file at the same path with the same content', () => {
    const files = (dir: string) => listFiles(dir).filter((f) => f !== 'report.html' && f !== 'report.json');
    expect(files(merged)).toEqual(files(unsharded));
    for (const rel of files(unsharded)) {
      const x = readFileSync(join(unsharded, rel), 'utf8');
      const y = readFileSync(join(merged, rel), 'utf8');
      if (rel.endsWith('.json')) expect(normalise(JSON.parse(y)), rel).toEqual(normalise(JSON.parse(x)));
      else if (rel.endsWith('.sparse-index.txt'))
        expect(withoutReceiptTimes(y), rel).toBe(withoutReceiptTimes(x));
      else expect(y, rel).toBe(x);
    }
    expect(existsSync(join(merged, 'report.html'))).toBe(true);
  });
});

describe('axis reports merge refuses blobs that do not belong together', () => {
  const blob = (k: number) => join(blobDirs[k - 1]!, `axis-blob-${k}-of-3.zip`);
  /** A copy of shard k's blob with its manifest (or entries) changed. */
  function forged(k: number, edit: (files: Record<string, Uint8Array>) => void): string {
    const files = unzipSync(readFileSync(blob(k)));
    edit(files);
    const dir = tempDir('axis-forged-');
    const path = join(dir, `axis-blob-${k}-of-3.zip`);
    writeFileSync(path, zipSync(files));
    return path;
  }
  const editManifest = (f: Record<string, Uint8Array>, change: (m: Record<string, unknown>) => void) => {
    const m = JSON.parse(Buffer.from(f['axis-blob.json']!).toString('utf8')) as Record<string, unknown>;
    change(m);
    f['axis-blob.json'] = Buffer.from(JSON.stringify(m));
  };
  const mergeIn = async (...inputs: string[]) => {
    const dir = makeProject({});
    const r = await axis(['reports', 'merge', ...inputs], dir);
    return {
      ...r,
      reports: existsSync(join(dir, '.axis/reports')) ? readdirSync(join(dir, '.axis/reports')) : [],
    };
  };

  it(
    'a blob of another config, an overlapping or repeated shard, a missing shard',
    async () => {
      const other = forged(3, (f) => editManifest(f, (m) => (m.configHash = 'f'.repeat(64))));
      const r1 = await mergeIn(blob(1), blob(2), other);
      expect(r1.code).toBe(2);
      expect(r1.stderr).toContain('the blobs are not shards of one run (config hash differs)');
      expect(r1.stderr).toContain('axis-blob-3-of-3.zip');
      expect(r1.reports).toEqual([]);

      const firstOfShard1 = (
        JSON.parse(Buffer.from(unzipSync(readFileSync(blob(1)))['axis-blob.json']!).toString('utf8')) as {
          jobs: unknown[];
        }
      ).jobs[0];
      const overlap = forged(3, (f) =>
        editManifest(f, (m) => (m.jobs = [...(m.jobs as unknown[]), firstOfShard1])),
      );
      const r2 = await mergeIn(blob(1), blob(2), overlap);
      expect(r2.code).toBe(2);
      expect(r2.stderr).toMatch(
        /overlapping blobs: \S+ · (alpha|beta) · run \d is in both \S+axis-blob-[13]-of-3\.zip and \S+axis-blob-[13]-of-3\.zip/,
      );
      expect(r2.reports).toEqual([]);

      const twice = forged(2, () => {});
      const r3 = await mergeIn(blob(1), blob(2), twice, blob(3));
      expect(r3.code).toBe(2);
      expect(r3.stderr).toContain('shard 2/3 appears twice');

      const r4 = await mergeIn(blob(1), blob(3));
      expect(r4.code).toBe(2);
      expect(r4.stderr).toContain('shard 2/3 missing');
      expect(r4.stderr).toContain('--allow-partial');
      expect(r4.reports).toEqual([]);

      const dir = makeProject({});
      const r5 = await axis(['reports', 'merge', '--allow-partial', blob(1), blob(3)], dir);
      expect(r5.code).toBe(1);
      expect(r5.stderr).toContain('warning: shard 2/3 missing');
      const partial = readJson<Manifest & { incompleteReason?: string }>(
        join(onlyReport(dir), 'report.json'),
      );
      expect(partial.incomplete).toBe(true);
      expect(partial.incompleteReason).toContain('shard 2/3 missing (merged with --allow-partial)');
      expectValidReport(onlyReport(dir));
    },
    T,
  );

  it(
    'a blob that disagrees on the size of the whole plan, whichever shard it is',
    async () => {
      const edited = forged(3, (f) => editManifest(f, (m) => (m.planJobs = 99)));
      const r = await mergeIn(blob(1), blob(2), edited);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the blobs are not shards of one run (planned jobs differs)');
      expect(r.stderr).toMatch(/planned jobs 99: \S+axis-blob-3-of-3\.zip/);
      expect(r.reports).toEqual([]);
    },
    T,
  );

  it(
    'a blob that lists one job twice is named as the one at fault, not as overlapping itself',
    async () => {
      const twice = forged(2, (f) =>
        editManifest(f, (m) => (m.jobs = [...(m.jobs as unknown[]), (m.jobs as unknown[])[0]])),
      );
      const r = await mergeIn(blob(1), twice, blob(3));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /\S+axis-blob-2-of-3\.zip: axis-blob\.json: jobs lists \S+ · (alpha|beta) · run \d twice/,
      );
      expect(r.stderr).not.toContain('overlapping');
      expect(r.reports).toEqual([]);
    },
    T,
  );

  it(
    "a blob whose job index is outside the plan, or another job's, is named (it decides the report's order)",
    async () => {
      const beyond = forged(2, (f) =>
        editManifest(f, (m) => ((m.jobs as { index: number }[])[0]!.index = 999)),
      );
      const r1 = await mergeIn(blob(1), beyond, blob(3));
      expect(r1.code).toBe(2);
      expect(r1.stderr).toMatch(
        /\S+axis-blob-2-of-3\.zip: axis-blob\.json: jobs\[0\]\.index: expected an index below the \d+ planned jobs, found 999/,
      );
      expect(r1.reports).toEqual([]);

      const taken = forged(2, (f) =>
        editManifest(f, (m) => {
          const jobs = m.jobs as { index: number }[];
          jobs[1]!.index = jobs[0]!.index;
        }),
      );
      const r2 = await mergeIn(blob(1), taken, blob(3));
      expect(r2.code).toBe(2);
      expect(r2.stderr).toMatch(
        /axis-blob-2-of-3\.zip: axis-blob\.json: jobs\[1\]\.index: \d+ is the index of another job/,
      );
      expect(r2.reports).toEqual([]);
    },
    T,
  );

  it(
    'a blob whose entries escape the report, or that is not a blob at all',
    async () => {
      const evil = forged(1, (f) => {
        f['report/../../escaped.txt'] = Buffer.from('owned');
      });
      const r1 = await mergeIn(evil, blob(2), blob(3));
      expect(r1.code).toBe(2);
      expect(r1.stderr).toContain(
        'refused entry "report/../../escaped.txt": an empty, "." or ".." path segment',
      );
      expect(r1.reports).toEqual([]);

      const absolute = forged(1, (f) => {
        f['/tmp/escaped.txt'] = Buffer.from('owned');
      });
      const r2 = await mergeIn(absolute, blob(2), blob(3));
      expect(r2.code).toBe(2);
      expect(r2.stderr).toContain('an absolute path');

      const junkDir = tempDir('axis-junk-');
      writeFileSync(join(junkDir, 'axis-blob-1-of-3.zip'), 'not a zip at all');
      const r3 = await mergeIn(join(junkDir, 'axis-blob-1-of-3.zip'), blob(2), blob(3));
      expect(r3.code).toBe(2);
      expect(r3.stderr).toMatch(/axis-blob-1-of-3\.zip: (not a readable zip|not an AXIS blob)/);
      expect(r3.stderr).not.toContain('Internal error');

      const empty = tempDir('axis-empty-');
      mkdirSync(join(empty, 'sub'));
      const r4 = await mergeIn(empty);
      expect(r4.code).toBe(2);
      expect(r4.stderr).toContain('no axis-blob-*.zip file in');
    },
    T,
  );

  it('--shard is validated before anything runs', async () => {
    const dir = newProject();
    for (const bad of ['0/3', '4/3', '1.5/3', 'two']) {
      const r = await axis(['run', '--shard', bad], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--shard: expected <k>/<n>`);
    }
    const r = await axis(['run', '--shard-durations', 'x.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('use it with --shard k/n');
    expect(existsSync(join(dir, '.axis/reports'))).toBe(false);
  });
});
