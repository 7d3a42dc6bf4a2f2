/**
 * The Gate line with every threshold metric, a profile and a baseline passed 150 characters: one line a
 * terminal of 80 columns (or a CI log viewer) wraps mid-word. It folds at its ` · ` and `, ` breaks now,
 * every line at most the width, and nothing of what it says is lost.
 */
import { describe, expect, it } from 'vitest';
import { gateLine, gateLines, type RunVerdict } from '../../../src/report/verdict.js';
import { summaryText } from '../../../src/reporters/format.js';
import { textWidth } from '../../../src/util/width.js';
import { sampleManifest } from '../reporters/fixtures.js';

const wide: RunVerdict = {
  pass: false,
  thresholds: {
    source: 'axis.config.json, profile nightly-full-matrix',
    metrics: ['axis_score', 'goal_achievement', 'environment', 'service', 'agent', 'reliability'],
  },
  baseline: { name: 'main-branch-nightly', tolerance: 2.5 },
  pairs: [
    {
      scenarioKey: 'cms/post',
      agent: 'codex',
      failures: [
        { kind: 'threshold', metric: 'service', value: 40, limit: 60, message: 'service 40 is below 60' },
      ],
    },
  ],
  incomplete: 'Run cancelled by SIGINT',
};

/** The words of the lines, joined again: what one long line said. */
const rejoined = (lines: string[]) => lines.map((l) => l.trim()).join(' ');

describe('gateLines', () => {
  it('folds a long gate at 80 columns, continuation lines indented, no word lost', () => {
    expect(textWidth(gateLine(wide))).toBeGreaterThan(150);
    const lines = gateLines(wide, 80);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(textWidth(l), l).toBeLessThanOrEqual(80);
    expect(lines[0]).toBe('Gate: fail (the run is incomplete: Run cancelled by SIGINT) ·');
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {6}\S/);
    expect(rejoined(lines)).toBe(gateLine(wide));
  });

  it('a line that fits stays one line, as it was', () => {
    const short: RunVerdict = { pass: true, thresholds: null, baseline: null, pairs: [] };
    expect(gateLines(short, 80)).toEqual([gateLine(short)]);
  });

  it('a single part wider than the line breaks at its spaces, not mid-word', () => {
    const long = { ...wide, incomplete: `${'word '.repeat(40)}end` };
    const lines = gateLines(long, 60);
    for (const l of lines) expect(textWidth(l), l).toBeLessThanOrEqual(60);
    expect(rejoined(lines)).toBe(gateLine(long));
  });
});

describe("the end of axis run's summary", () => {
  it('shows the gate folded at 80 columns, as a CI log gets it', () => {
    const m = sampleManifest();
    const text = summaryText(m, { reportRel: '.axis/reports/x', verdict: wide });
    const at = text.split('\n').findIndex((l) => l.startsWith('Gate: '));
    const gate = text.split('\n').slice(at, at + gateLines(wide, 80).length);
    expect(gate).toEqual(gateLines(wide, 80));
  });
});
