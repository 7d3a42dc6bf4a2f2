/** Header, summary cards and the results table (one row per scenario × agent pair). */
import type { HtmlPair, HtmlReportData } from '../model.js';
import { fmtCost, fmtDuration, fmtInt, fmtTime, fmtTokens, h, scoreChip } from './dom.js';
import { composite, dimChip, renderPair, statusText } from './pair.js';

const COLUMNS = 11;

export function renderHeader(data: HtmlReportData): HTMLElement {
  const r = data.report;
  return h(
    'header',
    null,
    h(
      'div',
      { class: 'top' },
      h('span', { class: 'brand' }, 'AXIS'),
      h('h1', null, r.name ? `${r.name} — report ${r.id}` : `Report ${r.id}`),
      r.incomplete
        ? h(
            'span',
            { class: 'badge bad', title: r.incompleteReason ?? 'The run stopped before every pair finished' },
            'incomplete',
          )
        : null,
    ),
    h(
      'div',
      { class: 'meta' },
      h('span', null, 'Report ', h('b', { class: 'mono' }, r.id)),
      h('span', null, 'Started ', h('b', null, fmtTime(r.timestamp))),
      h('span', null, 'Duration ', h('b', null, fmtDuration(r.durationMs))),
      r.incomplete && r.incompleteReason ? h('span', null, `Incomplete: ${r.incompleteReason}`) : null,
    ),
  );
}

export function renderSummary(data: HtmlReportData): HTMLElement {
  const s = data.summary;
  const card = (label: string, value: Node | string, sub: string | null) =>
    h(
      'div',
      { class: 'card' },
      h('div', { class: 'label' }, label),
      h('div', { class: 'value' }, value),
      sub ? h('div', { class: 'note' }, sub) : null,
    );
  return h(
    'section',
    { class: 'cards', 'aria-label': 'Summary' },
    card('Average AXIS Result', scoreChip(s.averageAxisScore, 'unscored'), 'over scored pairs'),
    card('Pairs', fmtInt(s.pairs.total), `${s.pairs.completed} completed · ${s.pairs.failed} failed`),
    card('Runs', fmtInt(s.runs.total), `${s.runs.failed} failed`),
    card('Tokens', fmtTokens(s.totalTokens), 'input + output, all runs'),
    card('Cost', fmtCost(s.totalCostUsd), 'all runs'),
  );
}

export function renderResults(data: HtmlReportData): HTMLElement {
  const tbody = h('tbody');
  data.pairs.forEach((pair, i) => {
    for (const tr of pairRows(pair, i, data.report.id)) tbody.appendChild(tr);
  });
  if (data.pairs.length === 0)
    tbody.appendChild(
      h('tr', null, h('td', { colspan: COLUMNS, class: 'empty' }, 'This report has no results.')),
    );
  const th = (text: string, cls: string | null = null, title: string | null = null) =>
    h('th', { class: cls, title, scope: 'col' }, text);
  return h(
    'section',
    { 'aria-label': 'Results' },
    h('h2', null, 'Results'),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'results' },
        h(
          'colgroup',
          null,
          ['scenario', 'agent', 's', 's', 's', 's', 's', 'dur', 'tok', 'cost', 'status'].map((c) =>
            h('col', { class: `col-${c}` }),
          ),
        ),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            th('Scenario'),
            th('Agent'),
            th('AXIS', 'c', 'Composite AXIS Result of the representative run'),
            th('Goal', 'c', 'Goal achievement'),
            th('Env', 'c', 'Environment'),
            th('Svc', 'c', 'Service'),
            th('Agent', 'c', 'Agent'),
            th('Duration', 'num'),
            th('Tokens', 'num', 'Input + output tokens'),
            th('Cost', 'num'),
            th('Status'),
          ),
        ),
        tbody,
      ),
    ),
  );
}

function pairRows(pair: HtmlPair, i: number, reportId: string): HTMLElement[] {
  const run = pair.runs[pair.representative]!;
  const s = run.scores;
  const panelId = `pair-${i}`;
  const btn = h(
    'button',
    { type: 'button', class: 'disclose', 'aria-expanded': 'false', 'aria-controls': panelId },
    h(
      'span',
      null,
      pair.scenarioName,
      pair.scenarioName !== pair.scenarioKey ? h('div', { class: 'key mono' }, pair.scenarioKey) : null,
    ),
  );
  const status = statusText(run);
  if (pair.runs.length > 1)
    status.appendChild(h('div', { class: 'reason' }, `${pair.runs.length} runs · ${pair.reliabilityText}`));
  const tokens = run.tokens ? run.tokens.input + run.tokens.output : null;
  const row = h(
    'tr',
    { class: 'pair-row', 'data-pair': i },
    h('td', null, btn),
    h('td', { class: 'mono' }, pair.agentName),
    h('td', { class: 'c' }, composite(run)),
    h('td', { class: 'c' }, dimChip(s?.goal, run)),
    h('td', { class: 'c' }, dimChip(s?.environment, run)),
    h('td', { class: 'c' }, dimChip(s?.service, run)),
    h('td', { class: 'c' }, dimChip(s?.agent, run)),
    h('td', { class: 'num' }, fmtDuration(run.durationMs)),
    h(
      'td',
      {
        class: 'num',
        title: run.tokens
          ? `input ${fmtInt(run.tokens.input)} · output ${fmtInt(run.tokens.output)} · cache read ${fmtInt(run.tokens.cacheRead)}`
          : null,
      },
      fmtTokens(tokens),
    ),
    h('td', { class: 'num' }, run.simulated ? 'simulated' : fmtCost(run.costUsd)),
    h('td', null, status),
  );
  const cell = h('td', { colspan: COLUMNS });
  const detail = h('tr', { class: 'detail-row', id: panelId, hidden: true }, cell);
  let built = false;
  const toggle = (): void => {
    const open = detail.hidden;
    if (open && !built) {
      built = true;
      cell.appendChild(renderPair(pair, reportId));
    }
    detail.hidden = !open;
    row.classList.toggle('open', open);
    btn.setAttribute('aria-expanded', String(open));
  };
  btn.addEventListener('click', (e) => {
    e.stopPropagation();
    toggle();
  });
  row.addEventListener('click', toggle);
  return [row, detail];
}
