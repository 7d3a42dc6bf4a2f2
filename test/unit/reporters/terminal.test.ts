import { describe, expect, it } from 'vitest';
import { colorEnabled, formatDuration, painter, summaryText } from '../../../src/reporters/format.js';
import { formatDuration as reportsDuration } from '../../../src/report/format.js';
import { fmtDuration as htmlDuration, fmtTokens as htmlTokens } from '../../../src/report/html/client/dom.js';
import { parseReporterSpecs } from '../../../src/reporters/index.js';
import { runVerdict } from '../../../src/compare/verdict.js';
import { liveFrame, LiveState } from '../../../src/reporters/live-view.js';
import type { JobResult } from '../../../src/report/job-result.js';
import { jobRef, runBegin, sampleManifest } from './fixtures.js';

const ref = (index: number, scenarioKey: string, run = 1, runs = 1) =>
  jobRef(index, scenarioKey, { run, runs });

describe('live view', () => {
  it('shows each running job with phase, elapsed, tokens that never go back, retries, [done/total] and an ETA', () => {
    const s = new LiveState();
    const jobs = [ref(0, 'cms/post', 1, 3), ref(1, 'cms/post', 2, 3), ref(2, 'cms/post', 3, 3)];
    s.begin(runBegin(jobs, 1));
    s.start(jobs[0]!, 0);
    s.start(jobs[1]!, 0);
    s.progress({ type: 'job_running', job: jobs[0]! });
    s.progress({
      type: 'job_tokens',
      job: jobs[0]!,
      usage: { input: 1200, output: 34, cacheReadInput: 0 },
      total: 1234,
    });
    // A reconciliation lower than what was shown does not make the counter go backwards.
    s.progress({
      type: 'job_tokens',
      job: jobs[0]!,
      usage: { input: 1000, output: 0, cacheReadInput: 0 },
      total: 1000,
    });
    s.progress({ type: 'job_setup', job: jobs[1]! });
    s.progress({ type: 'job_running', job: jobs[1]! });
    s.progress({
      type: 'job_retry',
      job: jobs[1]!,
      retry: {
        failures: 3,
        attempt: 3,
        httpStatus: 401,
        cause: 'API rejected the key (401) after 3 retries',
      },
    });
    const frame = liveFrame(s, 12_300, painter(false));
    expect(frame.split('\n')).toEqual([
      '  ◓ cms/post    claude-code #1/3  agent             12.3s    1,234 tokens',
      '  ◓ cms/post    claude-code #2/3  agent             12.3s                  ↻ API rejected the key (401) after 3 retries',
      '  [0/3] · 2 running · elapsed 12.3s · ETA –',
    ]);
    s.end({ index: 0, status: 'completed', durationMs: 10_000 } as JobResult);
    s.start(jobs[2]!, 12_300);
    s.progress({ type: 'job_judging', job: jobs[1]! });
    const next = liveFrame(s, 14_000, painter(false)).split('\n');
    expect(next[0]).toContain('#2/3  judging');
    expect(next[1]).toContain('#3/3  starting');
    // Job 3 started 1.7 s ago and needs the 10 s mean: 8.3 s; job 2 is past the mean.
    expect(next[2]).toBe('  [1/3] · 2 running · elapsed 14.0s · ETA 8.3s');
  });

  it('cuts every line to the terminal width, keeping the colours of what is left', () => {
    const s = new LiveState();
    const jobs = [ref(0, 'a-scenario-with-a-long-name'), ref(1, 'b')];
    s.begin(runBegin(jobs, 2));
    for (const j of jobs) s.start(j, 0);
    s.progress({
      type: 'job_retry',
      job: jobs[1]!,
      retry: { failures: 1, attempt: 1, cause: 'rate limited (429)' },
    });
    s.end({ index: 0, status: 'failed', durationMs: 1000 } as JobResult);
    s.start(jobs[0]!, 1000);
    const plainAt = (w: number) => liveFrame(s, 2000, painter(false), w).split('\n');
    expect(plainAt(40)).toEqual([
      '  ◐ a-scenario-with-a-long-name  claude…',
      '  ◐ b                            claude…',
      '  [1/2] · 2 running · 1 failed · elapse…',
    ]);
    // Wide enough for the retry mark and the failed count: both still painted red.
    const wide = liveFrame(s, 2000, painter(true), 140);
    expect(wide).toContain('\u001b[31m↻\u001b[39m rate limited (429)');
    expect(wide).toContain('\u001b[31m1 failed\u001b[39m');
    expect(liveFrame(s, 2000, painter(true), 40)).toContain('  \u001b[33m◐\u001b[39m b ');
    // Three rows of screen: no room for a job's row beside how many run, the progress line and the cursor.
    expect(liveFrame(s, 2000, painter(false), 40, 3).split('\n')).toEqual([
      '  … 2 more running',
      '  [1/2] · 2 running · 1 failed · elapse…',
    ]);
    expect(liveFrame(s, 2000, painter(false), 40, 4).split('\n')).toHaveLength(3);
  });

  it('counts a cancelled job as done, never as failed (the summary calls it cancelled)', () => {
    const s = new LiveState();
    const jobs = [ref(0, 'a'), ref(1, 'b'), ref(2, 'c')];
    s.begin(runBegin(jobs, 3, { concurrency: 3 }));
    for (const j of jobs) s.start(j, 0);
    s.end({ index: 0, status: 'failed', durationMs: 1000 } as JobResult);
    s.end({ index: 1, status: 'cancelled', durationMs: 1000 } as JobResult);
    const last = liveFrame(s, 2000, painter(false)).split('\n').at(-1);
    expect(last).toBe('  [2/3] · 1 running · 1 failed · elapsed 2.0s · ETA 0ms');
  });
});

