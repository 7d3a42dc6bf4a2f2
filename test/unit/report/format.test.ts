import { afterAll, describe, expect, it } from 'vitest';
import { formatReport, oneLine, safeText, scoreInsight } from '../../../src/report/format.js';
import { formatReportList } from '../../../src/report/format-list.js';
import { textWidth } from '../../../src/util/width.js';
import { formatScenario } from '../../../src/report/format-scenario.js';
import {
  listReports,
  readScenario,
  summarizeReport,
  type ReportListEntry,
} from '../../../src/report/read.js';
import { dim, mixedPairs, removeProjects, scoredRun, tempProject, writeReport } from './fixture.js';

afterAll(removeProjects);

const at = (h: number) => new Date(Date.UTC(2026, 2, 1, h, 0, 0));
const ESC = '\u001b';

describe('the list', () => {
  it('one row per report with pairs, average, pass/fail, duration, cost and the incomplete marker', async () => {
    const project = tempProject();
    await writeReport(project, at(1), mixedPairs());
    await writeReport(project, at(2), [{ key: 'a', agent: 'x' }], { incomplete: true });
    await writeReport(project, at(3), [{ key: 'a', agent: 'x' }]);
    const list = await listReports(project, 2);
    const text = formatReportList(list.reports, list.total, '.axis/reports/');
    expect(text.split('\n').slice(0, 5)).toEqual([
      'AXIS Reports (.axis/reports/)',
      '',
      'Report ID          Scenarios  AXIS  Completed  Failed  Gate  Duration  Cost',
      '2026-03-01-030000          1     –          1       0  –         9.0s     —',
      '2026-03-01-020000          1     –          1       0  –         9.0s     —  incomplete',
    ]);
    expect(text).toContain('... and 1 more (axis reports without -n lists them all)\n');
    expect(text).not.toContain(ESC);

    const all = await listReports(project, 10);
    const full = formatReportList(all.reports, all.total, '.axis/reports/');
    // The crashed pair's run reported no cost: the total is a lower bound, and says so.
    expect(full).toMatch(
      /2026-03-01-010000 +3 +72 +2 +1 +– +9\.0s +≥ \$0\.7500 \(1 of 3 runs without a cost\)\n/,
    );
    expect(full).not.toContain('more');
  });

  it("the Gate column is report.json's verdict: a pair that completed can still fail the gate", async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), [{ key: 'a', agent: 'x' }]);
    const failing = { pass: false, baseline: null, pairs: [] };
    const rows = [
      summarizeReport({ ...m, verdict: failing }, 'p'),
      summarizeReport({ ...m, reportId: 'b', verdict: { ...failing, pass: true } }, 'p'),
    ];
    expect(rows.map((r) => r.gate)).toEqual(['fail', 'pass']);
    const text = formatReportList(rows, 2, '.axis/reports/');
    expect(text).toMatch(/\n2026-03-01-010000 +1 +– +1 +0 +fail +9\.0s/);
    // Neither verdict records its thresholds (stored before AXIS did): a pass says so.
    expect(text).toMatch(/\nb +1 +– +1 +0 +pass \(thresholds not recorded\) +9\.0s/);
  });

  it('a pass that applied no threshold and no baseline is marked in the list; so is one that does not say', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), [{ key: 'a', agent: 'x' }]);
    const bare = { pass: true, thresholds: null, baseline: null, pairs: [] };
    const held = { ...bare, thresholds: { source: 'axis.config.json', metrics: ['axis_score' as const] } };
    const rows = [
      summarizeReport({ ...m, reportId: 'bare', verdict: bare }, 'p'),
      summarizeReport({ ...m, reportId: 'held', verdict: held }, 'p'),
      summarizeReport({ ...m, reportId: 'old', verdict: { pass: true, baseline: null, pairs: [] } }, 'p'),
      summarizeReport({ ...m, reportId: 'lost', verdict: { ...bare, pass: false } }, 'p'),
    ];
    expect(rows.map((r) => r.gateChecks)).toEqual([
      'no thresholds · no baseline (checked only that pairs completed)',
      'thresholds axis_score (axis.config.json) · no baseline',
      'thresholds not recorded · no baseline',
      'no thresholds · no baseline (checked only that pairs completed)',
    ]);
    const text = formatReportList(rows, 4, '.axis/reports/');
    expect(text).toMatch(/\nbare +1 +– +1 +0 +pass \(completion only\) +9\.0s/);
    expect(text).toMatch(/\nheld +1 +– +1 +0 +pass +9\.0s/);
    expect(text).toMatch(/\nold +1 +– +1 +0 +pass \(thresholds not recorded\) +9\.0s/);
    expect(rows.map((r) => r.gateThresholdsUnknown ?? false)).toEqual([false, false, true, false]);
    expect(text).toMatch(/\nlost +1 +– +1 +0 +fail +9\.0s/);
  });

  it('an unreadable report keeps its row and says why; colors only when asked', () => {
    const broken: ReportListEntry = {
      reportId: '2026-01-01-000000',
      pairs: 0,
      completed: 0,
      failed: 0,
      skipped: 0,
      runs: 0,
      averageAxisScore: null,
      scored: false,
      costUsd: null,
      runsWithoutCost: 0,
      incomplete: false,
      gate: null,
      path: 'p',
      error: `p/report.json: invalid JSON\n${ESC}[2J`,
    };
    const text = formatReportList([broken], 1, 'x');
    expect(text).toMatch(/2026-01-01-000000 +unreadable: p\/report\.json: invalid JSON \[2J\n/);
    expect(formatReportList([broken], 1, 'x', { color: true })).toContain(`${ESC}[1m`);
  });
});

