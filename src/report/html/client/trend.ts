/**
 * The trend chart: the AXIS Result over the stored reports (`data.trend`, computed by history.ts when
 * the page was written, the same numbers `axis history` prints). An inline SVG drawn to the width of
 * its box, a legend that picks the lines, and the same values as a table, so nothing is only a picture.
 * All text goes in as text nodes.
 */
import type { HtmlPair, HtmlReportData, HtmlTrend } from '../model.js';
import { breakable, clear, h, plural, svg } from './dom.js';

/** Pair lines drawn when the page opens; the legend adds or removes any of them. */
export const TREND_LINES_AT_FIRST = 5;
const TREND_COLOURS = 6;
export const TREND_HEIGHT = 220;
const TREND_PAD = { top: 14, right: 18, bottom: 34, left: 36 };

export interface TrendPoint {
  /** Index into the reports. */
  i: number;
  x: number;
  y: number;
  v: number;
}

/** A series' points in a `width` × TREND_HEIGHT box, split where a report has no value. */
export function trendSegments(values: readonly (number | null)[], width: number): TrendPoint[][] {
  const n = values.length;
  const plotW = Math.max(1, width - TREND_PAD.left - TREND_PAD.right);
  const plotH = TREND_HEIGHT - TREND_PAD.top - TREND_PAD.bottom;
  const segments: TrendPoint[][] = [];
  let run: TrendPoint[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (run.length) segments.push(run);
      run = [];
      return;
    }
    const x = TREND_PAD.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
    const y = TREND_PAD.top + ((100 - Math.max(0, Math.min(100, v))) * plotH) / 100;
    run.push({ i, x: round1(x), y: round1(y), v });
  });
  if (run.length) segments.push(run);
  return segments;
}

/** Reports labelled on the x axis: the first and the last always, others evenly spaced while they fit. */
export function trendLabelIndices(n: number, width: number, labelWidth = 92): number[] {
  if (n <= 0) return [];
  if (n === 1) return [0];
  const fit = Math.max(2, Math.floor((width - TREND_PAD.left - TREND_PAD.right) / labelWidth));
  if (n <= fit) return Array.from({ length: n }, (_, i) => i);
  const step = Math.ceil((n - 1) / (fit - 1));
  const out: number[] = [];
  for (let i = 0; i < n - 1; i += step) out.push(i);
  if (n - 1 - out[out.length - 1]! < step / 2) out.pop();
  return [...out, n - 1];
}

/** `06-12 20:58` from a report id `2026-06-12-205816` (UTC, as the id is). */
export function reportLabel(id: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})-(\d{2})(\d{2})/.exec(id);
  return m ? `${m[1]}-${m[2]} ${m[3]}:${m[4]}` : id.slice(0, 16);
}

interface Series {
  label: string;
  /** The scenario's name the label starts with, drawn in its own direction (<bdi>). */
  name?: string;
  values: (number | null)[];
  cls: string;
  on: boolean;
}

export function renderTrend(data: HtmlReportData): HTMLElement | null {
  const t = data.trend;
  if (!t) return null;
  const n = t.reports.length;
  const section = h(
    'section',
    { class: 'trend', 'aria-labelledby': 'trend-title' },
    h('h2', { id: 'trend-title' }, 'AXIS Result over time'),
    h('p', { class: 'muted trend-note' }, trendNote(t)),
  );
  if (n < 2) {
    section.appendChild(
      h(
        'p',
        { class: 'empty' },
        'No earlier report with these scenarios is stored yet: the trend starts with the next run.',
      ),
    );
    return section;
  }
  const series = trendSeries(t, data.pairs);
  const chart = h('div', { class: 'trend-chart' });
  const table = h('div', { class: 'trend-table' });
  let width = 0;
  const draw = (): void => {
    const shown = series.filter((s) => s.on);
    clear(table);
    table.appendChild(valuesTable(t, shown));
    if (!width) return;
    clear(chart);
    chart.appendChild(chartSvg(t, shown, width));
  };
  const legend = trendLegend(series, draw);
  const measure = (): void => {
    const w = Math.floor(chart.clientWidth);
    if (w > 0 && w !== width) {
      width = w;
      draw();
    }
  };
  if (typeof ResizeObserver === 'function') new ResizeObserver(measure).observe(chart);
  else width = 720;
  draw();
  section.append(
    chart,
    legend,
    h('details', { class: 'trend-values' }, h('summary', null, 'The values as a table'), table),
  );
  return section;
}

/** The average line first, then one line per pair; the first few pairs are drawn at first. */
function trendSeries(t: HtmlTrend, pairs: readonly HtmlPair[]): Series[] {
  return [
    { label: 'Average AXIS Result of each report', values: t.average, cls: 'tl-avg', on: true },
    ...pairs.map((p, j) => ({
      label: pairLabel(p),
      name: p.scenarioName,
      values: t.values[j] ?? [],
      cls: `tl-${j % TREND_COLOURS}${j >= TREND_COLOURS ? ' tl-dash' : ''}`,
      on: j < TREND_LINES_AT_FIRST,
    })),
  ];
}

/** One checkbox per series; changing one turns its line on or off and draws again. */
function trendLegend(series: readonly Series[], draw: () => void): HTMLElement {
  return h(
    'div',
    { class: 'trend-legend', role: 'group', 'aria-label': 'Lines in the chart' },
    series.map((s) => {
      const box = h('input', { type: 'checkbox', checked: s.on }) as HTMLInputElement;
      box.addEventListener('change', () => {
        s.on = box.checked;
        draw();
      });
      return h(
        'label',
        null,
        box,
        h('span', { class: `sw ${s.cls}`, 'aria-hidden': 'true' }),
        h('span', null, labelNodes(s)),
      );
    }),
  );
}

