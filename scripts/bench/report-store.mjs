// What a store of many reports costs each report.html: its trend reads the newest 20 stored reports and
// counts the older ones (`readStoredHistory`, src/report/history-read.ts), and `axis run` writes
// report.html every time, so a store that only grows (a CI cache of `.axis/`) must not slow every run
// down. A store of 500 reports with their trend cache entries, timed beside a floor measured in the same
// process: listing the folder and one lstat of each report.json, the least any count of them needs.
// Imports the built modules from dist/ (npm run bench builds first). Run alone:
// `node scripts/bench/report-store.mjs`.
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readStoredHistory, writeTrendCache } from '../../dist/report/history-read.js';
import { HISTORY_LIMIT } from '../../dist/report/history.js';
import { discard, median, tempDir } from './lib/measure.mjs';

export const name = 'report store: the trend read of a store of 500 reports (report.html, axis history)';

const REPORTS = 500;
const ROUNDS = 15;

/** `.axis/reports` of a project with REPORTS small reports, a few of them a sharded run's shard reports. */
function makeStore() {
  const project = tempDir('axis-bench-store-');
  const reports = join(project, '.axis', 'reports');
  for (let i = 0; i < REPORTS; i++) {
    const day = String(1 + Math.floor(i / 24)).padStart(2, '0');
    const id = `2026-01-${day}-${String(i % 24).padStart(2, '0')}0000`;
    mkdirSync(join(reports, id), { recursive: true });
    const manifest = {
      version: 5,
      reportId: id,
      timestamp: `2026-01-${day}T00:00:00.000Z`,
      summary: { averageAxisScore: 60 + (i % 30) },
      ...(i % 50 === 7 ? { shard: { index: 1, total: 2 } } : {}),
      results: ['cms/post', 'hello'].map((scenarioKey) => ({
        scenarioKey,
        agentName: 'claude-code',
        status: 'completed',
        score: { status: 'scored', axisScore: 60 + (i % 30) },
      })),
    };
    writeFileSync(join(reports, id, 'report.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return { project, reports };
}

const time = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

export default async function bench() {
  const { project, reports } = makeStore();
  try {
    // The first read parses every report.json and the writer keeps what it read, as a run's does.
    const firstMs = await time(async () => {
      const first = await readStoredHistory(reports, { limit: HISTORY_LIMIT });
      await writeTrendCache(reports, first.cacheMisses, first.ids);
    });
    let older = 0;
    const axis = [];
    const floor = [];
    for (let r = 0; r < ROUNDS; r++) {
      axis.push(
        await time(async () => {
          older = (await readStoredHistory(reports, { limit: HISTORY_LIMIT })).olderNotShown;
        }),
      );
      floor.push(
        await time(async () => {
          for (const id of readdirSync(reports)) lstatSync(join(reports, id, 'report.json'));
        }),
      );
    }
    const perReport = (ms) => `${((ms * 1000) / REPORTS).toFixed(1)} µs`;
    const a = median(axis);
    const f = median(floor);
    return [
      { label: 'stored reports / older than the chart (shards left out)', value: `${REPORTS} / ${older}` },
      { label: 'first read (every report.json parsed, entries kept)', value: `${firstMs.toFixed(0)} ms` },
      { label: `trend read with the entries (median of ${ROUNDS})`, value: `${a.toFixed(1)} ms` },
      { label: '  per stored report', value: perReport(a) },
      { label: 'floor: list the folder, lstat each report.json', value: `${f.toFixed(1)} ms` },
      { label: '  per stored report', value: perReport(f) },
      { label: 'trend read ÷ floor', value: `${(a / f).toFixed(2)}×` },
    ];
  } finally {
    discard(project);
  }
}