describe('one report', () => {
  it('scored, unscored and failed pairs with n/a, reasons, the weakest signals and the footer', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), mixedPairs(), { name: 'CMS suite' });
    // Wide enough for every line whole (at 80 columns, the default, long lines fold: below).
    const text = formatReport(m, `.axis/reports/${m.reportId}`, { width: 200 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('AXIS Report: 2026-03-01-010000 · CMS suite');
    expect(text).toContain('Started      2026-03-01 01:00:00 UTC\n');
    expect(text).toContain('Scenarios    3 pairs: 2 completed, 1 failed\n');
    // Reliability over every run: the unscored run leaves the denominator, the crash counts against it.
    expect(text).toContain(
      'AXIS Result  72 / 100 average (1 scored, 1 unscored, 1 failed) · reliability 50% (1/2 runs completed; 1 unscored not counted)\n',
    );
    expect(text).toContain('Judge        anthropic claude-sonnet-4-5 · 2,400 tokens · $0.0200\n');

    const header = lines.findIndex((l) => /^Scenario +Agent/.test(l));
    expect(lines[header]).toMatch(
      /^Scenario +Agent +AXIS +Goal +Env\. +Svc\. +Agent +Duration +Tokens +Cost +Status$/,
    );
    expect(lines.slice(header + 1, header + 7)).toEqual([
      expect.stringMatching(
        /^cms\/post +claude-code +72 +60 +92 +n\/a +70 +1\.6s +1,250 +\$0\.2500 +✓ completed$/,
      ),
      '  ↳ Goal 60: "The summary names the post id" scored 3/10  |  Agent 70: weakest part "needed" 40/100',
      // Unscored: no AXIS Result, but the dimensions it has, as the run's summary and report.html show.
      expect.stringMatching(
        /^cms\/post +codex\|gpt-5 +– +– +92 +n\/a +70 +1\.6s +1,250 +\$0\.5000 +unscored$/,
      ),
      '  ↳ goal judge failed: HTTP 529: Overloaded (4 attempts)',
      expect.stringMatching(/^hello +claude-code +– +– +– +– +– +1\.6s +1,250 +— +✗ failed$/),
      '  ↳ crash: command agent "claude-code" exited with code 3: fatal: boom',
    ]);
    expect(text).toContain(`\nView scenario detail: axis reports ${m.reportId} <scenarioKey>\n`);
  });

  it('folds its long lines to 80 columns by default, a command never cut', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), mixedPairs(), { name: 'CMS suite' });
    const where = `.axis/reports/${m.reportId}`;
    const text = formatReport(m, where, { configArg: ' -c "my project/axis.config.json"' });
    const lines = text.split('\n');
    // Every line but the pairs' table rows (a table keeps its columns) fits.
    const rows = new Set(lines.filter((l) => /^(Scenario|cms\/post|hello) /.test(l)));
    expect(lines.filter((l) => textWidth(l) > 80 && !rows.has(l))).toEqual([]);
    expect(text).toContain(
      'AXIS Result  72 / 100 average (1 scored, 1 unscored, 1 failed) ·\n' +
        '             reliability 50% (1/2 runs completed; 1 unscored not counted)\n',
    );
    // A note goes on under its arrow.
    const note = lines.findIndex((l) => l.startsWith('  ↳ Goal 60:'));
    expect(lines[note + 1]).toMatch(/^ {4}\S/);
    expect(`${lines[note]} ${lines[note + 1]!.trim()}`).toBe(
      '  ↳ Goal 60: "The summary names the post id" scored 3/10  |  Agent 70: weakest part "needed" 40/100',
    );
    // The commands stay whole, on a line of their own when the line would not fit.
    const cmd = `axis reports ${m.reportId} -c "my project/axis.config.json"`;
    expect(text).toContain(`\nView scenario detail:\n  ${cmd} <scenarioKey>\n`);
    expect(text).toContain(`\nHTML report: ${where}/report.html\n  (${cmd} --html)\n`);
    const wide = formatReport(m, where, { width: 200 });
    expect(wide).toContain(`\nHTML report: ${where}/report.html (axis reports ${m.reportId} --html)\n`);
  });

  it('a report stopped before any run completed never claims --no-score or that axis score would help', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), [{ key: 'a', agent: 'x', status: 'cancelled' }], {
      incomplete: true,
      incompleteReason: 'Run cancelled by SIGTERM',
    });
    const text = formatReport(m, 'r');
    expect(text).toContain('AXIS Result  none: no run completed\n');
    expect(text).not.toContain('--no-score');
    const one = formatScenario(m.reportId, await readScenario(project, m, 'a'));
    expect(one).toContain('AXIS Result  none: the run was cancelled, so it has no score\n');
    expect(one).not.toContain('--no-score');
  });

  it('a --no-score report says how to score it; repeated pairs show their spread', async () => {
    const project = tempProject();
    const unscored = await writeReport(project, at(1), [{ key: 'a', agent: 'x' }]);
    expect(formatReport(unscored, 'r')).toContain(
      `AXIS Result  not scored (run with --no-score): axis score ${unscored.reportId}\n`,
    );
    const repeated = await writeReport(project, at(2), [
      {
        key: 'k',
        agent: 'a',
        runs: [{ score: scoredRun(90) }, { score: scoredRun(70) }, { status: 'timeout' }],
      },
    ]);
    const text = formatReport(repeated, 'r', { width: 200 });
    expect(text).toContain(
      '  ↳ 3 runs (2 scored): median 80, range 70–90, σ 14.1 · reliability 66% (2/3 runs completed) · representative run 2\n',
    );
    // The tie between 90 and 70 goes to the lower composite; the timed-out run is a note, the pair completed.
    expect(text).toMatch(/^k +a +70 .* ✓ completed$/m);
    expect(text).toContain('\n  ↳ crash: run 3 of 3: agent crashed  |  Goal 60: ');
  });
});

