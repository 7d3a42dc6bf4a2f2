/**
 * The results table: one row per scenario × agent pair, sortable by any column (header buttons,
 * aria-sort), filterable by text and status, and linked to the location hash (link.ts) so a pair and
 * run can be shared and restored.
 */
import type { HtmlPair, HtmlReportData } from '../model.js';
import { breakable, fmtCost, fmtDuration, fmtInt, fmtTokens, h, plural } from './dom.js';
import { pairKey, parseLink, resolveLink, writeLink } from './link.js';
import { renderPair, type PairView } from './pair.js';
import { scoreCells, statusText } from './run.js';
import { matches, sortedOrder, type Filter, type SortDir, type SortKey } from './sort.js';

interface Column {
  key: SortKey;
  label: string;
  col: string;
  cls?: string;
  title?: string;
}

const COLUMNS: Column[] = [
  { key: 'scenario', label: 'Scenario', col: 'scenario' },
  { key: 'agent', label: 'Agent', col: 'agent' },
  { key: 'axis', label: 'AXIS', col: 's', cls: 'c', title: 'AXIS Result of the representative run' },
  { key: 'goal', label: 'Goal', col: 's', cls: 'c', title: 'Goal achievement' },
  { key: 'environment', label: 'Env', col: 's', cls: 'c', title: 'Environment' },
  { key: 'service', label: 'Svc', col: 's', cls: 'c', title: 'Service' },
  { key: 'agentScore', label: 'Agent', col: 's', cls: 'c', title: 'Agent (dimension)' },
  { key: 'duration', label: 'Duration', col: 'dur', cls: 'num' },
  { key: 'tokens', label: 'Tokens', col: 'tok', cls: 'num', title: 'Input + output + cache tokens' },
  { key: 'cost', label: 'Cost', col: 'cost', cls: 'num' },
  { key: 'status', label: 'Status', col: 'status' },
];

interface PairRow {
  row: HTMLElement;
  detail: HTMLElement;
  /** Open the pair's detail, on run `run` (index into runs) when given. */
  open(run: number | null): void;
}

