/**
 * A run stopped by a run limit exits 1; every surface of the gate must say it failed, not `pass` beside
 * `Run incomplete`: the terminal, `--json`'s verdict, the GitHub job summary, the JUnit file.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject, writeJson } from './helpers.js';

let dir = '';

beforeAll(() => {
  buildDist();
  // The second job takes the run past 200 tokens: it stops, with the other pair cancelled.
  const settings = { runs: 3, concurrency: 1, limits: { run: { tokens: 200 } } };
  dir = simProject('axis-incomplete-gate-', settings, ['a', 'b']);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the gate of an incomplete run', () => {
  it('fails on every surface, naming why, while no cancelled pair is listed as failing', async () => {
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const r = await axis(['run', '--json', '--reporter', 'junit=junit.xml'], dir, {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('Run incomplete:');
    expect(r.stderr).not.toContain('Gate: pass');
    expect(r.stderr).toContain(
      'Gate: fail (the run is incomplete: Overall token limit reached (200 tokens))',
    );
    const doc = JSON.parse(r.stdout);
    expect(doc.incomplete).toBe(true);
    expect(doc.verdict.pass).toBe(false);
    expect(doc.verdict.incomplete).toBe('Overall token limit reached (200 tokens)');
    expect(doc.verdict.pairs.filter((p: { failures: unknown[] }) => p.failures.length > 0)).toEqual([]);
    expect(readFileSync(summary, 'utf8')).toContain('gate **fail**');
    // A JUnit viewer must not show the run green: the cancelled pairs are skipped, the run itself fails.
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/<testsuites name="AXIS" tests="3" failures="1" errors="0"/);
    expect(xml).toMatch(/ skipped="1"/);
    expect(xml).toMatch(
      /<testcase classname="AXIS" name="run complete" time="0\.000">\s*<failure type="incomplete" message="The run is incomplete: Overall token limit reached \(200 tokens\)">/,
    );
  }, 60_000);

  it('with --compare-baseline blames no cancelled pair either: JUnit skips it, the gate does not list it', async () => {
    const base = simProject('axis-incomplete-base-', { runs: 3, concurrency: 1 }, ['a', 'b']);
    try {
      expect((await axis(['run'], base)).code).toBe(0);
      expect((await axis(['baseline', 'set'], base)).code).toBe(0);
      const baseline = readFileSync(join(base, '.axis/baselines/main.json'), 'utf8');
      writeJson(dir, '.axis/baselines/main.json', JSON.parse(baseline));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
    const junit = join(dir, 'junit.xml');
    const r = await axis(['run', '--json', '--compare-baseline', '--reporter', `junit=${junit}`], dir);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout);
    const cancelled = doc.results.filter((e: { status: string }) => e.status === 'cancelled');
    expect(cancelled.length).toBeGreaterThan(0);
    expect(doc.verdict.incomplete).toBe('Overall token limit reached (200 tokens)');
    // Only the pairs that ran may be blamed (a here: its run the limit stopped counts against it).
    const blamed = doc.verdict.pairs.filter((p: { failures: unknown[] }) => p.failures.length > 0);
    expect(blamed.map((p: { scenarioKey: string }) => p.scenarioKey)).toEqual(['a']);
    expect(r.stderr).toContain('✗ the run is incomplete');
    expect(r.stderr).not.toMatch(/✗ b · toy/);
    const xml = readFileSync(junit, 'utf8');
    const caseB = xml.slice(xml.indexOf('<testcase classname="b"'));
    expect(caseB.slice(0, caseB.indexOf('</testcase>'))).not.toContain('<failure');
    expect(caseB).toContain('<skipped message="Cancelled: ');
  }, 120_000);
});
