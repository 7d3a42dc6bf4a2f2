/**
 * A run that fails after its jobs ran (here `-o <dir>`, replaced by a file by afterAll, cannot take the
 * report) has a verdict in report.json that `axis reports` shows: the terminal shows the same Gate line,
 * and the CI gate block when it fails, above the failure itself; the exit code stays the failure's.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatVerdict, gateLines, type RunVerdict } from '../../../src/report/verdict.js';
import { simProject, writeJson } from '../compare/helpers.js';
import { axis, buildDist, type CliResult } from './helpers.js';

const dirs: string[] = [];

beforeAll(() => buildDist());
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A project whose afterAll puts a file where `-o out` made its directory; `min`: an axis_score floor. */
function project(min?: number): string {
  const dir = simProject('axis-late-failure-', {}, ['a']);
  dirs.push(dir);
  const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'));
  const afterAll = [{ action: 'run_script', command: 'rm -rf out && echo x > out' }];
  writeJson(dir, 'axis.config.json', { ...config, afterAll });
  if (min !== undefined) {
    const scenario = JSON.parse(readFileSync(join(dir, 'scenarios/a.json'), 'utf8'));
    writeJson(dir, 'scenarios/a.json', { ...scenario, thresholds: { axis_score: min } });
  }
  return dir;
}

const OUT_FAILED = /-o\/--output-dir: cannot write \S+\/axis-report-(\S+)\.json: /;

/** The run's id (from the failure) and the verdict its report.json holds. */
function verdictOf(dir: string, r: CliResult): { id: string; v: RunVerdict } {
  const id = OUT_FAILED.exec(r.stderr)?.[1];
  expect(id, r.stderr).toBeDefined();
  const report = JSON.parse(readFileSync(join(dir, '.axis/reports', id!, 'report.json'), 'utf8'));
  expect(report.verdict, 'report.json has no verdict').toBeDefined();
  return { id: id!, v: report.verdict as RunVerdict };
}

/** `axis reports <id>` shows the gate as `gate`. */
async function expectReportsShows(dir: string, id: string, gate: string): Promise<void> {
  const shown = await axis(['reports', id], dir);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toContain(`\n${gate}\n`);
}

describe('a run that fails after its jobs ran shows the gate it was judged with', () => {
  it('a passing gate: the Gate line axis reports shows, then the failure; exit 1', async () => {
    const dir = project();
    const r = await axis(['run', '-o', 'out'], dir);
    expect(r.code, r.stderr).toBe(1);
    const { id, v } = verdictOf(dir, r);
    expect(v.pass).toBe(true);
    const gate = gateLines(v).join('\n');
    expect(r.stdout).toContain(`\n${gate}\n`);
    expect(r.stdout).not.toContain('CI gate:');
    await expectReportsShows(dir, id, gate);
  }, 60_000);

  it('a failing gate: the Gate line and the CI gate block, as a finished run prints them', async () => {
    const dir = project(99);
    const r = await axis(['run', '-o', 'out'], dir);
    expect(r.code, r.stderr).toBe(1);
    const { id, v } = verdictOf(dir, r);
    expect(v.pass).toBe(false);
    const gate = gateLines(v).join('\n');
    expect(r.stdout).toContain(`\n${gate}\n\n${formatVerdict(v)}`);
    await expectReportsShows(dir, id, gate);
  }, 60_000);

  it('--json: stdout holds the error document; the gate goes to stderr, before the failure', async () => {
    const dir = project(99);
    const r = await axis(['run', '--json', '-o', 'out'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).error.message).toMatch(OUT_FAILED);
    const { v } = verdictOf(dir, r);
    const gate = gateLines(v).join('\n');
    const at = r.stderr.indexOf(`\n${gate}\n\n${formatVerdict(v)}`);
    expect(at, r.stderr).toBeGreaterThan(0);
    expect(at).toBeLessThan(r.stderr.search(OUT_FAILED));
  }, 60_000);
});
