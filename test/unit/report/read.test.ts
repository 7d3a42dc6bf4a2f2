import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findProjectDir,
  listReports,
  readReport,
  readScenario,
  resolveReport,
  summarizeReport,
} from '../../../src/report/read.js';
import { AxisError } from '../../../src/util/errors.js';
import { mixedPairs, removeProjects, scoredRun, tempProject, writeReport } from './fixture.js';

afterAll(removeProjects);

const at = (h: number) => new Date(Date.UTC(2026, 2, 1, h, 0, 0));

async function rejection(p: Promise<unknown>): Promise<AxisError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AxisError);
  return err as AxisError;
}

describe('findProjectDir', () => {
  it('walks up from the cwd to the directory holding .axis/ or a config, without reading the config', () => {
    const project = tempProject();
    mkdirSync(join(project, '.axis/reports'), { recursive: true });
    mkdirSync(join(project, 'scenarios/cms'), { recursive: true });
    expect(findProjectDir(join(project, 'scenarios/cms'))).toBe(project);

    const fresh = tempProject();
    writeFileSync(join(fresh, 'axis.config.json'), '{ this is not json');
    mkdirSync(join(fresh, 'sub'));
    expect(findProjectDir(join(fresh, 'sub'))).toBe(fresh);
  });

  it('-c: the directory of the file (never loaded) or the directory itself; a missing path exits 2', () => {
    const project = tempProject();
    writeFileSync(join(project, 'axis.config.ts'), 'throw new Error("broken")');
    expect(findProjectDir('/', join(project, 'axis.config.ts'))).toBe(project);
    expect(findProjectDir(project, '.')).toBe(project);
    try {
      findProjectDir(project, 'nope/axis.config.json');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AxisError);
      expect((err as AxisError).exitCode).toBe(2);
      expect((err as AxisError).message).toContain('Config file not found: nope/axis.config.json');
    }
  });
});

describe('listing', () => {
  it('lists newest first, caps at the limit and counts the rest; reads only the listed manifests', async () => {
    const project = tempProject();
    for (const h of [1, 2, 3]) await writeReport(project, at(h), mixedPairs());
    // An older, corrupt report beyond the limit is never parsed.
    const old = join(project, '.axis/reports/2026-01-01-000000');
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, 'report.json'), '{ broken');

    const list = await listReports(project, 2);
    expect(list.total).toBe(4);
    expect(list.reports.map((r) => r.reportId)).toEqual(['2026-03-01-030000', '2026-03-01-020000']);
    expect(list.reports[0]).toMatchObject({
      pairs: 3,
      completed: 2,
      failed: 1,
      runs: 3,
      averageAxisScore: 72,
      scored: true,
      costUsd: 0.75,
      runsWithoutCost: 1,
      incomplete: false,
      path: '.axis/reports/2026-03-01-030000',
    });

    const all = await listReports(project, 10);
    expect(all.reports.at(-1)).toMatchObject({ reportId: '2026-01-01-000000', pairs: 0 });
    expect(all.reports.at(-1)!.error).toMatch(
      /^\.axis\/reports\/2026-01-01-000000\/report\.json: invalid JSON/,
    );
  });

  it('an unscored report has no average, an incomplete one says so, no cost is null', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(5), [{ key: 'a', agent: 'x' }], {
      incomplete: true,
      incompleteReason: 'Run cancelled by SIGINT',
    });
    expect(summarizeReport(m, 'p')).toMatchObject({
      averageAxisScore: null,
      scored: false,
      costUsd: null,
      runsWithoutCost: 1,
      incomplete: true,
      incompleteReason: 'Run cancelled by SIGINT',
    });
  });

  it('keeps each row it read, lists the same from the kept rows, and reads a rewritten report again', async () => {
    const project = tempProject();
    await writeReport(project, at(1), mixedPairs());
    await writeReport(project, at(2), [{ key: 'a', agent: 'x' }], {
      incomplete: true,
      incompleteReason: 'Run cancelled by SIGINT',
      name: 'nightly',
    });
    const broken = join(project, '.axis/reports/2026-01-01-000000');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'report.json'), '{ broken');
    const cache = join(project, '.axis/cache/list');

    const first = await listReports(project, 10);
    // The readable reports are kept; an unreadable one is read (and said) every time.
    expect(readdirSync(cache).sort()).toEqual(['2026-03-01-010000.json', '2026-03-01-020000.json']);
    const second = await listReports(project, 10);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));

    // A kept row is used, not report.json: a row changed by hand shows while the stamp matches…
    const file = join(cache, '2026-03-01-010000.json');
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { row: { pairs: number } };
    entry.row.pairs = 99;
    writeFileSync(file, JSON.stringify(entry));
    expect((await listReports(project, 10)).reports[1]!.pairs).toBe(99);
    // …and report.json rewritten (axis score) is read again.
    const json = join(project, '.axis/reports/2026-03-01-010000/report.json');
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { name?: string };
    writeFileSync(json, JSON.stringify({ ...doc, name: 'rescored' }, null, 2));
    const third = await listReports(project, 10);
    expect(third.reports[1]).toMatchObject({ name: 'rescored', pairs: 3 });
    expect((JSON.parse(readFileSync(file, 'utf8')) as { row: { pairs: number } }).row.pairs).toBe(3);
    // Another AXIS's row, or one of another report, is not used.
    const other = JSON.parse(readFileSync(file, 'utf8')) as { axis: string; row: { pairs: number } };
    writeFileSync(file, JSON.stringify({ ...other, axis: '0.0.0-other', row: { ...other.row, pairs: 7 } }));
    expect((await listReports(project, 10)).reports[1]!.pairs).toBe(3);

    // A deleted report's row goes; the project path in each row is the listing's, not the kept one's.
    rmSync(join(project, '.axis/reports/2026-03-01-020000'), { recursive: true });
    const after = await listReports(project, 10);
    expect(readdirSync(cache)).toEqual(['2026-03-01-010000.json']);
    expect(after.reports.map((r) => r.path)).toEqual([
      '.axis/reports/2026-03-01-010000',
      '.axis/reports/2026-01-01-000000',
    ]);
  });

  it('no .axis at all: an empty list', async () => {
    expect(await listReports(tempProject(), 10)).toEqual({ reports: [], total: 0 });
  });
});