export function renderResults(data: HtmlReportData): HTMLElement {
  const tbody = h('tbody');
  const rows = data.pairs.map((pair, i) => pairRow(pair, i, data.report.id));
  const empty = emptyRow(data.pairs.length);
  const count = h('span', { class: 'muted', 'aria-live': 'polite' });
  const filter: Filter = { text: '', status: '' };
  let sort: { key: SortKey; dir: SortDir } | null = null;
  const { heads, agentSort } = sortButtons((key) => {
    sort = { key, dir: sort?.key === key && sort.dir === 'asc' ? 'desc' : 'asc' };
    draw();
  });

  const draw = (): void => {
    const order = sort ? sortedOrder(data.pairs, sort.key, sort.dir) : data.pairs.map((_, i) => i);
    let shown = 0;
    for (const i of order) {
      const r = rows[i]!;
      const match = matches(data.pairs[i]!, filter);
      r.row.hidden = !match;
      r.detail.classList.toggle('filtered', !match);
      if (match) shown++;
      tbody.append(r.row, r.detail);
    }
    tbody.append(empty);
    empty.hidden = shown > 0;
    count.textContent =
      shown === data.pairs.length
        ? plural(data.pairs.length, 'pair')
        : `${shown} of ${plural(data.pairs.length, 'pair')}`;
    heads.forEach((th, j) => {
      const active = sort?.key === COLUMNS[j]!.key;
      th.setAttribute('aria-sort', active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none');
    });
    agentSort.setAttribute('data-sorted', sort?.key === 'agent' ? sort.dir : '');
  };

  const filters = filterControls(data.pairs, filter, draw);
  const restore = (): void => {
    const link = parseLink(location.hash);
    const target = link && resolveLink(link, data.pairs);
    if (!target) return;
    rows[target.pair]!.open(target.run);
    rows[target.pair]!.row.scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', restore);
  draw();
  // After the caller has put the table in the document, so scrolling to the pair works.
  queueMicrotask(restore);
  return resultsSection(heads, tbody, h('div', { class: 'filters' }, ...filters, count));
}

/** The row shown when no pair is (or none matches the filter). */
function emptyRow(pairs: number): HTMLElement {
  return h(
    'tr',
    { class: 'empty-row', hidden: pairs > 0 },
    h(
      'td',
      { colspan: COLUMNS.length, class: 'empty' },
      pairs ? 'No pair matches the filter.' : 'This report has no results.',
    ),
  );
}

/** A sort button per column header, and one for the agent under the scenario on narrow windows. */
function sortButtons(sortBy: (key: SortKey) => void): { heads: HTMLElement[]; agentSort: HTMLElement } {
  const heads = COLUMNS.map((c) => {
    const btn = h('button', { type: 'button', class: 'sort', title: c.title ?? null }, c.label);
    const th = h('th', { class: c.cls ?? null, scope: 'col', 'aria-sort': 'none', 'data-sort': c.key }, btn);
    btn.addEventListener('click', () => sortBy(c.key));
    return th;
  });
  // Narrow windows show the agent under the scenario (styles.ts); this button sorts by it there.
  const agentSort = h('button', { type: 'button', class: 'sort', 'aria-label': 'Sort by agent' }, 'Agent');
  agentSort.addEventListener('click', () => sortBy('agent'));
  heads[0]!.appendChild(h('span', { class: 'sort-inline' }, '/', agentSort));
  return { heads, agentSort };
}

/** The text filter and the status filter; each change updates `filter` and redraws. */
function filterControls(pairs: HtmlPair[], filter: Filter, draw: () => void): HTMLElement[] {
  const text = h('input', {
    type: 'search',
    class: 'filter-text',
    placeholder: 'Filter by scenario or agent',
    'aria-label': 'Filter by scenario or agent',
  }) as HTMLInputElement;
  text.addEventListener('input', () => {
    filter.text = text.value;
    draw();
  });
  const statuses = [...new Set(pairs.map((p) => p.runs[p.representative]!.status))].sort();
  const status = h(
    'select',
    { class: 'filter-status', 'aria-label': 'Filter by status' },
    h('option', { value: '' }, 'All statuses'),
    statuses.map((s) => h('option', { value: s }, s)),
  ) as HTMLSelectElement;
  status.addEventListener('change', () => {
    filter.status = status.value;
    draw();
  });
  return [text, status];
}

function resultsSection(heads: HTMLElement[], tbody: HTMLElement, filters: HTMLElement): HTMLElement {
  const table = h(
    'table',
    { class: 'results' },
    h(
      'colgroup',
      null,
      COLUMNS.map((c) => h('col', { class: `col-${c.col}` })),
    ),
    h('thead', null, h('tr', null, heads)),
    tbody,
  );
  const wrap = h('div', { class: 'table-wrap' }, table);
  const outer = h('div', { class: 'table-outer' }, wrap);
  return h(
    'section',
    { 'aria-label': 'Results' },
    h('h2', null, 'Results'),
    filters,
    scrollHint(outer, wrap, table),
    outer,
  );
}

/**
 * Shown only while the table is wider than its box (a long unbreakable name, a very narrow window):
 * says that more columns are to the right, and the box gets a shadow on the side that scrolls.
 */
function scrollHint(outer: HTMLElement, wrap: HTMLElement, table: HTMLElement): HTMLElement {
  const hint = h(
    'p',
    { class: 'scroll-hint', hidden: true },
    'The table is wider than the window: scroll it sideways to see every column →',
  );
  const check = (): void => {
    const more = wrap.scrollWidth - wrap.clientWidth > 1;
    hint.hidden = !more;
    outer.classList.toggle('scrolls', more);
    outer.classList.toggle('at-end', wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 1);
  };
  wrap.addEventListener('scroll', check, { passive: true });
  if (typeof ResizeObserver === 'function') {
    const ro = new ResizeObserver(check);
    ro.observe(wrap);
    ro.observe(table);
  }
  return hint;
}

function pairRow(pair: HtmlPair, i: number, reportId: string): PairRow {
  const panelId = `pair-${i}`;
  const btn = discloseButton(pair, panelId);
  const row = pairCells(pair, i, btn);
  const cell = h('td', { colspan: COLUMNS.length });
  const detail = h('tr', { class: 'detail-row', id: panelId, hidden: true }, cell);
  const key = pairKey(pair);
  let view: PairView | null = null;
  let shownRun = pair.representative;
  const link = (): void => writeLink({ pair: key, run: pair.runs[shownRun]!.index });
  const build = (): PairView => {
    view ??= renderPair(pair, reportId, (j) => {
      shownRun = j;
      link();
    });
    if (!cell.firstChild) cell.appendChild(view.el);
    return view;
  };
  const setOpen = (open: boolean): void => {
    if (open) build();
    detail.hidden = !open;
    row.classList.toggle('open', open);
    btn.setAttribute('aria-expanded', String(open));
  };
  const toggle = (): void => {
    const open = detail.hidden;
    setOpen(open);
    if (open) link();
    else if (parseLink(location.hash)?.pair === key) writeLink(null);
  };
  btn.addEventListener('click', (e) => {
    e.stopPropagation();
    toggle();
  });
  row.addEventListener('click', toggle);
  return {
    row,
    detail,
    open: (j) => {
      setOpen(true);
      if (j !== null && j !== shownRun) {
        shownRun = j;
        build().showRun(j);
      }
    },
  };
}

/** The scenario's name (and its key when they differ): the button that opens the pair's detail. */
function discloseButton(pair: HtmlPair, panelId: string): HTMLElement {
  return h(
    'button',
    { type: 'button', class: 'disclose', 'aria-expanded': 'false', 'aria-controls': panelId },
    h(
      'span',
      null,
      h('bdi', null, breakable(pair.scenarioName)),
      pair.scenarioName !== pair.scenarioKey
        ? h('div', { class: 'key mono' }, breakable(pair.scenarioKey))
        : null,
    ),
  );
}

/** The pair's row of cells, from its representative run. */
function pairCells(pair: HtmlPair, i: number, btn: HTMLElement): HTMLElement {
  const run = pair.runs[pair.representative]!;
  const status = statusText(run);
  if (pair.runs.length > 1)
    status.appendChild(h('div', { class: 'reason' }, `${pair.runs.length} runs · ${pair.reliabilityText}`));
  const tokens = run.tokens ? run.tokens.total : null;
  return h(
    'tr',
    { class: 'pair-row', 'data-pair': i },
    h('td', { class: 'name' }, btn, h('div', { class: 'agent-inline mono' }, breakable(pair.agentName))),
    h('td', { class: 'name mono' }, breakable(pair.agentName)),
    scoreCells(run),
    h('td', { class: 'num' }, fmtDuration(run.durationMs)),
    h(
      'td',
      {
        class: 'num',
        title: run.tokens
          ? `input ${fmtInt(run.tokens.input)} (cache writes ${fmtInt(run.tokens.cacheWrite)}) · output ${fmtInt(run.tokens.output)} · cache read ${fmtInt(run.tokens.cacheRead)}`
          : null,
      },
      fmtTokens(tokens),
    ),
    h('td', { class: 'num' }, run.simulated ? 'simulated' : fmtCost(run.costUsd)),
    h('td', null, status),
  );
}