describe('terminal text', () => {
  it('NO_COLOR turns colour off, FORCE_COLOR turns it on (even off a TTY, even over NO_COLOR)', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('a duration reads the same in the terminal, axis reports and report.html, rounded once: never 1m60s', () => {
    const cases: [number, string][] = [
      [999.6, '1.0s'],
      [59_960, '1m00s'],
      [119_600, '2m00s'],
      [3_599_600, '1h00m'],
      [4_500_000, '1h15m'],
    ];
    for (const [ms, text] of cases) {
      expect(formatDuration(ms), `${ms}`).toBe(text);
      expect(reportsDuration(ms), `${ms}`).toBe(text);
      expect(htmlDuration(ms), `${ms}`).toBe(text.replace(/(\d)([mh])(\d)/, '$1$2 $3'));
    }
  });

  it("report.html's short token counts are rounded once, to the unit shown: never 1000.0k", () => {
    const cases: [number, string][] = [
      [9_999, '9,999'],
      [55_766, '55.8k'],
      [999_949, '999.9k'],
      [999_950, '1.00M'],
      [1_234_567, '1.23M'],
    ];
    for (const [n, text] of cases) expect(htmlTokens(n), `${n}`).toBe(text);
  });

  it('the summary has a row per pair with the AXIS Result and four dimensions, and a cause per failure', () => {
    const m = sampleManifest();
    const text = summaryText(m, {
      reportRel: '.axis/reports/x',
      verdict: runVerdict({ results: m.results }),
    });
    expect(text.split('\n').slice(0, 12)).toEqual([
      '',
      '2 pairs: 1 completed, 1 failed · 9.0s · 2,400 tokens',
      '',
      '  scenario        agent        status     AXIS  goal  env  service  agent',
      '  cms/<post>&"x"  claude-code  completed    82    90   75        –     70',
      '  hello           codex        failed        –     –    –        –      –',
      '',
      // Folded at 80 columns, as a CI log gets it (ci-width.test.ts).
      '  ✗ hello · codex: No run completed: API rejected the key (401) after 10',
      '    retries: stopped after 3m of failing provider calls',
      '    (settings.limits.api_failures)',
      // Nothing but completion was checked, and the line says so.
      'Gate: fail · no thresholds · no baseline (checked only that pairs completed)',
      'Report saved: .axis/reports/x',
    ]);
  });

  it('--reporter values: names, files, comma lists; unknown names and misplaced files are errors', () => {
    expect(parseReporterSpecs(['junit=out/a.xml', 'github,list', 'json'])).toEqual([
      { name: 'junit', file: 'out/a.xml' },
      { name: 'github' },
      { name: 'list' },
      { name: 'json' },
    ]);
    expect(() => parseReporterSpecs(['junt'])).toThrow(
      'unknown reporter "junt": expected one of list, json, junit, github',
    );
    expect(() => parseReporterSpecs(['github=x'])).toThrow('"github" takes no file');
    expect(() => parseReporterSpecs(['junit='])).toThrow('expected a file name');
    // Two outputs into one file: the last would silently replace the first.
    expect(() => parseReporterSpecs(['junit=out/x', 'json=./out/x'])).toThrow(
      '--reporter json=./out/x: junit=out/x writes the same file; give each output its own file',
    );
    expect(parseReporterSpecs(['junit=x', 'junit=x'])).toEqual([{ name: 'junit', file: 'x' }]);
    expect(parseReporterSpecs(['junit=x', 'junit=./x'], '/p')).toEqual([{ name: 'junit', file: 'x' }]);
    expect(() => parseReporterSpecs(['junit=x', 'json=/p/x'], '/p')).toThrow('junit=x writes the same file');
  });
});
