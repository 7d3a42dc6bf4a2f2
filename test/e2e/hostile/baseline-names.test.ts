/**
 * A committed `.axis/baselines/<name>.json` is text anyone with a pull request can change. A pair it holds
 * that the report lacks fails the gate under its own names, so those names reach every gate output: the
 * terminal, the annotations, the job summary and the JUnit file. None may carry an escape sequence, a
 * workflow command, raw HTML or a character XML cannot hold.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goalGrade, PERFECT_AGENT_JUDGE } from '../../helpers/judge-tape.js';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

const AGENT = join(ROOT, 'test/fixtures/command-agent/plan-agent.mjs');
const XSD = join(ROOT, 'test/fixtures/junit/junit-10.xsd');
const KEY = 'gone\u001b[2J\u202e\n::add-mask::s\n\n<img src=http://127.0.0.1/k.png>\u009b31m\u0000';
const AGENT_NAME = 'toy\u001b]0;T\u0007\r\n::stop-commands::z';
/** What a terminal or a log would obey rather than show. */
// eslint-disable-next-line no-control-regex
const UNSHOWN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('names of a baseline pair the report lacks', () => {
  it('are shown escaped in every gate output', async () => {
    const dir = makeProject({
      'scenarios/s.json': {
        name: 'S',
        prompt: 'Write out.txt PLAN:g9 KEY:s DIR:.',
        judge: [{ check: 'out.txt was written' }],
      },
      'tapes/s.json': { turns: [{ text: 'unused' }], judge: [PERFECT_AGENT_JUDGE, goalGrade(9)] },
      'axis.config.json': {
        scenarios: './scenarios',
        agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
        settings: { simulate: true, concurrency: 1 },
        judge: { provider: 'anthropic', max_retries: 0 },
      },
    });
    const first = await axis(['run'], dir);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
    const file = join(dir, '.axis/baselines/main.json');
    const baseline = JSON.parse(readFileSync(file, 'utf8')) as {
      results: Record<string, Record<string, unknown>>;
    };
    baseline.results[KEY] = { [AGENT_NAME]: baseline.results.s!.toy };
    writeFileSync(file, JSON.stringify(baseline));

    const summary = join(dir, 'summary.md');
    const r = await axis(['run', '--compare-baseline', '--reporter', 'list,github,junit=junit.xml'], dir, {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain('::error title=AXIS gone');
    expect(out).not.toMatch(UNSHOWN);
    // A workflow command starts a line: only AXIS's own annotations may.
    expect(out.split('\n').filter((l) => /^\s*::/.test(l) && !l.startsWith('::error title=AXIS '))).toEqual(
      [],
    );

    const md = readFileSync(summary, 'utf8');
    const line = md.split('\n').find((l) => l.startsWith('- `gone'));
    expect(line).toContain('In the baseline but missing from this report');
    expect(md).not.toMatch(UNSHOWN);
    expect(md).not.toMatch(/^\s*<img/m);

    execFileSync('xmllint', ['--noout', '--schema', XSD, join(dir, 'junit.xml')], { stdio: 'pipe' });
  }, 120_000);
});

describe("a baseline file's own times", () => {
  it('are shown on one line without control characters by axis baseline show and list', async () => {
    const at = '2026-01-01T00:00:00.000Z\u001b[2J\u202e\n::add-mask::q\n<img src=http://127.0.0.1/t.png>';
    const pair = {
      axisScore: 90,
      goalAchievement: 90,
      environment: 90,
      service: null,
      agent: 90,
      durationMs: 1000,
      tokens: 10,
      fromReportId: `2026-01-01-000000${at}`,
      timestamp: at,
    };
    const dir = makeProject({
      'axis.config.json': { agents: ['claude-code'] },
      '.axis/baselines/main.json': {
        version: 1,
        name: 'main',
        createdAt: at,
        updatedAt: at,
        results: { s: { toy: pair } },
      },
    });
    for (const args of [
      ['baseline', 'show'],
      ['baseline', 'list'],
    ]) {
      const r = await axis(args, dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('2026-01-01 00:00:00');
      expect(r.stdout + r.stderr).not.toMatch(UNSHOWN);
      expect((r.stdout + r.stderr).split('\n').filter((l) => /^\s*(::|<img)/.test(l))).toEqual([]);
    }
  }, 30_000);
});
