import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { sampleManifest } from '../../unit/reporters/fixtures.js';
import { axis, buildDist } from '../run/helpers.js';
import { simProject } from '../compare/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

function project(): string {
  const dir = makeProject({ 'axis.config.json': { scenarios: './scenarios', agents: [{ agent: 'codex' }] } });
  for (const [id, avg] of [
    ['2026-11-30-090000', 64],
    ['2026-12-01-101500', 82],
  ] as const) {
    const m = { ...sampleManifest(), reportId: id };
    m.summary = { ...m.summary, averageAxisScore: avg };
    mkdirSync(join(dir, '.axis/reports', id), { recursive: true });
    writeFileSync(join(dir, '.axis/reports', id, 'report.json'), JSON.stringify(m));
  }
  return dir;
}

describe('axis badge and axis history (CLI)', () => {
  it('badge: latest by default, --from a named report, -o a file', async () => {
    const dir = project();
    const latest = await axis(['badge'], dir);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // One of the report's two pairs failed (no run completed): the badge says so, in red.
    expect(latest.stdout).toContain('aria-label="AXIS: 82/100 · 1 failed"');
    expect(latest.stdout).toContain('fill="#e05d44"');
    const old = await axis(['badge', '--from', '2026-11-30-090000', '-o', 'badge.svg'], dir);
    expect(old.code, old.stderr).toBe(0);
    expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('AXIS: 64/100 · 1 failed');
    const missing = await axis(['badge', '--from', 'nope'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Report "nope" not found');
  });

  it('badge: a --label with control characters is refused (exit 2): an SVG cannot hold them', async () => {
    const dir = project();
    const r = await axis(['badge', '--label', 'A\u0001B\u001b[31m', '-o', 'badge.svg'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--label: expected text without control characters');
    expect(r.stdout).toBe('');
    // Tab stays fine: XML holds it, as the label it is.
    const tab = await axis(['badge', '--label', 'A\tB & <C>'], dir);
    expect(tab.code, tab.stderr).toBe(0);
    expect(tab.stdout).toContain('<title>A\tB &amp; &lt;C&gt;: 82/100 · 1 failed</title>');
  });

  it('badge: an incomplete report (Ctrl-C, a token limit) says so, in red: its pairs that ran would flatter', async () => {
    const dir = makeProject({
      'axis.config.json': { scenarios: './scenarios', agents: [{ agent: 'codex' }] },
    });
    const m = { ...sampleManifest(), reportId: '2026-12-02-101500', incomplete: true as const };
    m.results = m.results.filter((r) => r.status === 'completed');
    m.summary = { ...m.summary, averageAxisScore: 95, failed: 0 };
    mkdirSync(join(dir, '.axis/reports', m.reportId), { recursive: true });
    writeFileSync(join(dir, '.axis/reports', m.reportId, 'report.json'), JSON.stringify(m));
    const r = await axis(['badge'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('aria-label="AXIS: 95/100 · incomplete"');
    expect(r.stdout).toContain('fill="#e05d44"');
  });

  it("badge --from a shard's own report says which shard, in red: its part of the runs would pass for the run", async () => {
    const dir = makeProject({
      'axis.config.json': { scenarios: './scenarios', agents: [{ agent: 'codex' }] },
    });
    const m = { ...sampleManifest(), reportId: '2026-12-02-101500', shard: { index: 1, total: 4 } };
    m.results = m.results.filter((r) => r.status === 'completed');
    m.summary = { ...m.summary, averageAxisScore: 95, failed: 0 };
    mkdirSync(join(dir, '.axis/reports', m.reportId), { recursive: true });
    writeFileSync(join(dir, '.axis/reports', m.reportId, 'report.json'), JSON.stringify(m));
    const r = await axis(['badge', '--from', m.reportId], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('aria-label="AXIS: 95/100 · shard 1/4"');
    expect(r.stdout).toContain('fill="#e05d44"');
  });

  it('badge: a run whose gate failed on a threshold (no pair failed) is red and says so, not green', async () => {
    const dir = simProject('axis-badge-gate-', { thresholds: { axis_score: 99 } }, ['a']);
    try {
      const run = await axis(['run', '--json'], dir);
      expect(run.code, run.stderr).toBe(1);
      const badge = await axis(['badge'], dir);
      expect(badge.code, badge.stderr).toBe(0);
      expect(badge.stdout).toMatch(/aria-label="AXIS: \d+\/100 · gate fail"/);
      expect(badge.stdout).toContain('fill="#e05d44"');
      // The same report, as AXIS wrote it before it stored the verdict: the gate is unknown, not passed.
      const { reportDir } = JSON.parse(run.stdout) as { reportDir: string };
      const file = join(dir, reportDir, 'report.json');
      const { verdict: _v, ...old } = JSON.parse(readFileSync(file, 'utf8')) as { verdict?: unknown };
      writeFileSync(file, JSON.stringify(old));
      const unknown = await axis(['badge'], dir);
      expect(unknown.stdout).toMatch(/aria-label="AXIS: \d+\/100 · gate unknown"/);
      expect(unknown.stdout).toContain('fill="#9f9f9f"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('history: a table with the trend, per agent for one scenario, and --json', async () => {
    const dir = project();
    const r = await axis(['history'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('AXIS Result over 2 reports');
    expect(r.stdout).toMatch(/2026-11-30-090000 +64 +2 +1/);
    expect(r.stdout).toContain('(+18 since 2026-11-30-090000)');
    const one = await axis(['history', 'hello', '--json'], dir);
    const doc = JSON.parse(one.stdout) as {
      scenarioKey: string;
      points: { agents: Record<string, unknown> }[];
    };
    expect(doc.scenarioKey).toBe('hello');
    expect(doc.points).toHaveLength(2);
    expect(doc.points[0]!.agents).toEqual({ codex: null });
  });

  it('history -n takes a whole number as axis reports -n does: 1e1, 0x10, 2.0 are refused (exit 2)', async () => {
    const dir = project();
    for (const n of ['1e1', '0x10', '2.0', ' ']) {
      const r = await axis(['history', '-n', n], dir);
      expect(r.code, n).toBe(2);
      expect(r.stderr).toContain('-n/--limit: expected a whole number of reports ≥ 1');
    }
    expect((await axis(['history', '-n', '1'], dir)).stdout).toContain('AXIS Result over 1 report\n');
  });

  it("history -n counts the reports it shows: shards' own reports (left out) do not use up the limit", async () => {
    const dir = project();
    // A sharded run on this machine: its four shards' reports sort after the two reports.
    for (let k = 1; k <= 4; k++) {
      const m = { ...sampleManifest(), reportId: `2026-12-02-10000${k}`, shard: { index: k, total: 4 } };
      mkdirSync(join(dir, '.axis/reports', m.reportId), { recursive: true });
      writeFileSync(join(dir, '.axis/reports', m.reportId, 'report.json'), JSON.stringify(m));
    }
    const r = await axis(['history', '-n', '2', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as { points: { reportId: string }[] }).points.map((p) => p.reportId);
    expect(ids).toEqual(['2026-11-30-090000', '2026-12-01-101500']);
    // Nothing older is left out: the shards' reports are no reports of their own to show.
    expect(JSON.parse(r.stdout)).toMatchObject({ olderNotShown: 0 });
    const one = await axis(['history', '-n', '1'], dir);
    expect(one.stdout).toContain('\n1 older report is not shown (axis history -n 2 shows every one).\n');
    expect((await axis(['history', '-n', '2'], dir)).stdout).not.toContain('older report');
  });
});
