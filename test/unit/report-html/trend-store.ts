/**
 * A reports folder for the trend chart: earlier report.json files holding some of the fixture's pairs,
 * one that is not JSON and one that shares no pair with the fixture (both left out of the chart).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestInput } from '../../../src/report/html/map.js';

/** Per earlier report: its average, and the AXIS Result of cms/create-post|claude-code and hello-world|codex. */
export const EARLIER: { id: string; average: number | null; post: number | null; hello: number | null }[] = [
  { id: '2026-06-01-090000', average: 61, post: 58, hello: 64 },
  { id: '2026-06-03-090000', average: 70, post: 66, hello: null },
  { id: '2026-06-05-090000', average: null, post: null, hello: null },
  { id: '2026-06-08-090000', average: 79, post: 74, hello: 85 },
  { id: '2026-06-10-090000', average: 84, post: 80, hello: 88 },
];
export const UNREADABLE = '2026-06-09-090000';
export const UNRELATED = '2026-06-11-090000';

const scored = (v: number | null) =>
  v === null ? { status: 'unscored' } : { status: 'scored', axisScore: v };

export function writeTrendStore(root: string, current: ManifestInput): string {
  const put = (id: string, text: string) => {
    mkdirSync(join(root, id), { recursive: true });
    writeFileSync(join(root, id, 'report.json'), text);
  };
  for (const e of EARLIER)
    put(
      e.id,
      JSON.stringify({
        reportId: e.id,
        timestamp: `${e.id.slice(0, 10)}T09:00:00.000Z`,
        summary: { averageAxisScore: e.average },
        results: [
          {
            scenarioKey: 'cms/create-post',
            agentName: 'claude-code',
            status: 'completed',
            score: scored(e.post),
          },
          { scenarioKey: 'hello-world', agentName: 'codex', status: 'completed', score: scored(e.hello) },
        ],
      }),
    );
  put(UNREADABLE, '{ not json');
  put(
    UNRELATED,
    JSON.stringify({
      reportId: UNRELATED,
      summary: { averageAxisScore: 12 },
      results: [{ scenarioKey: 'other', agentName: 'codex', status: 'completed', score: scored(12) }],
    }),
  );
  const dir = join(root, current.reportId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.json'), JSON.stringify(current));
  return dir;
}