describe('resolving and reading one report', () => {
  it('latest is the newest id; an unknown id names the latest ones (exit 1)', async () => {
    const project = tempProject();
    for (const h of [1, 2]) await writeReport(project, at(h), mixedPairs());
    expect(await resolveReport(project, 'latest')).toBe('2026-03-01-020000');
    expect(await resolveReport(project, '2026-03-01-010000')).toBe('2026-03-01-010000');
    const err = await rejection(resolveReport(project, '2025-12-31-235959'));
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(
      'Report "2025-12-31-235959" not found.\nLatest reports: 2026-03-01-020000, 2026-03-01-010000',
    );

    const empty = tempProject();
    expect((await rejection(resolveReport(empty, 'latest'))).message).toContain('No reports found');
    expect((await rejection(resolveReport(empty, 'x'))).message).toMatch(
      /^Report "x" not found\.\nNo reports in/,
    );
  });

  it('a report.json that is not a report is a clear error naming the file', async () => {
    const project = tempProject();
    const dir = join(project, '.axis/reports/2026-03-01-000000');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'report.json'), '{"results": [{"scenarioKey": 3}]}');
    const err = await rejection(readReport(project, '2026-03-01-000000'));
    expect(err.message).toBe(
      '.axis/reports/2026-03-01-000000/report.json: results[0]: expected an object with "scenarioKey" and "agentName" strings',
    );
  });
});

describe('readScenario', () => {
  it('returns every agent of the key with its runs, detail files and sparse index', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), mixedPairs());
    const pairs = await readScenario(project, m, 'cms/post');
    expect(pairs.map((p) => p.entry.agentName)).toEqual(['claude-code', 'codex|gpt-5']);
    const run = pairs[0]!.runs[0]!;
    expect(run.representative).toBe(true);
    expect(run.detail?.setupNotes).toBe('## Seeded\n- 3 posts');
    expect(run.sparseIndex?.[2]).toBe('#1    env         tool      Bash(command: ls) -> ok 12B 5ms');
    expect(run.paths).toEqual({
      detail: `.axis/reports/${m.reportId}/scenarios/cms/post/claude-code.json`,
      raw: `.axis/reports/${m.reportId}/scenarios/cms/post/claude-code.raw.ndjson`,
      sparseIndex: `.axis/reports/${m.reportId}/scenarios/cms/post/claude-code.sparse-index.txt`,
      artifactsDir: `.axis/reports/${m.reportId}/scenarios/cms/post/claude-code/artifacts`,
    });
  });

  it('-a: exact name, adapter name or glob; no match names the agents that ran it', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), mixedPairs());
    const names = async (a: string) =>
      (await readScenario(project, m, 'cms/post', a)).map((p) => p.entry.agentName);
    expect(await names('codex|gpt-5')).toEqual(['codex|gpt-5']);
    expect(await names('codex')).toEqual(['codex|gpt-5']);
    expect(await names('claude-*')).toEqual(['claude-code']);
    expect(await names('Claude-Code')).toEqual(['claude-code']);
    const err = await rejection(readScenario(project, m, 'cms/post', 'gemini'));
    expect(err.message).toBe(
      `Scenario "cms/post" (agent: gemini) not found in report "${m.reportId}".\nAgents that ran it: claude-code, codex|gpt-5`,
    );
    const missing = await rejection(readScenario(project, m, 'cms'));
    expect(missing.message).toBe(
      `Scenario "cms" not found in report "${m.reportId}".\nScenarios in this report: cms/post, hello`,
    );
  });

  it('a base key shows every variant; an exact variant key only that one', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), [
      { key: 'docs/search@v1', agent: 'a' },
      { key: 'docs/search@v2', agent: 'a' },
      { key: 'docs/search-more', agent: 'a' },
    ]);
    const keys = async (k: string) => (await readScenario(project, m, k)).map((p) => p.entry.scenarioKey);
    expect(await keys('docs/search')).toEqual(['docs/search@v1', 'docs/search@v2']);
    expect(await keys('docs/search@v2')).toEqual(['docs/search@v2']);
  });

  it('repeated runs: each run read, the representative marked; a missing detail file is reported, not fatal', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), [
      {
        key: 'k',
        agent: 'a',
        runs: [{ score: scoredRun(90) }, { score: scoredRun(70) }, { score: scoredRun(80) }],
      },
    ]);
    rmSync(join(project, '.axis/reports', m.reportId, 'scenarios/k/a.run-2.json'));
    const [pair] = await readScenario(project, m, 'k');
    expect(pair!.runs.map((r) => [r.summary.run, r.representative])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(pair!.runs[1]!.detail).toBeNull();
    expect(pair!.runs[1]!.detailError).toContain(
      `Cannot read .axis/reports/${m.reportId}/scenarios/k/a.run-2.json: ENOENT`,
    );
  });
});
