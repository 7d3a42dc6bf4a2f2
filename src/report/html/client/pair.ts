/**
 * One pair's detail panel. With several runs it lists them above the breakdown; selecting a row
 * rebuilds the whole breakdown (run.ts) from that run's data, which is all in the page.
 */
import type { HtmlPair, HtmlRun } from '../model.js';
import { clear, fmtDuration, h, tooltip } from './dom.js';
import { renderRun, scoreCells, statusText } from './run.js';

const REPRESENTATIVE_HELP =
  'The run this pair reports: the run whose AXIS Result sits nearest the median of the scored runs ' +
  '(on a tie, the lower one). ' +
  'Its scores are the headline in the results table and in baselines, so the transcript and audits you ' +
  'drill into belong to the number you see. Crashed runs count against reliability instead.';

export interface PairView {
  el: HTMLElement;
  /** Show run `i` (an index into `pair.runs`). */
  showRun(i: number): void;
}

/** `onRun` hears every run the user selects (for the deep link). */
export function renderPair(
  pair: HtmlPair,
  reportId: string,
  onRun: (i: number) => void = () => {},
): PairView {
  const breakdown = h('div', { class: 'breakdown' });
  const show = (i: number): void => {
    clear(breakdown);
    breakdown.appendChild(renderRun(pair, pair.runs[i]!, reportId));
  };
  const head = h(
    'div',
    { class: 'panel-head' },
    h('h3', null, h('bdi', null, pair.scenarioName)),
    h('span', { class: 'key mono' }, pair.scenarioKey),
    h('span', { class: 'muted' }, `agent ${pair.agentName}`),
  );
  const parts: HTMLElement[] = [head];
  let select = show;
  if (pair.runs.length > 1) {
    const runs = runsTable(pair, show, onRun);
    parts.push(runs.el);
    select = runs.select;
  }
  parts.push(breakdown);
  show(pair.representative);
  return { el: h('div', { class: 'panel' }, parts), showRun: select };
}

function runsTable(
  pair: HtmlPair,
  show: (i: number) => void,
  onRun: (i: number) => void,
): { el: HTMLElement; select(i: number): void } {
  const rows: HTMLElement[] = [];
  const select = (i: number): void => {
    rows.forEach((r, j) => {
      r.classList.toggle('selected', i === j);
      r.querySelector('button')?.setAttribute('aria-pressed', String(i === j));
    });
    show(i);
  };
  const pick = (i: number): void => {
    select(i);
    onRun(i);
  };
  pair.runs.forEach((run, i) => rows.push(runRow(pair, run, i, pick)));
  return { el: runsBox(pair, rows), select };
}

/** One run's row; clicking the row or its button picks the run. */
function runRow(pair: HtmlPair, run: HtmlRun, i: number, pick: (i: number) => void): HTMLElement {
  const btn = h(
    'button',
    { type: 'button', class: 'run-btn', 'aria-pressed': String(i === pair.representative) },
    `Run ${run.index}`,
  );
  btn.addEventListener('click', (e) => {
    e.stopPropagation();
    pick(i);
  });
  const tr = h(
    'tr',
    { class: i === pair.representative ? 'selected' : null, 'data-run': run.index },
    h('td', null, btn),
    scoreCells(run),
    h('td', { class: 'num' }, fmtDuration(run.durationMs)),
    h('td', null, statusText(run)),
    h(
      'td',
      { class: 'c' },
      i === pair.representative
        ? h('span', { class: 'rep-mark', 'aria-label': 'representative run' }, '★ yes')
        : '',
    ),
  );
  tr.addEventListener('click', () => pick(i));
  return tr;
}

/** The runs' spread and reliability, above the table of runs. */
function runsBox(pair: HtmlPair, rows: HTMLElement[]): HTMLElement {
  const sp = pair.spread;
  return h(
    'div',
    { class: 'box' },
    h(
      'div',
      { class: 'muted' },
      // The words of the terminal's line under a repeated pair (pairRunsText), σ explained on hover.
      sp
        ? [
            // Over the scored runs only, so it says how many: `3 runs (2 scored): median 95`.
            `AXIS Result: ${pair.runs.length} runs (${sp.scored} scored): median ${sp.median}, range ${sp.min}–${sp.max}, `,
            h('abbr', { title: 'standard deviation' }, 'σ'),
            ` ${sp.sigma} · `,
          ]
        : '',
      pair.reliabilityText,
    ),
    h(
      'div',
      { class: 'runs-wrap' },
      h(
        'table',
        { class: 'runs' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', null, 'Run'),
            h('th', { class: 'c' }, 'AXIS'),
            h('th', { class: 'c' }, 'Goal'),
            h('th', { class: 'c' }, 'Env'),
            h('th', { class: 'c' }, 'Svc'),
            h('th', { class: 'c' }, 'Agent'),
            h('th', { class: 'num' }, 'Duration'),
            h('th', null, 'Status'),
            h('th', { class: 'c' }, tooltip('Representative', REPRESENTATIVE_HELP)),
          ),
        ),
        h('tbody', null, rows),
      ),
    ),
  );
}
