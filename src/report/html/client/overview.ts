/** Header, summary cards and the run hooks' notes (the results table is in results.ts). */
import type { HtmlGate, HtmlReportData } from '../model.js';
import { fmtDuration, fmtInt, fmtTime, fmtTokens, h, lazySection, scoreChip } from './dom.js';
import { renderNotes } from './notes.js';

export function renderHeader(data: HtmlReportData): HTMLElement {
  const r = data.report;
  return h(
    'header',
    null,
    h(
      'div',
      { class: 'top' },
      h('span', { class: 'brand' }, 'AXIS'),
      // <bdi>: a right-to-left name is drawn right to left, apart from the text around it.
      h('h1', null, r.name ? [h('bdi', null, r.name), ` — report ${r.id}`] : `Report ${r.id}`),
      r.incomplete
        ? h(
            'span',
            { class: 'badge bad', title: r.incompleteReason ?? 'The run stopped before every pair finished' },
            'incomplete',
          )
        : null,
      r.afterAllError ? h('span', { class: 'badge bad', title: r.afterAllError }, 'afterAll failed') : null,
      r.shard ? h('span', { class: 'badge warn' }, `shard ${r.shard.index}/${r.shard.total}`) : null,
    ),
    h(
      'div',
      { class: 'meta' },
      h('span', null, 'Report ', h('b', { class: 'mono' }, r.id)),
      h('span', null, 'Started ', h('b', null, fmtTime(r.timestamp))),
      h('span', null, 'Duration ', h('b', null, fmtDuration(r.durationMs))),
      r.incomplete && r.incompleteReason ? h('span', null, `Incomplete: ${r.incompleteReason}`) : null,
      // Its first two lines (phase, action, exit code); the whole message, stderr included, is the badge's title.
      r.afterAllError ? h('span', null, r.afterAllError.split('\n').slice(0, 2).join(' ')) : null,
      r.shard
        ? h(
            'span',
            null,
            `Shard ${r.shard.index}/${r.shard.total}: part of a sharded run, its jobs only; ` +
              '`axis reports merge` builds the whole report',
          )
        : null,
    ),
    renderGate(r.gate),
  );
}

/** The CI gate's verdict as `axis reports <id>` prints it; nothing for a report without one. */
function renderGate(g: HtmlGate | undefined): HTMLElement | null {
  if (!g) return null;
  return h(
    'section',
    { class: 'gate', 'aria-label': 'CI gate' },
    h('span', { class: `badge ${g.pass ? 'good' : 'bad'}` }, g.line),
    g.failures.length > 0 ? h('ul', null, ...g.failures.map((f) => h('li', null, f))) : null,
  );
}

/** `2 completed · 0 failed · 1 cancelled · 1 skipped`: the counts `axis run` and `axis reports` show. */
function counts(c: { completed?: number; failed: number; cancelled: number; skipped?: number }): string {
  return [
    c.completed !== undefined ? `${c.completed} completed` : null,
    `${c.failed} failed`,
    c.cancelled ? `${c.cancelled} cancelled` : null,
    c.skipped ? `${c.skipped} skipped` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function renderSummary(data: HtmlReportData): HTMLElement {
  const s = data.summary;
  const missing = noAverage(data);
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
    card(
      'Average AXIS Result',
      scoreChip(s.averageAxisScore, missing[0]),
      s.averageAxisScore === null ? missing[1] : overPairs(s.scoredPairs),
    ),
    card('Pairs', fmtInt(s.pairs.total), counts(s.pairs)),
    card('Runs', fmtInt(s.runs.total), [counts(s.runs), s.reliabilityText].filter(Boolean).join(' · ')),
    card('Tokens', fmtTokens(s.totalTokens), 'input + output + cache, all runs'),
    card('Cost', s.cost.value, s.cost.note),
  );
}

/**
 * Why there is no average, in `axis reports`' words: "unscored" means a judge failed, so it is not
 * the word for a --no-score report or one where no run completed.
 */
function noAverage(data: HtmlReportData): [string, string] {
  const shown = data.pairs.map((p) => p.runs[p.representative]?.status);
  if (shown.includes('completed') && !shown.includes('scored') && !shown.includes('unscored'))
    return ['not scored', 'run with --no-score; `axis score` scores it'];
  if (!shown.some((st) => st === 'completed' || st === 'scored' || st === 'unscored'))
    return ['none', 'no run completed'];
  return ['none', 'no pair was scored'];
}

/** An average over 1 pair of 3 must say so: `over scored pairs (1 scored, 2 unscored, 0 failed)`. */
function overPairs(p: HtmlReportData['summary']['scoredPairs']): string {
  return p
    ? `over scored pairs (${p.scored} scored, ${p.unscored} unscored, ${p.failed} failed)`
    : 'over scored pairs';
}

/** The config's beforeAll/afterAll notes, closed until opened, as a run's setup notes are. */
export function renderRunNotes(data: HtmlReportData): HTMLElement | null {
  const notes = data.report.notes;
  if (!notes?.beforeAllHtml && !notes?.afterAllHtml) return null;
  const part = (title: string, name: string, html: string | undefined) => {
    if (!html) return null;
    const el = lazySection(title, null, () => renderNotes(html));
    el.setAttribute('data-section', name);
    return el;
  };
  return h(
    'section',
    { class: 'run-notes', 'aria-label': 'Run notes' },
    part('beforeAll notes', 'beforeall-notes', notes.beforeAllHtml),
    part('afterAll notes', 'afterall-notes', notes.afterAllHtml),
  );
}
