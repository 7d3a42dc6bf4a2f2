/** Terminal text of a variant / agent A/B (`axis compare`), in the style of formatComparison. Pure. */
import { oneLine } from '../report/format.js';
import type { AbComparison } from './ab.js';
import { formatComparisonRows } from './format.js';

export function formatAbComparison(c: AbComparison): string {
  const [a, b] = c.names.map((n) => oneLine(n, 40)) as [string, string];
  const what = c.mode === 'variants' ? 'Variant' : 'Agent';
  const out = [
    `${what} "${b}" vs "${a}" in report ${oneLine(c.reportId, 40)} · "${a}" plays the baseline · tolerance ${c.tolerance} point${c.tolerance === 1 ? '' : 's'}, widened to 2σ of its measured spread`,
    '',
  ];
  if (c.entries.length > 0)
    out.push(
      ...formatComparisonRows(
        c.entries.map((e) => ({ ...e, label: e.scenario, agent: e.agent ?? `${e.a} → ${e.b}` })),
        ['Scenario', c.mode === 'variants' ? 'Agent' : 'Agents', a, b],
      ),
      '',
    );
  else out.push('No scenario ran on both sides.', '');
  for (const n of c.notComparable)
    out.push(
      `  – ${oneLine(n.scenario, 60)}${n.agent === null ? '' : ` · ${oneLine(n.agent, 40)}`}: not comparable (${oneLine(n.message, 200)})`,
    );
  if (c.notComparable.length > 0) out.push('');
  const k = c.counts;
  out.push(
    `${k.better} better, ${k.worse} worse, ${k.unclear} no clear difference` +
      (c.notComparable.length ? ` · ${c.notComparable.length} not comparable` : ''),
  );
  const t = c.summary.significant;
  if (t.tested > 0)
    out.push(
      `Significance (Welch's t-test, p < 0.05): ${t.improvements} improvement${t.improvements === 1 ? '' : 's'}, ` +
        `${t.regressions} regression${t.regressions === 1 ? '' : 's'}, ${t.notSignificant} not significant ` +
        `of ${t.tested} metric${t.tested === 1 ? '' : 's'}; the verdict follows the tolerance band`,
    );
  out.push(
    c.verdict === 'no clear difference'
      ? `Verdict: no clear difference between "${b}" and "${a}"`
      : `Verdict: "${b}" is ${c.verdict === 'better' ? 'better ▲' : 'worse ▼'} than "${a}"`,
  );
  return `${out.join('\n')}\n`;
}