describe('scoreInsight', () => {
  it('names the weakest signal of each dimension under 75, weakest dimension first', () => {
    const s = scoredRun();
    expect(scoreInsight(s)).toBe(
      'Goal 60: "The summary names the post id" scored 3/10  |  Agent 70: weakest part "needed" 40/100',
    );
    expect(scoreInsight({ ...s, environment: dim(50, { success: 40, speed: 90 }) })).toBe(
      'Env 50: weakest part "worked" 40/100  |  Goal 60: "The summary names the post id" scored 3/10  |  Agent 70: weakest part "needed" 40/100',
    );
    const strong = {
      ...s,
      goalAchievement: { ...s.goalAchievement, score: 90 },
      agent: dim(88, { necessity: 80 }),
    };
    expect(scoreInsight(strong)).toBeNull();
    expect(scoreInsight({ ...s, status: 'unscored' })).toBeNull();
  });
});

describe('one scenario', () => {
  it('shows status, score, criteria with rationale, audits, sparse index, notes, artifacts and files', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), mixedPairs());
    const text = formatScenario(m.reportId, await readScenario(project, m, 'cms/post', 'claude-code'));
    const expected = [
      'cms/post · claude-code  Scenario cms/post',
      `Report ${m.reportId}`,
      '',
      'Status       completed · exit code 0 · 1.6s · 1,250 tokens · $0.2500',
      'AXIS Result  72 / 100 · judge anthropic claude-sonnet-4-5',
      '  Goal achievement  60   weight 50%',
      '  Environment       92   weight 25% | worked 95 · speed 80 | 2 interactions, 2 audited',
      '  Service          n/a   nothing in the run exercised it',
      '  Agent             70   weight 25% | worked 100 · speed 100 · right-sized 90 · on task 85 · needed 40 | 1 interaction, 1 audited',
      '  ↳ Goal 60: "The summary names the post id" scored 3/10  |  Agent 70: weakest part "needed" 40/100',
      '  Not needed: #3',
      '',
      'Criteria',
      '  ✔  9/10  The post is published  (weight 50%)',
      '          published at /posts/1',
      '  ✗  3/10  The summary names the post id  (weight 50%)',
      '          the id was never mentioned',
      '          [31mred[0m',
      '',
      'Audits',
      '  environment: 2 interactions, 1 imperfect',
      '    #3  worked 50 · speed 100  [judged by a model]  curl failed once',
      '  agent: 1 interaction, 1 imperfect',
      '    #3  right-sized 100 · on task 40  [judged by a model]  retried the same call',
      '',
      'Transcript (sparse index)',
      '  # Sparse Index: cms/post / claude-code',
      '  # 2 interactions | env: 1 | svc: 0 | agent: 1 | errors: 0 | unclassified: 0',
      '  #1    env         tool      Bash(command: ls) -> ok 12B 5ms',
      '  #2    agent       reasoning "Published." -> ok 10B -',
      '',
      'Final answer',
      '  Published the post.',
      '',
      'Setup notes',
      '  ## Seeded',
      '  - 3 posts',
      '',
      'Artifacts',
      '  post.md  12 B  text/markdown',
      '  big.bin  94.4 MB  application/octet-stream  (not captured: over the 5 MiB limit)',
      `  in .axis/reports/${m.reportId}/scenarios/cms/post/claude-code/artifacts/`,
      '',
      'Files',
      `  detail        .axis/reports/${m.reportId}/scenarios/cms/post/claude-code.json`,
      `  raw output    .axis/reports/${m.reportId}/scenarios/cms/post/claude-code.raw.ndjson`,
      `  sparse index  .axis/reports/${m.reportId}/scenarios/cms/post/claude-code.sparse-index.txt`,
      '',
    ].join('\n');
    expect(text).toBe(expected);
    expect(text).not.toContain(ESC);
  });

  it('a crashed run lists its errors; an unscored run its check outcomes', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), [...mixedPairs(), { key: 'plain', agent: 'x' }]);
    const crashed = formatScenario(m.reportId, await readScenario(project, m, 'hello'));
    expect(crashed).toContain('AXIS Result  failed: exited with code 3\n');
    expect(crashed).toContain(
      '\nErrors\n  crash: command agent "claude-code" exited with code 3: fatal: boom\n  failed: exited with code 3\n',
    );

    const plain = formatScenario(m.reportId, await readScenario(project, m, 'plain'));
    expect(plain).toContain('AXIS Result  not scored (run with --no-score): `axis score` scores it\n');
    expect(plain).toContain(
      '\nCriteria\n  · The post is published  (weight 50%)\n      not graded: the run was not scored\n' +
        '  ✔ post.md exists [check]  (weight 50%)\n      Passed: post.md exists (12 bytes)\n',
    );
  });

  it('what the simulator noticed names the tape it played', async () => {
    const project = tempProject();
    const simulator = {
      requests: 3,
      tape: 'tapes/hello.json',
      events: [
        {
          type: 'tape_exhausted' as const,
          time: '2026-01-01T00:00:01.000Z',
          message: 'tape exhausted: all 2 turns are served',
          turn: 2,
        },
      ],
    };
    const m = await writeReport(project, at(1), [{ key: 'k', agent: 'a', status: 'failed', simulator }]);
    const text = formatScenario(m.reportId, await readScenario(project, m, 'k'));
    expect(text).toContain(
      '\n  simulator tape_exhausted (tapes/hello.json): tape exhausted: all 2 turns are served\n',
    );
  });

  it('several runs: a runs table with the representative marked, then every run', async () => {
    const project = tempProject();
    const m = await writeReport(project, at(1), [
      {
        key: 'k',
        agent: 'a',
        runs: [{ score: scoredRun(90) }, { score: scoredRun(70) }, { score: scoredRun(80) }],
      },
    ]);
    const text = formatScenario(m.reportId, await readScenario(project, m, 'k'));
    expect(text).toContain('3 runs; the pair reports run 3 (*)');
    expect(text).toMatch(
      /\n {5}Run +Status +AXIS +Duration +Tokens +Cost\n {7}1 +completed +90 .*\n {7}2 +completed +70 .*\n {2}\* +3 +completed +80 /,
    );
    expect(text).toContain('── Run 1 of 3 ──');
    expect(text).toContain('── Run 3 of 3 (representative) ──');
    expect(text.match(/^AXIS Result/gm)).toHaveLength(3);
  });
});

describe('untrusted text', () => {
  it('oneLine drops escape sequences and newlines and cuts long text', () => {
    expect(oneLine(`a\n${ESC}[31mb\u2028c\td`)).toBe('a [31mb c d');
    expect(oneLine('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
    // A bidi override left open would reorder the rest of the terminal line.
    expect(oneLine('fix \u202eexe.txt\u2066 done\u2069')).toBe('fix exe.txt done');
    expect(safeText('a\u202eb\nc\u2067d\te')).toBe('ab\ncd\te');
  });
});
