/**
 * The text tables of `axis baseline compare`, `axis history` and `axis reports` pad by display width: a
 * CJK or emoji scenario key (two columns a character) or an accented agent name (the accent takes none)
 * keeps every later column where the others have it.
 */
import { describe, expect, it } from 'vitest';
import type { PairComparison } from '../../../src/compare/compare.js';
import { formatComparisonRows } from '../../../src/compare/format.js';
import { oneLine, table } from '../../../src/report/format.js';
import { formatHistory } from '../../../src/report/history.js';
import { textWidth } from '../../../src/util/width.js';

/** The display column where `needle` starts on `line`. */
const col = (line: string, needle: string) => {
  const at = line.indexOf(needle);
  expect(at, `${needle} in ${line}`).toBeGreaterThanOrEqual(0);
  return textWidth(line.slice(0, at));
};

const same = (cols: number[]) => expect(new Set(cols).size, cols.join()).toBe(1);

const pair = (label: string, agent: string, baseline: number, current: number) =>
  ({
    label,
    agent,
    baseline,
    current,
    delta: current - baseline,
    change: 'unchanged',
    regressions: [],
    band: null,
    reliability: { baseline: null, current: null },
    runs: { baseline: 1, current: 1 },
    metrics: [],
  }) as unknown as PairComparison & { label: string; agent: string };

describe('wide text in tables', () => {
  it('compare rows: baseline, current and delta columns line up', () => {
    const lines = formatComparisonRows([
      pair('cms/post', 'claude-code', 81, 82),
      pair('日本語/記事', 'codex', 71, 72),
      pair('🚀/launch', 'cafe\u0301', 61, 62),
    ]);
    const rows = lines.slice(0, 4);
    same(rows.slice(1).map((r, i) => col(r, ['claude-code', 'codex', 'cafe\u0301'][i]!)));
    // The number columns are right-aligned: every full row ends at the same column.
    same(rows.map(textWidth));
  });

  it('history: an agent column headed by a wide name stays over its numbers', () => {
    const text = formatHistory({
      scenarioKey: 'cms/post',
      points: [
        {
          reportId: '2026-01-01-000000',
          axisScore: 80,
          agents: { 日本語エージェント: 80, b: 70 },
          pairs: 2,
          failed: 0,
        },
        {
          reportId: '2026-01-02-000000',
          axisScore: 90,
          agents: { 日本語エージェント: 90, b: 75 },
          pairs: 2,
          failed: 0,
        },
      ],
    });
    const lines = text.split('\n').filter((l) => /^(report|2026-)/.test(l));
    expect(lines).toHaveLength(3);
    // Every column after the first is right-aligned: the head and each row end at the same column.
    same(lines.map(textWidth));
  });

  it('reports table: columns after a wide key start at the same display column', () => {
    const lines = table(
      [
        ['Scenario', 'Agent', 'AXIS'],
        ['日本語', 'c', '80'],
        ['🚀launch', 'c', '7'],
        ['cafe\u0301', 'c', '100'],
      ],
      new Set([2]),
    );
    same(lines.slice(1).map((l) => col(l, 'c ')));
    same(lines.map((l) => textWidth(l)));
  });

  it('oneLine cuts a cell at its display width, never inside an emoji or a CJK character', () => {
    expect(oneLine('cms/post-and-more', 8)).toBe('cms/pos…');
    expect(oneLine('日本語のシナリオ', 8)).toBe('日本語…');
    const cut = oneLine('🚀'.repeat(10), 6);
    expect(cut).toBe('🚀🚀…');
    expect(textWidth(oneLine('長'.repeat(50), 40))).toBeLessThanOrEqual(40);
  });
});
