/** docs/scoring.md must stay in step with the tables in code. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mapScore } from '../../../src/scoring/calibration.js';
import { SUB_WEIGHTS } from '../../../src/scoring/dimensions.js';
import { SLOWEST, SPEED_BUCKETS } from '../../../src/scoring/signals/speed.js';
import { HTTP_CLIENTS, READ_COMMANDS, TOOL_TABLE } from '../../../src/scoring/tool-table.js';

const doc = readFileSync(new URL('../../../docs/scoring.md', import.meta.url), 'utf8');
const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
/** Body rows of the markdown table whose header row has these cells (whatever the padding). */
const rows = (header: string): string[][] => {
  const lines = doc.split('\n');
  const want = cells(header).join('|');
  const start = lines.findIndex((l) => l.trim().startsWith('|') && cells(l).join('|') === want);
  expect(start, `table "${header}" in docs/scoring.md`).toBeGreaterThanOrEqual(0);
  const out: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith('|')) break;
    out.push(cells(line));
  }
  return out;
};

describe('docs/scoring.md', () => {
  it('lists exactly the tool table', () => {
    const documented = rows('| Tool name | Category | Kind | Used by |').map(
      ([name, category, kind, agents]) => [name!.replace(/`/g, ''), { category, kind, agents }],
    );
    expect(Object.fromEntries(documented)).toEqual(TOOL_TABLE);
  });

  it('lists every HTTP client and read-only command word', () => {
    for (const word of [...HTTP_CLIENTS, ...READ_COMMANDS]) expect(doc).toContain(`\`${word}\``);
  });

  it('shows the calibration table the code produces', () => {
    const table = rows('| Raw | Score |');
    expect(table.length).toBeGreaterThan(10);
    for (const [raw, score] of table) expect(mapScore(Number(raw)), `raw ${raw}`).toBe(Number(score));
  });

  it('shows the speed buckets the code uses', () => {
    const table = rows('| Table | 1.0 | 0.9 | 0.8 | 0.6 | 0.4 |');
    const seconds = (ms: number) => `${ms / 1000} s`;
    expect(table).toEqual(
      (['service', 'environment', 'agent'] as const).map((c) => [
        c,
        ...SPEED_BUCKETS[c].map((b, i) => (i === 0 ? `≤ ${seconds(b.maxMs)}` : seconds(b.maxMs))),
        `≥ ${seconds(2 * SPEED_BUCKETS[c].at(-1)!.maxMs)}`,
      ]),
    );
    expect(SPEED_BUCKETS.service.map((b) => b.score).concat(SLOWEST)).toEqual([1, 0.9, 0.8, 0.6, 0.4]);
  });

  it('shows the sub-dimension weights the code uses', () => {
    const table = rows('| Dimension | success | speed | weight | relevance | necessity |');
    expect(table).toEqual(
      (['environment', 'service', 'agent'] as const).map((d) => [
        d,
        ...(['success', 'speed', 'weight', 'relevance', 'necessity'] as const).map((s) =>
          String(SUB_WEIGHTS[d][s]),
        ),
      ]),
    );
  });
});
