/**
 * Terminal text of a comparison (`axis baseline compare`, `axis run --compare-baseline`, `axis compare`).
 * Pure; reporters can call it. Keys and names come from reports, so they go through `oneLine`.
 */
import { oneLine } from '../report/format.js';
import type { Comparison, MetricComparison, PairComparison } from './compare.js';
import { points } from './pair-data.js';
import { ALPHA, LARGE_EFFECT } from './stats.js';
import { padEndWidth, padStartWidth, textWidth } from '../util/width.js';

const ARROW = { improved: '▲', regressed: '▼' } as const;

/** `cms/post  claude-code  87  74  -13 ▼` rows, each with its tolerance, metrics and reasons beneath. */
export function formatComparisonRows(
  entries: readonly (PairComparison & { label: string; agent: string })[],
  heads: [string, string, string, string] = ['Scenario', 'Agent', 'Baseline', 'Current'],
): string[] {
  const rows = entries.map((e) => [
    oneLine(e.label, 60),
    oneLine(e.agent, 40),
    e.baseline === null ? '–' : String(e.baseline),
    e.current === null ? '–' : String(e.current),
    deltaCell(e),
  ]);
  const all = [[...heads, 'Delta'], ...rows];
  const widths = all[0]!.map((_, c) => Math.max(...all.map((r) => textWidth(r[c]!))));
  const line = (r: string[]) =>
    r
      .map((cell, c) => (c >= 2 ? padStartWidth(cell, widths[c]!) : padEndWidth(cell, widths[c]!)))
      .join('  ')
      .trimEnd();
  const out = [line(all[0]!)];
  entries.forEach((e, i) => {
    out.push(line(rows[i]!));
    out.push(...detailLines(e));
  });
  return out;
}

function deltaCell(e: PairComparison): string {
  if (e.change === 'new') return 'new';
  if (e.change === 'missing') return 'missing ▼';
  if (e.delta === null) return e.change === 'regressed' ? '▼' : '–';
  const d = `${e.delta > 0 ? '+' : ''}${fmt(e.delta)}`;
  const arrow =
    e.change === 'improved' ? ` ${ARROW.improved}` : e.change === 'regressed' ? ` ${ARROW.regressed}` : '';
  return `${d}${arrow}`;
}

function detailLines(e: PairComparison): string[] {
  const out: string[] = [];
  if (e.band && e.change !== 'missing' && e.current !== null)
    out.push(
      `  ↳ tolerance ±${points(e.band.value, 1)} ${
        e.band.widened
          ? "from the baseline's measured run spread"
          : e.band.sigma === null
            ? '(single-run baseline: no measured spread)'
            : '(the floor: the measured spread is smaller)'
      }`,
    );
  const tested = e.metrics.filter((m) => m.significance);
  const w = Math.max(0, ...tested.map((m) => textWidth(m.label)));
  const values = tested.map((m) => `${value(m, m.means![0])} → ${value(m, m.means![1])}`);
  const vw = Math.max(0, ...values.map(textWidth));
  tested.forEach((m, i) => {
    const s = m.significance!;
    const d = s.d === null ? infiniteD(m) : dText(s.d);
    const p = pText(s.p);
    out.push(
      `    ${padEndWidth(m.label, w)}   ${padEndWidth(values[i]!, vw)}   ${d.padEnd(8)}  ${p.padEnd(7)}  ${s.marker} ${s.label}`,
    );
  });
  if (tested.length === 0) out.push(...movedScores(e.metrics));
  for (const r of e.regressions) out.push(`  ✗ ${oneLine(r.message, 200)}`);
  return out;
}

/** p to 3 places; one just under α that would read 0.050 keeps 4, cut down, so it reads below α as it is. */
function pText(p: number): string {
  if (p < 0.001) return 'p<0.001';
  const three = p.toFixed(3);
  if (p < ALPHA && Number(three) >= ALPHA) return `p=${(Math.floor(p * 1e4) / 1e4).toFixed(4)}`;
  return `p=${three}`;
}

/** d to 2 places; one just under a large effect that would read 0.80 keeps 3, cut toward 0. */
function dText(d: number): string {
  const size = Math.abs(d);
  const two = size.toFixed(2);
  const shown =
    size < LARGE_EFFECT && Number(two) >= LARGE_EFFECT ? (Math.floor(size * 1000) / 1000).toFixed(3) : two;
  return `d=${d < 0 ? '-' : '+'}${shown}`;
}

/** JSON has no ±Infinity (d is null there): the sign comes from the means, so a drop never reads d=∞. */
function infiniteD(m: MetricComparison): string {
  const [a, b] = m.means!;
  return a === b ? 'd=0' : b > a ? 'd=+∞' : 'd=-∞';
}

const DIMENSIONS = new Set(['goalAchievement', 'environment', 'service', 'agent']);

/**
 * Without samples on both sides there is no test, but each dimension that moved still gets its line
 * (the row shows only the AXIS Result): `Goal Achievement   95 → 45   -50`.
 */
function movedScores(metrics: readonly MetricComparison[]): string[] {
  const moved = metrics.filter((m) => DIMENSIONS.has(m.metric) && m.baseline !== m.current);
  const w = Math.max(0, ...moved.map((m) => textWidth(m.label)));
  const values = moved.map((m) => `${score(m.baseline)} → ${score(m.current)}`);
  const vw = Math.max(0, ...values.map(textWidth));
  return moved.map((m, i) => {
    const d = m.delta === null ? '' : `${m.delta > 0 ? '+' : ''}${fmt(m.delta)}`;
    return `    ${padEndWidth(m.label, w)}   ${padEndWidth(values[i]!, vw)}   ${d}`.trimEnd();
  });
}

const score = (v: number | null) => (v === null ? 'n/a' : fmt(v));

function value(m: MetricComparison, v: number): string {
  if (m.metric === 'durationMs') return `${(v / 1000).toFixed(1)}s`;
  if (m.metric === 'tokens') return Math.round(v).toLocaleString('en-US');
  return v.toFixed(1);
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The whole comparison against a baseline, with its footer. */
export function formatComparison(c: Comparison): string {
  const out = [
    `Baseline "${oneLine(c.baselineName, 64)}" vs report ${oneLine(c.reportId, 40)} · tolerance ${points(c.tolerance)} point${c.tolerance === 1 ? '' : 's'}, widened to 2σ of a pair's measured spread`,
    '',
    ...formatComparisonRows(c.entries.map((e) => ({ ...e, label: e.scenarioKey, agent: e.agentName }))),
    '',
    footer(c),
  ];
  return `${out.join('\n')}\n`;
}

export function footer(c: Pick<Comparison, 'summary' | 'regressed'>): string {
  const s = c.summary;
  const lines = [
    `${s.improved} improved, ${s.regressed} regressed, ${s.unchanged} unchanged` +
      (s.new ? ` · ${s.new} new (not in baseline)` : '') +
      (s.missing ? ` · ${s.missing} missing from this report` : ''),
  ];
  const t = s.significant;
  if (t.tested > 0)
    lines.push(
      `Significance (Welch's t-test, p < 0.05): ${t.regressions} regression${t.regressions === 1 ? '' : 's'}, ` +
        `${t.improvements} improvement${t.improvements === 1 ? '' : 's'}, ${t.notSignificant} not significant ` +
        `of ${t.tested} metric${t.tested === 1 ? '' : 's'}; the exit code follows the tolerance band`,
    );
  lines.push(c.regressed ? 'Result: regression detected' : 'Result: no regression');
  return lines.join('\n');
}
