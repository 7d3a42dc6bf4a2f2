/**
 * The CI gate's verdict on report.html: mapped from report.json's `verdict` into the page's data in the
 * words `axis reports <id>` prints (src/report/verdict.ts), and absent when the report has none.
 */
import { describe, expect, it } from 'vitest';
import { toHtmlReportData } from '../../../src/report/html/index.js';
import type { ManifestInput } from '../../../src/report/html/map.js';
import { failureLines, gateLine, type RunVerdict } from '../../../src/report/verdict.js';

const base: ManifestInput = {
  reportId: '2026-12-06-101500',
  timestamp: '2026-12-06T10:15:00.000Z',
  results: [{ scenarioKey: 'cms/post', agentName: 'toy', status: 'completed' }],
};

const failing: RunVerdict = {
  pass: false,
  thresholds: { source: 'axis.config.json', metrics: ['axis_score'] },
  baseline: { name: 'main', tolerance: 1 },
  pairs: [
    {
      scenarioKey: 'cms/post',
      agent: 'toy',
      failures: [
        {
          kind: 'regression',
          metric: 'axis_score',
          value: 71,
          limit: 79,
          message: 'AXIS Result 71 is 9 below the baseline 80 (tolerance ±1)',
        },
        {
          kind: 'threshold',
          metric: 'axis_score',
          value: 71,
          limit: 75,
          message: 'AXIS Result 71 is below the threshold 75',
        },
      ],
    },
    { scenarioKey: 'cms/edit', agent: 'toy', failures: [] },
  ],
};

describe('the gate on report.html', () => {
  it('shows nothing when report.json has no verdict (an old report, or a run still going)', () => {
    const data = toHtmlReportData(base);
    expect(data.report.gate).toBeUndefined();
    expect(JSON.stringify(data)).not.toMatch(/Gate/);
  });

  it('a failing gate against a baseline: the Gate line and one line per failure, as axis reports prints them', () => {
    const gate = toHtmlReportData({ ...base, verdict: failing }).report.gate;
    expect(gate).toEqual({
      pass: false,
      line: 'Gate: fail · thresholds axis_score (axis.config.json) · baseline main (tolerance floor 1)',
      failures: [
        '✗ cms/post · toy: AXIS Result 71 is 9 below the baseline 80 (tolerance ±1)',
        '✗ cms/post · toy: AXIS Result 71 is below the threshold 75',
      ],
    });
    // The same functions `axis reports <id>` draws with (src/report/format.ts), not new wording.
    expect(gate!.line).toBe(gateLine(failing));
    expect(gate!.failures).toEqual(failureLines(failing).map((l) => l.trimStart()));
  });

  it('a passing gate without a baseline: the Gate line only', () => {
    const pass: RunVerdict = {
      pass: true,
      thresholds: null,
      baseline: null,
      pairs: [{ scenarioKey: 'cms/post', agent: 'toy', failures: [] }],
    };
    expect(toHtmlReportData({ ...base, verdict: pass }).report.gate).toEqual({
      pass: true,
      line: 'Gate: pass · no thresholds · no baseline (checked only that pairs completed)',
      failures: [],
    });
    // Stored before AXIS recorded its thresholds: what it checked is unknown, and the line says so.
    const { thresholds: _t, ...old } = pass;
    expect(toHtmlReportData({ ...base, verdict: old }).report.gate!.line).toBe(
      'Gate: pass · thresholds not recorded · no baseline',
    );
  });

  it('a run that fails with no pair to blame says why on the Gate line', () => {
    const v: RunVerdict = {
      pass: false,
      thresholds: null,
      baseline: null,
      pairs: [],
      incomplete: 'Run cancelled by SIGINT',
    };
    expect(toHtmlReportData({ ...base, verdict: v }).report.gate).toEqual({
      pass: false,
      line: 'Gate: fail (the run is incomplete: Run cancelled by SIGINT) · no thresholds · no baseline (checked only that pairs completed)',
      failures: [],
    });
  });

  it('untrusted names are flattened to one line as in the terminal (the page escapes them when drawn)', () => {
    const v: RunVerdict = {
      pass: false,
      thresholds: null,
      baseline: { name: 'ma\nin', tolerance: 0 },
      pairs: [
        {
          scenarioKey: '<b>x</b>\n\u202ey',
          agent: 'a\tb',
          failures: [{ kind: 'failed', message: 'No run completed: boom' }],
        },
      ],
    };
    const gate = toHtmlReportData({ ...base, verdict: v }).report.gate!;
    expect(gate.line).toBe('Gate: fail · no thresholds · baseline ma in (tolerance floor 0)');
    expect(gate.failures).toEqual(['✗ <b>x</b> y · a b: No run completed: boom']);
  });
});
