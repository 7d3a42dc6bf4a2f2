import { describe, expect, it } from 'vitest';
import { buildHistory, formatHistory, sparkline } from '../../../src/report/history.js';
import { badgeColor, badgeSvg } from '../../../src/reporters/badge.js';
import { sampleManifest } from './fixtures.js';

describe('badge', () => {
  it('draws the score with its colour band and escapes the label', () => {
    const svg = badgeSvg({ score: 82, label: '<AXIS & co>' });
    expect(svg).toContain('aria-label="&lt;AXIS &amp; co&gt;: 82/100"');
    expect(svg).toContain('fill="#97ca00"');
    expect(svg).not.toContain('<AXIS');
    expect(badgeSvg({ score: null })).toContain('>n/a</text>');
    // Never flatters: 89.9 is shown as 89 in the 75–89 band.
    expect(badgeSvg({ score: 89.9 })).toContain('89/100');
    expect([badgeColor(90), badgeColor(74), badgeColor(49)]).toEqual(['#4c1', '#dfb317', '#e05d44']);
  });

  it('a report with failed pairs says so, in red: the average of the scored pairs alone would flatter', () => {
    const one = badgeSvg({ score: 95, failed: 9 });
    expect(one).toContain('aria-label="AXIS: 95/100 · 9 failed"');
    expect(one).toContain('fill="#e05d44"');
    expect(badgeSvg({ score: null, failed: 2 })).toContain('>n/a · 2 failed</text>');
    expect(badgeSvg({ score: 95, failed: 0 })).toContain('aria-label="AXIS: 95/100"');
    expect(badgeColor(95, 1)).toBe('#e05d44');
  });
});

describe('badge and the gate', () => {
  it('a failed gate is red and says so, whatever the score: a green badge reads as a passed gate', () => {
    const svg = badgeSvg({ score: 95, gate: 'fail' });
    expect(svg).toContain('aria-label="AXIS: 95/100 · gate fail"');
    expect(svg).toContain('fill="#e05d44"');
    // Failed pairs, an incomplete run and a shard fail the gate already: the badge says it once.
    expect(badgeSvg({ score: 95, failed: 1, gate: 'fail' })).toContain(
      'aria-label="AXIS: 95/100 · 1 failed"',
    );
    expect(badgeSvg({ score: null, gate: 'fail' })).toContain('aria-label="AXIS: n/a · gate fail"');
  });

  it('a passed gate keeps the colour of the score; an unknown one is grey and says so', () => {
    expect(badgeSvg({ score: 95, gate: 'pass' })).toContain('fill="#4c1"');
    expect(badgeSvg({ score: 95, gate: 'pass' })).toContain('aria-label="AXIS: 95/100"');
    const unknown = badgeSvg({ score: 95, gate: null });
    expect(unknown).toContain('aria-label="AXIS: 95/100 · gate unknown"');
    expect(unknown).toContain('fill="#9f9f9f"');
    // A failed pair is a failed gate, stored verdict or not.
    expect(badgeSvg({ score: 95, failed: 1, gate: null })).toContain('aria-label="AXIS: 95/100 · 1 failed"');
  });
});

describe('history', () => {
  it('names the older reports the limit left out, and never claims no report has a scenario it did not read', () => {
    const a = { ...sampleManifest(), reportId: '2026-11-30-090000' };
    const h = { ...buildHistory([a]), olderNotShown: 3 };
    expect(formatHistory(h, 1)).toContain(
      '\n3 older reports are not shown (axis history -n 4 shows every one).\n',
    );
    expect(formatHistory({ ...h, olderNotShown: 0 }, 1)).not.toContain('older');
    const missing = { ...buildHistory([a], 'gone'), olderNotShown: 1 };
    expect(formatHistory(missing, 1)).toBe(
      'The newest stored report has no scenario "gone".\n1 older report is not shown (axis history gone -n 2 shows every one).\n',
    );
    expect(formatHistory({ ...missing, olderNotShown: 0 })).toBe('No stored report has scenario "gone".\n');
  });

  it('the AXIS Result per report, oldest first, and per agent for one scenario, with a trend', () => {
    const a = { ...sampleManifest(), reportId: '2026-11-30-090000' };
    a.summary = { ...a.summary, averageAxisScore: 70 };
    const b = sampleManifest();
    const all = buildHistory([b, a]);
    expect(all.points.map((p) => [p.reportId, p.axisScore, p.failed])).toEqual([
      ['2026-11-30-090000', 70, 1],
      ['2026-12-01-101500', 82, 1],
    ]);
    const text = formatHistory(all);
    expect(text).toContain('AXIS Result over 2 reports');
    expect(text).toContain('Trend: ▆▇  (+12 since 2026-11-30-090000)');
    const one = buildHistory([a, b], 'hello');
    expect(one.points[0]!.agents).toEqual({ codex: null });
    expect(formatHistory(buildHistory([a], 'nope'))).toBe('No stored report has scenario "nope".\n');
    expect(sparkline([0, 50, null, 100])).toBe('▁▅ █');
  });

  it('counts failed pairs as axis reports does: a cancelled pair is not failed', () => {
    const m = sampleManifest();
    m.results[1]!.status = 'cancelled';
    m.summary = { ...m.summary, failed: 0, cancelled: 1 };
    expect(buildHistory([m]).points[0]!.failed).toBe(m.summary.failed);
    expect(buildHistory([m], 'hello').points[0]!.failed).toBe(0);
  });

  it("one scenario's AXIS is the mean over its scored agents, as the report's average: a failed pair is counted, not averaged in", () => {
    const m = sampleManifest();
    const scored = m.results[0]!;
    const failed = { ...scored, agentName: 'codex', status: 'failed' as const };
    failed.score = { ...scored.score!, status: 'failed', axisScore: 0 } as typeof scored.score;
    m.results = [scored, failed];
    m.summary = { ...m.summary, averageAxisScore: 82 };
    const one = buildHistory([m], scored.scenarioKey).points[0]!;
    expect(one.agents).toEqual({ 'claude-code': 82, codex: 0 });
    expect([one.axisScore, one.failed]).toEqual([82, 1]);
    expect(one.axisScore).toBe(buildHistory([m]).points[0]!.axisScore);
  });

  it("the trend's change is named after the first report that has a score, not an unscored one before it", () => {
    const unscored = { ...sampleManifest(), reportId: '2026-11-29-090000' };
    unscored.summary = { ...unscored.summary, averageAxisScore: null };
    const a = { ...sampleManifest(), reportId: '2026-11-30-090000' };
    a.summary = { ...a.summary, averageAxisScore: 70 };
    const text = formatHistory(buildHistory([unscored, a, sampleManifest()]));
    expect(text).toContain('Trend:  ▆▇  (+12 since 2026-11-30-090000)');
  });
});

describe('history text', () => {
  it('prints agent names from report.json without their control characters, as axis reports does', () => {
    const m = sampleManifest();
    m.results[0]!.agentName = 'evil\u001b]0;pwned\u0007\u001b[31mRED';
    const text = formatHistory(buildHistory([m], m.results[0]!.scenarioKey));
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('evil ]0;pwned [31mRED');
  });
});
