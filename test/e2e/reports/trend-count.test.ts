/**
 * The count under report.html's trend ("N older reports are not shown") is of reports a larger limit
 * would draw, with the real `axis reports <id> --html`: a sharded run's own shard reports (never drawn,
 * its merged report is the run) are not among them, as `axis history` leaves them out too.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeReportData } from '../../../src/report/html/render.js';
import { axis, buildDist } from '../run/helpers.js';
import { simProject } from '../compare/helpers.js';

let dir = '';
beforeAll(buildDist);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("shards' own reports older than the chart are not counted among the reports it leaves out", async () => {
  dir = simProject('axis-trend-count-', {}, ['a']);
  const run = await axis(['run', '--json'], dir);
  expect(run.code, run.stderr).toBe(0);
  const { reportDir } = JSON.parse(run.stdout) as { reportDir: string };
  const made = JSON.parse(readFileSync(join(dir, reportDir, 'report.json'), 'utf8')) as object;
  rmSync(join(dir, reportDir), { recursive: true });
  // The report a run wrote, stored again under other ids, some as a sharded run's shard reports.
  const put = (id: string, extra: object = {}) => {
    mkdirSync(join(dir, '.axis/reports', id), { recursive: true });
    const m = { ...made, reportId: id, ...extra };
    writeFileSync(join(dir, '.axis/reports', id, 'report.json'), JSON.stringify(m));
  };
  // Three older whole runs and a sharded one's two shard reports, then the 20 the chart draws.
  for (const id of ['2026-10-01-000000', '2026-10-02-000000', '2026-10-03-000000']) put(id);
  put('2026-10-04-000001', { shard: { index: 1, total: 2 } });
  put('2026-10-04-000002', { shard: { index: 2, total: 2 } });
  const newer = Array.from({ length: 20 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}-000000`);
  for (const id of newer) put(id);
  const latest = newer.at(-1)!;

  const r = await axis(['reports', latest, '--html'], dir, { CI: '1' });
  expect(r.code, r.stderr).toBe(0);
  const page = readFileSync(join(dir, '.axis/reports', latest, 'report.html'), 'utf8');
  const payload = /<script id="axis-report-data"[^>]*>([^<]*)<\/script>/.exec(page)![1]!.trim();
  const { trend } = decodeReportData(payload) as { trend?: { olderNotShown: number; reports: unknown[] } };
  expect(trend!.reports).toHaveLength(20);
  expect(trend!.olderNotShown).toBe(3);
  // axis history with room for every report shows the 23 whole runs and no shard's part of one.
  const all = await axis(['history', '-n', '100', '--json'], dir);
  expect((JSON.parse(all.stdout) as { points: unknown[] }).points).toHaveLength(23);
  // What axis history parsed is kept for the next read, as report.html's writers keep it.
  const cache = join(dir, '.axis/cache/trend');
  rmSync(cache, { recursive: true });
  const again = await axis(['history', '-n', '5', '--json'], dir);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toBe('');
  expect(readdirSync(cache)).toHaveLength(25);
  const cached = await axis(['history', '-n', '5', '--json'], dir);
  expect(cached.stdout).toBe(again.stdout);
  expect((JSON.parse(cached.stdout) as { olderNotShown: number }).olderNotShown).toBe(18);
});
