import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  annotations,
  createGithubReporter,
  escapeData,
  escapeProperty,
  stepSummary,
} from '../../../src/reporters/github.js';
import { runVerdict } from '../../../src/compare/verdict.js';
import { sampleManifest } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-gh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('github reporter', () => {
  it('escapes workflow-command data and properties', () => {
    expect(escapeData('50% done\nnext\r')).toBe('50%25 done%0Anext%0D');
    expect(escapeProperty('a: b, c')).toBe('a%3A b%2C c');
  });

  it('one ::error per failing pair, ::warning for unscored pairs, and a markdown table in the step summary', async () => {
    const m = sampleManifest();
    m.results[0]!.score = { ...m.results[0]!.score!, status: 'unscored', reason: 'no judge' } as never;
    const lines = annotations(m, runVerdict({ results: m.results }));
    expect(lines).toEqual([
      '::warning title=AXIS cms/<post>&"x" · claude-code::not scored: no judge\n',
      '::error title=AXIS hello · codex::No run completed: API rejected the key (401) after 10 retries%3A stopped after 3m of failing provider calls (settings.limits.api_failures)\n'.replace(
        '%3A',
        ':',
      ),
    ]);

    const summary = join(dir, 'summary.md');
    let stdout = '';
    const screen = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
      env: { GITHUB_STEP_SUMMARY: summary },
      cwd: dir,
    };
    const reporter = createGithubReporter(screen, { toStderr: false });
    const fresh = sampleManifest();
    await reporter.onEnd!(
      { manifest: fresh, reportDir: dir, reportRel: '.', configArg: '' },
      runVerdict({ results: fresh.results }),
    );
    expect(stdout).toContain(
      '::error title=AXIS hello · codex::No run completed: API rejected the key (401)',
    );
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('## AXIS report 2026-12-01-101500');
    expect(md).toContain('2 pairs: 1 completed, 1 failed · average AXIS Result **82** · gate **fail**');
    expect(md).toContain('| scenario | agent | status | AXIS | goal | env | service | agent |');
    expect(md).toContain('| cms/&lt;post&gt;&amp;"x" | claude-code | completed | 82 | 90 | 75 | – | 70 |');
    expect(md).toContain('| hello | codex | failed | – | – | – | – | – |');
    expect(md).toContain(
      '- `hello` · `codex`: No run completed: API rejected the key (401) after 10 retries',
    );
  });

  it("the step summary's gate says what it checked (minimums, baseline) as the Gate line does", () => {
    const m = sampleManifest();
    const verdict = { ...runVerdict({ results: m.results }), baseline: { name: 'nightly_*', tolerance: 1 } };
    expect(stepSummary(m, verdict)).toContain(
      '· gate **fail** · no thresholds · baseline nightly\\_\\* (tolerance floor 1)\n',
    );
    expect(stepSummary(m, runVerdict({ results: m.results }))).toContain(
      '· gate **fail** · no thresholds · no baseline (checked only that pairs completed)\n',
    );
    const held = runVerdict({
      results: m.results,
      thresholds: { settings: { axis_score: 70 }, source: 'ci/axis.config.json' },
    });
    expect(stepSummary(m, held)).toContain(
      '· gate **fail** · thresholds axis\\_score (ci/axis.config.json) · no baseline\n',
    );
    // A verdict stored before AXIS recorded its thresholds says so, as every view does.
    const { thresholds: _t, ...old } = verdict;
    expect(stepSummary(m, old)).toContain(
      '· gate **fail** · thresholds not recorded · baseline nightly\\_\\* (tolerance floor 1)\n',
    );
  });

  it("a failure line's names stay one line of code: a newline cannot end the code span (raw HTML after it)", () => {
    const m = sampleManifest();
    m.results[1]!.scenarioKey = 'h\n\n<img src=http://127.0.0.1/k.png>\u202e`';
    m.results[1]!.agentName = 'c\r\n<b>x</b>';
    const md = stepSummary(m, runVerdict({ results: m.results }));
    const line = md.split('\n').find((l) => l.startsWith('- `h'));
    expect(line).toBe(
      "- `h <img src=http://127.0.0.1/k.png>'` · `c <b>x</b>`: No run completed: API rejected the key (401) after 10 retries: stopped after 3m of failing provider calls (settings.limits.api\\_failures)",
    );
    expect(md).not.toMatch(/^<img|^<b>|\u202e/m);
  });

  it('step summary text cannot add links, images or emphasis (a reason can quote the agent)', () => {
    const m = sampleManifest();
    const hostile = '![t](http://127.0.0.1/p.png) [click](https://example.test) **loud** _x_ `y` # h ~z~';
    m.results[1]!.reason = hostile;
    m.results[1]!.runs[0]!.reason = hostile;
    const md = stepSummary(m, runVerdict({ results: m.results }));
    const line = md.split('\n').find((l) => l.startsWith('- `hello`'));
    expect(line).toBeDefined();
    expect(line).toContain(
      '!\\[t\\](http://127.0.0.1/p.png) \\[click\\](https://example.test) \\*\\*loud\\*\\* \\_x\\_ \\`y\\` # h \\~z\\~',
    );
  });
});