function trendNote(t: HtmlTrend): string {
  const n = t.reports.length;
  const cap =
    t.olderNotShown > 0
      ? `The chart shows the newest ${t.limit} stored reports at most; ${plural(t.olderNotShown, 'older report')} ${t.olderNotShown === 1 ? 'is' : 'are'} not shown.`
      : `The chart shows the newest ${t.limit} stored reports at most.`;
  return (
    `${plural(n, 'stored report')} with the scenarios of this one, oldest first (times in UTC); this report is ` +
    `the last point. A gap in a line is a report without a score for it. ${cap}`
  );
}

function pairLabel(p: HtmlPair): string {
  return `${p.scenarioName} · ${p.agentName}${p.variant ? ` (variant ${p.variant})` : ''}`;
}

/** A series' label as text, its scenario name isolated: a right-to-left name reads right to left. */
function labelNodes(s: Series): Node[] {
  if (!s.name) return breakable(s.label);
  return [h('bdi', null, breakable(s.name)), ...breakable(s.label.slice(s.name.length))];
}

function valueText(v: number | null | undefined): string {
  return typeof v === 'number' ? String(Math.round(v)) : 'no score';
}

function chartSvg(t: HtmlTrend, shown: readonly Series[], width: number): SVGElement {
  const n = t.reports.length;
  const last = n - 1;
  const plotH = TREND_HEIGHT - TREND_PAD.top - TREND_PAD.bottom;
  const desc = shown
    .map((s) => `${s.label}: ${s.values.map(valueText).join(', ')}`)
    .join('. ')
    .concat(`. Reports ${t.reports[0]!.id} to ${t.reports[last]!.id} (this report).`);
  const grid = gridLines(width);
  const xs = trendSegments(
    t.reports.map(() => 0),
    width,
  )[0]!;
  const labels = xLabels(t, xs, width);
  const lines = shown.map((s) => seriesLine(t, s, width));
  return svg(
    'svg',
    {
      class: 'trend-svg',
      width,
      height: TREND_HEIGHT,
      viewBox: `0 0 ${width} ${TREND_HEIGHT}`,
      role: 'img',
      'aria-labelledby': 'trend-svg-title trend-svg-desc',
    },
    svg('title', { id: 'trend-svg-title' }, `AXIS Result over ${plural(n, 'report')}, 0 to 100`),
    svg('desc', { id: 'trend-svg-desc' }, desc),
    grid,
    svg('line', {
      class: 'trend-now',
      x1: xs[last]!.x,
      x2: xs[last]!.x,
      y1: TREND_PAD.top,
      y2: TREND_PAD.top + plotH,
    }),
    lines,
    labels,
  );
}

/** Lines at 0, 25, 50, 75 and 100; the ones at 0, 50 and 100 labelled. */
function gridLines(width: number): SVGElement[] {
  const right = width - TREND_PAD.right;
  const plotH = TREND_HEIGHT - TREND_PAD.top - TREND_PAD.bottom;
  return [0, 25, 50, 75, 100].map((v) => {
    const y = round1(TREND_PAD.top + ((100 - v) * plotH) / 100);
    return svg(
      'g',
      { class: v % 50 === 0 ? 'trend-grid major' : 'trend-grid' },
      svg('line', { x1: TREND_PAD.left, x2: right, y1: y, y2: y }),
      v % 50 === 0 ? svg('text', { x: TREND_PAD.left - 6, y: y + 4, 'text-anchor': 'end' }, String(v)) : null,
    );
  });
}

/** The reports labelled on the x axis (trendLabelIndices); the last is this report. */
function xLabels(t: HtmlTrend, xs: readonly TrendPoint[], width: number): SVGElement[] {
  const last = t.reports.length - 1;
  return trendLabelIndices(t.reports.length, width).map((i) =>
    svg(
      'text',
      {
        class: i === last ? 'trend-x current' : 'trend-x',
        x: xs[i]!.x,
        y: TREND_HEIGHT - 12,
        'text-anchor': i === 0 ? 'start' : i === last ? 'end' : 'middle',
      },
      i === last ? 'this report' : reportLabel(t.reports[i]!.id),
    ),
  );
}

/** One series: a polyline per run of values, and a dot with its value as a tooltip at each point. */
function seriesLine(t: HtmlTrend, s: Series, width: number): SVGElement {
  const last = t.reports.length - 1;
  return svg(
    'g',
    { class: `trend-line ${s.cls}` },
    trendSegments(s.values, width).flatMap((seg) => [
      seg.length > 1
        ? svg('polyline', { points: seg.map((p) => `${p.x},${p.y}`).join(' '), fill: 'none' })
        : null,
      ...seg.map((p) =>
        svg(
          'circle',
          { cx: p.x, cy: p.y, r: p.i === last ? 4.5 : 3 },
          svg('title', null, `${s.label} in report ${t.reports[p.i]!.id}: ${valueText(p.v)}`),
        ),
      ),
    ]),
  );
}

function valuesTable(t: HtmlTrend, shown: readonly Series[]): HTMLElement {
  const last = t.reports.length - 1;
  return h(
    'table',
    { class: 'trend-values-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, 'Report'),
        shown.map((s) => h('th', { scope: 'col', class: 'num' }, labelNodes(s))),
      ),
    ),
    h(
      'tbody',
      null,
      t.reports.map((r, i) =>
        h(
          'tr',
          { class: i === last ? 'current' : null },
          h('th', { scope: 'row', class: 'mono' }, r.id, i === last ? ' (this report)' : ''),
          shown.map((s) =>
            h(
              'td',
              { class: 'num' },
              typeof s.values[i] === 'number' ? String(Math.round(s.values[i]!)) : '—',
            ),
          ),
        ),
      ),
    ),
  );
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
