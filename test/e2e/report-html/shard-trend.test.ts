/**
 * A sharded run on one machine: `axis run --shard k/2` twice, then `axis reports merge`, after an
 * ordinary run (real `bin/axis.js`, the plan agent, the simulator as judge). Each shard's own report
 * holds part of the runs; the merged report is the run. Its report.html trend (in Chromium) and
 * `axis history` count the merged report once, never a shard's part as a report of its own; a shard's
 * report says what it is.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumPages } from './chromium.js';
import { axis, project, ROOT } from '../hostile/helpers.js';
import { goalGrade, PERFECT_AGENT_JUDGE } from '../../helpers/judge-tape.js';

const AGENT = join(ROOT, 'test/fixtures/command-agent/plan-agent.mjs');
const T = 180_000;
const KEYS = ['alpha', 'beta'];

const JUDGE_TAPE = {
  turns: [{ text: 'unused: the plan agent has no model' }],
  judge: [PERFECT_AGENT_JUDGE, goalGrade(9)],
};

function shardProject(): string {
  const dir = project({
    'scenarios/.keep': '',
    ...Object.fromEntries(KEYS.map((k) => [`tapes/${k}.json`, JUDGE_TAPE])),
  });
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
      settings: { concurrency: 1, simulate: true },
      judge: { provider: 'anthropic', max_retries: 0 },
    }),
  );
  for (const k of KEYS)
    writeFileSync(
      join(dir, `scenarios/${k}.json`),
      JSON.stringify({
        name: k,
        prompt: `Write out.txt PLAN:g9 KEY:${k} DIR:${dir}`,
        judge: [{ check: 'out.txt was written' }],
      }),
    );
  return dir;
}

async function ok(args: string[], dir: string): Promise<string> {
  const out = await axis(args, dir, { budgetMs: T });
  expect(out.code, `${args.join(' ')}\n${out.stdout}\n${out.stderr}`).toBe(0);
  return out.stdout;
}

describe('the trend of a merged sharded run', () => {
  const pages = chromiumPages();

  it(
    "has the merged report once and no shard's own report, in report.html and axis history",
    async () => {
      const dir = shardProject();
      await ok(['run'], dir);
      const reports = join(dir, '.axis/reports');
      const [first] = readdirSync(reports);
      for (const k of [1, 2]) await ok(['run', '--shard', `${k}/2`, '-o', join(dir, 'blobs')], dir);
      const shards = readdirSync(reports).filter((id) => id !== first);
      expect(shards).toHaveLength(2);
      const merged = /Report saved: \.axis\/reports\/(\S+)/.exec(
        await ok(['reports', 'merge', join(dir, 'blobs')], dir),
      )![1]!;

      // `latest` is the merged report, not the last shard's part of it (whose id sorts after the merge's).
      const latest = JSON.parse(await ok(['reports', 'latest', '--json'], dir)) as { reportId: string };
      expect(latest.reportId).toBe(merged);
      await ok(['baseline', 'set'], dir);

      const history = await ok(['history', '--json'], dir);
      const ids = (JSON.parse(history) as { points: { reportId: string }[] }).points.map((p) => p.reportId);
      expect(ids).toEqual([first, merged]);

      const page = await pages.open(
        pathToFileURL(join(reports, merged, 'report.html')).href,
        1360,
        'section.trend svg.trend-svg',
      );
      await expect(page.locator('section.trend .trend-note').innerText()).resolves.toContain(
        '2 stored reports with the scenarios of this one',
      );
      await page.locator('section.trend details.trend-values > summary').click();
      const rows = await page
        .locator('.trend-values-table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => (tr.children[0] as HTMLElement).innerText.trim()));
      expect(rows).toEqual([first, `${merged} (this report)`]);
    },
    T,
  );
});

describe("a shard's own report", () => {
  const pages = chromiumPages();

  it(
    'says it holds one shard of the run, in axis reports and in report.html',
    async () => {
      const dir = shardProject();
      await ok(['run', '--shard', '1/2', '-o', join(dir, 'blobs')], dir);
      const terminal = await ok(['reports', 'latest'], dir);
      expect(terminal).toMatch(/^Shard\s+1\/2: part of a sharded run/m);
      const [id] = readdirSync(join(dir, '.axis/reports'));
      const page = await pages.open(
        pathToFileURL(join(dir, '.axis/reports', id!, 'report.html')).href,
        1360,
        'table.results',
      );
      const header = await page.locator('header').innerText();
      expect(header).toContain('shard 1/2');
      expect(header).toContain('Shard 1/2: part of a sharded run');
    },
    T,
  );

  it(
    'is marked in the list of axis reports',
    async () => {
      const dir = shardProject();
      await ok(['run'], dir);
      await ok(['run', '--shard', '2/2', '-o', join(dir, 'blobs')], dir);
      const [whole, shard] = readdirSync(join(dir, '.axis/reports'));
      const list = await ok(['reports'], dir);
      expect(list).toMatch(new RegExp(`^${shard!}\\s.*\\sshard 2/2$`, 'm'));
      expect(list).toMatch(new RegExp(`^${whole!}\\s.*simulated$`, 'm'));
      const json = JSON.parse(await ok(['reports', '--json'], dir)) as { shard?: unknown }[];
      expect(json.map((r) => r.shard ?? null)).toEqual([{ index: 2, total: 2 }, null]);
    },
    T,
  );
});
