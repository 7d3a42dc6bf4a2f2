/** The trend chart's data (history.ts buildTrend), its reader (history-read.ts) and its geometry. */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildHistory, buildTrend, pairResult, type HistoryManifest } from '../../../src/report/history.js';
import { readStoredHistory, writeTrendCache, writtenCacheEntry } from '../../../src/report/history-read.js';
import {
  reportLabel,
  trendLabelIndices,
  trendSegments,
  TREND_HEIGHT,
} from '../../../src/report/html/client/trend.js';
import { fixture } from '../report-html/fixture.js';
import { EARLIER, UNREADABLE, UNRELATED, writeTrendStore } from '../report-html/trend-store.js';

const root = mkdtempSync(join(tmpdir(), 'axis-trend-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const report = (
  id: string,
  average: number | null,
  pairs: Record<string, number | null>,
): HistoryManifest => ({
  reportId: id,
  summary: { averageAxisScore: average },
  results: Object.entries(pairs).map(([k, v]) => {
    const [scenarioKey, agentName] = k.split('|') as [string, string];
    return {
      scenarioKey,
      agentName,
      status: 'completed',
      score: v === null ? null : { status: 'scored', axisScore: v },
    };
  }),
});

describe('buildTrend', () => {
  const pairs = [
    { scenarioKey: 'a', agentName: 'x' },
    { scenarioKey: 'b', agentName: 'x' },
  ];

  it('holds each report average (as axis history) and each pair per report, this report last', () => {
    const ms = [
      report('2026-01-02-000000', 70, { 'a|x': 60, 'b|x': 80 }),
      report('2026-01-01-000000', 50, { 'a|x': 50 }),
      report('2026-01-03-000000', 10, { 'c|x': 10 }), // shares no pair: left out
      report('2026-01-04-000000', 90, { 'a|x': 88, 'b|x': 92 }),
    ];
    const t = buildTrend(ms, pairs);
    expect(t.reports.map((r) => r.reportId)).toEqual([
      '2026-01-01-000000',
      '2026-01-02-000000',
      '2026-01-04-000000',
    ]);
    const history = buildHistory(ms).points.filter((p) => p.reportId !== '2026-01-03-000000');
    expect(t.average).toEqual(history.map((p) => p.axisScore));
    expect(t.pairs.map((p) => p.values)).toEqual([
      [50, 60, 88],
      [null, 80, 92],
    ]);
    expect(t.olderNotShown).toBe(0);
  });

  it('draws at most `limit` reports and counts the older ones', () => {
    const ms = Array.from({ length: 7 }, (_, i) => report(`2026-01-0${i + 1}-000000`, i * 10, { 'a|x': i }));
    const t = buildTrend(ms, pairs.slice(0, 1), 3, 4);
    expect(t.reports.map((r) => r.reportId)).toEqual([
      '2026-01-05-000000',
      '2026-01-06-000000',
      '2026-01-07-000000',
    ]);
    expect(t.olderNotShown).toBe(8);
    expect(t.limit).toBe(3);
  });

  it('a failed score is 0 in the trend, an unscored pair is a gap', () => {
    expect(pairResult({ scenarioKey: 'a', agentName: 'x', score: { status: 'failed' } })).toBe(0);
    expect(pairResult({ scenarioKey: 'a', agentName: 'x', score: { status: 'unscored' } })).toBeNull();
    expect(pairResult({ scenarioKey: 'a', agentName: 'x' })).toBeNull();
  });
});

describe('readStoredHistory', () => {
  const { manifest } = fixture();
  writeTrendStore(root, manifest);

  it('reads the newest reports oldest first, skipping unreadable ones', async () => {
    const all = await readStoredHistory(root, { limit: 20 });
    const ids = all.manifests.map((m) => m.reportId);
    expect(ids).not.toContain(UNREADABLE);
    expect(ids).toEqual(
      [...EARLIER.slice(0, 4).map((e) => e.id), UNRELATED, EARLIER[4]!.id, manifest.reportId].sort(),
    );
    const capped = await readStoredHistory(root, { limit: 2 });
    expect(capped.manifests.map((m) => m.reportId)).toEqual([UNRELATED, manifest.reportId]);
    expect(capped.olderNotShown).toBe(6);
  });

  it("a folder holding only a failed run's junit.xml takes no place among the newest reports", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axis-trend-junit-'));
    try {
      writeTrendStore(dir, manifest);
      // Newer than every report, and older than the two drawn: neither is a report.
      for (const id of ['2026-06-11-100000', '2026-06-11-110000', '2026-05-01-000000', '2026-06-02-000000']) {
        mkdirSync(join(dir, id));
        writeFileSync(join(dir, id, 'junit.xml'), '<testsuites/>\n');
      }
      const capped = await readStoredHistory(dir, { limit: 2 });
      expect(capped.manifests.map((m) => m.reportId)).toEqual([UNRELATED, manifest.reportId]);
      // "N older reports are not shown" counts the reports `axis reports` lists, as without them.
      expect(capped.olderNotShown).toBe(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a shard's own report older than the drawn ones is not counted as a report not shown", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'axis-trend-shards-'));
    try {
      writeTrendStore(dir, manifest);
      // A sharded run on this machine, older than the two drawn: its merged report is the run.
      for (const [k, id] of ['2026-05-01-000001', '2026-05-01-000002'].entries()) {
        mkdirSync(join(dir, id));
        const shard = { index: k + 1, total: 2 };
        writeFileSync(join(dir, id, 'report.json'), JSON.stringify({ reportId: id, shard, results: [] }));
      }
      // A whole run with an agent named "shard" is still a report (it is parsed to tell).
      const named = '2026-05-01-000003';
      mkdirSync(join(dir, named));
      const row = { scenarioKey: 'x', agentName: 'shard', status: 'failed' };
      writeFileSync(join(dir, named, 'report.json'), JSON.stringify({ reportId: named, results: [row] }));
      // A report.json that is a broken link: listed by axis reports as unreadable, so counted.
      const broken = '2026-05-01-000004';
      mkdirSync(join(dir, broken));
      symlinkSync(join(dir, 'nowhere.json'), join(dir, broken, 'report.json'));
      const capped = await readStoredHistory(dir, { limit: 2 });
      expect(capped.manifests.map((m) => m.reportId)).toEqual([UNRELATED, manifest.reportId]);
      // As without them: a shard's report is never drawn, whatever the limit.
      expect(capped.olderNotShown).toBe(8);
      const all = await readStoredHistory(dir, { limit: 20 });
      expect(all.olderNotShown).toBe(0);
      expect(all.manifests).toHaveLength(8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends at a rebuilt report, and uses the manifest in memory for it', async () => {
    const upTo = await readStoredHistory(root, { limit: 20, upTo: EARLIER[1]!.id });
    expect(upTo.manifests.map((m) => m.reportId)).toEqual([EARLIER[0]!.id, EARLIER[1]!.id]);
    const current = { ...report('2026-06-04-000000', 42, {}), results: [] };
    const mem = await readStoredHistory(root, { limit: 20, current });
    expect(mem.manifests.at(-1)).toBe(current);
    expect(mem.manifests.map((m) => m.reportId)).toEqual([
      ...EARLIER.slice(0, 2).map((e) => e.id),
      current.reportId,
    ]);
  });
});

describe('trend geometry', () => {
  it('maps 0–100 to the plot height, higher is higher, and breaks at gaps', () => {
    const segs = trendSegments([0, 100, null, 50], 400);
    expect(segs.map((s) => s.map((p) => p.i))).toEqual([[0, 1], [3]]);
    const [low, high] = segs[0]!;
    expect(low!.y).toBeGreaterThan(high!.y);
    expect(low!.y).toBeLessThan(TREND_HEIGHT);
    expect(segs[1]![0]!.x).toBeGreaterThan(high!.x);
    // Out-of-range values are clamped to the plot.
    expect(trendSegments([150], 400)[0]![0]!.y).toBe(trendSegments([100], 400)[0]![0]!.y);
  });

  it('labels the first and last report always and as many between as fit', () => {
    expect(trendLabelIndices(1, 700)).toEqual([0]);
    expect(trendLabelIndices(5, 700)).toEqual([0, 1, 2, 3, 4]);
    const many = trendLabelIndices(20, 400);
    expect(many[0]).toBe(0);
    expect(many.at(-1)).toBe(19);
    expect(many.length).toBeLessThanOrEqual(Math.floor((400 - 54) / 92));
    expect(reportLabel('2026-06-12-205816')).toBe('06-12 20:58');
    expect(reportLabel('2026-06-12-205816-2')).toBe('06-12 20:58');
  });
});

/** Runs `fn` with a fresh project dir and its reports dir, removed afterwards. */
async function inProject(prefix: string, fn: (project: string, reports: string) => Promise<void>) {
  const project = mkdtempSync(join(tmpdir(), prefix));
  try {
    await fn(project, join(project, '.axis', 'reports'));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

describe('the trend cache', () => {
  it('keeps what the history read of each report, and reads report.json again when it changes', () =>
    inProject('axis-trend-cache-', async (project, dir) => {
      const { manifest } = fixture();
      writeTrendStore(dir, manifest);
      const first = await readStoredHistory(dir, { limit: 20 });
      expect(first.cacheMisses.map((m) => m.id)).toContain(EARLIER[0]!.id);
      await writeTrendCache(dir, first.cacheMisses);
      expect(readdirSync(join(project, '.axis', 'cache', 'trend')).length).toBe(first.cacheMisses.length);
      // Nothing but reports in the reports folder.
      expect(readdirSync(dir).every((n) => /^\d{4}-/.test(n))).toBe(true);
      const second = await readStoredHistory(dir, { limit: 20 });
      expect(second.cacheMisses).toEqual([]);
      expect(buildHistory(second.manifests)).toEqual(buildHistory(first.manifests));
      // A rewritten report.json (axis score) is read again, not taken from the cache.
      const file = join(dir, EARLIER[0]!.id, 'report.json');
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { summary: { averageAxisScore: number } };
      doc.summary.averageAxisScore = 9; // a different size as well as a new mtime
      writeFileSync(file, JSON.stringify(doc));
      const third = await readStoredHistory(dir, { limit: 20 });
      expect(third.cacheMisses.map((m) => m.id)).toEqual([EARLIER[0]!.id]);
      expect(buildHistory(third.manifests).points[0]!.axisScore).toBe(9);
    }));

  it('reports older than the chart are read once, then counted from their entries', () =>
    inProject('axis-trend-older-', async (project, dir) => {
      const { manifest } = fixture();
      writeTrendStore(dir, manifest);
      // Two shard reports among the older ones, and one whose report.json is a link to a whole run.
      for (const [k, id] of ['2026-05-01-000001', '2026-05-01-000002'].entries()) {
        mkdirSync(join(dir, id));
        const shard = { index: k + 1, total: 2 };
        writeFileSync(join(dir, id, 'report.json'), JSON.stringify({ reportId: id, shard, results: [] }));
      }
      // A file named like a report, not a folder: no report (and no error).
      writeFileSync(join(dir, '2026-04-01-000000'), 'not a folder');
      const linked = '2026-05-01-000003';
      mkdirSync(join(dir, linked));
      symlinkSync(join(dir, EARLIER[0]!.id, 'report.json'), join(dir, linked, 'report.json'));
      const first = await readStoredHistory(dir, { limit: 2 });
      // Every readable older report became an entry (the unreadable one cannot).
      const older = [...EARLIER.map((e) => e.id), '2026-05-01-000001', '2026-05-01-000002', linked];
      const missed = first.cacheMisses.map((m) => m.id);
      expect(missed).toEqual(expect.arrayContaining(older));
      expect(missed).not.toContain(UNREADABLE);
      expect(first.olderNotShown).toBe(7);
      await writeTrendCache(dir, first.cacheMisses);
      const second = await readStoredHistory(dir, { limit: 2 });
      expect(second.cacheMisses).toEqual([]);
      expect(second.olderNotShown).toBe(7);
      // An entry is trusted only while its stamp matches: a shard report rewritten as a whole run counts.
      const rewritten = join(dir, '2026-05-01-000001', 'report.json');
      writeFileSync(rewritten, JSON.stringify({ reportId: '2026-05-01-000001', results: [], x: 1 }));
      const third = await readStoredHistory(dir, { limit: 2 });
      expect(third.cacheMisses.map((m) => m.id)).toEqual(['2026-05-01-000001']);
      expect(third.olderNotShown).toBe(8);
      expect(readdirSync(join(project, '.axis', 'cache', 'trend'))).toHaveLength(first.cacheMisses.length);
    }));

  it('drops the entries of reports deleted from the folder, and nothing else', () =>
    inProject('axis-trend-prune-', async (project, dir) => {
      const { manifest } = fixture();
      writeTrendStore(dir, manifest);
      const cache = join(project, '.axis', 'cache', 'trend');
      const first = await readStoredHistory(dir, { limit: 20 });
      await writeTrendCache(dir, first.cacheMisses, first.ids);
      const cached = readdirSync(cache).sort();
      expect(cached).toContain(`${EARLIER[0]!.id}.json`);
      // Deleted by hand; beside the entries, a file that is no entry and a write in progress.
      rmSync(join(dir, EARLIER[0]!.id), { recursive: true });
      writeFileSync(join(cache, 'notes.txt'), 'mine');
      writeFileSync(join(cache, `${EARLIER[1]!.id}.json.tmp-1-abc`), '{');
      // A report made after the listing below (another run): its entry stays.
      const later = '2026-07-01-090000';
      const second = await readStoredHistory(dir, { limit: 20 });
      expect(second.ids).not.toContain(EARLIER[0]!.id);
      mkdirSync(join(dir, later));
      writeFileSync(join(cache, `${later}.json`), '{}');
      await writeTrendCache(dir, second.cacheMisses, second.ids);
      expect(readdirSync(cache).sort()).toEqual(
        [
          ...cached.filter((n) => n !== `${EARLIER[0]!.id}.json`),
          `${later}.json`,
          'notes.txt',
          `${EARLIER[1]!.id}.json.tmp-1-abc`,
        ].sort(),
      );
      // Without the listing, nothing is removed.
      rmSync(join(dir, later), { recursive: true });
      await writeTrendCache(dir, []);
      expect(readdirSync(cache)).toContain(`${later}.json`);
    }));

  it('keeps the report just written from the manifest in memory, as reading its report.json would', () =>
    inProject('axis-trend-own-', async (_project, dir) => {
      const { manifest } = fixture();
      writeTrendStore(dir, manifest);
      const id = '2026-06-12-205816';
      const file = join(dir, id, 'report.json');
      writeFileSync(file, `${JSON.stringify({ ...manifest, reportId: id }, null, 2)}\n`);
      const own = await writtenCacheEntry(join(dir, id), manifest as HistoryManifest);
      expect(own?.id).toBe(id);
      const fromFile = await readStoredHistory(dir, { limit: 20 });
      expect(fromFile.cacheMisses.map((m) => m.id)).toContain(id);
      const fileEntry = fromFile.cacheMisses.find((m) => m.id === id)!;
      expect(own).toEqual(fileEntry);
      await writeTrendCache(dir, [own!]);
      const fromCache = await readStoredHistory(dir, { limit: 20 });
      expect(fromCache.cacheMisses.map((m) => m.id)).not.toContain(id);
      expect(buildHistory(fromCache.manifests)).toEqual(buildHistory(fromFile.manifests));
      // report.json rewritten after the entry was made: read again.
      writeFileSync(
        file,
        `${JSON.stringify({ ...manifest, reportId: id, summary: { averageAxisScore: 3 } })}\n`,
      );
      const rewritten = await readStoredHistory(dir, { limit: 20 });
      expect(rewritten.cacheMisses.map((m) => m.id)).toContain(id);
      expect(await writtenCacheEntry(join(dir, 'missing'), manifest as HistoryManifest)).toBeNull();
    }));
});
