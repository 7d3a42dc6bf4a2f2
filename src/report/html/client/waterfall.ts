/**
 * Interactions over time: one bar per interaction, colored by category, positioned on the run's clock
 * (or by order when the transcript carries no timestamps). Long runs show the first rows and a
 * "show all" button. Selecting a row asks the caller to reveal it in the transcript.
 */
import type { HtmlInteraction, HtmlRun } from '../model.js';
import { fmtDuration, h, plural } from './dom.js';

const FIRST_ROWS = 30;

export function renderWaterfall(run: HtmlRun, onSelect: (ix: HtmlInteraction) => void): HTMLElement {
  const items = run.interactions;
  if (items.length === 0) return h('p', { class: 'empty' }, 'No interactions were recorded for this run.');
  const timed = items.some((ix) => typeof ix.startMs === 'number');
  let span = typeof run.durationMs === 'number' ? run.durationMs : 0;
  for (const ix of items) span = Math.max(span, (ix.startMs ?? 0) + (ix.durationMs ?? 0));
  if (span <= 0) span = 1;

  const rows = h('div', { class: 'wf' });
  const place = (ix: HtmlInteraction, i: number): [number, number] => {
    if (!timed) return [(i / items.length) * 100, 100 / items.length];
    if (typeof ix.startMs !== 'number') return [-1, 0];
    return [(ix.startMs / span) * 100, ((ix.durationMs ?? 0) / span) * 100];
  };
  const add = (from: number, to: number): void => {
    for (let i = from; i < to; i++) rows.appendChild(row(items[i]!, place(items[i]!, i), onSelect));
  };
  add(0, Math.min(FIRST_ROWS, items.length));

  const parts: HTMLElement[] = [legend(), axis(timed ? span : null), rows];
  if (items.length > FIRST_ROWS) {
    const btn = h(
      'button',
      { type: 'button', class: 'link-btn' },
      `Show all ${plural(items.length, 'interaction')}`,
    );
    btn.addEventListener('click', () => {
      add(FIRST_ROWS, items.length);
      btn.remove();
    });
    parts.push(btn);
  }
  if (!timed)
    parts.unshift(
      h(
        'p',
        { class: 'faint' },
        'This transcript has no timestamps: bars show the order of interactions, not their timing.',
      ),
    );
  return h('div', null, parts);
}

function colorOf(ix: HtmlInteraction): string {
  if (ix.type === 'error') return 'error';
  if (ix.type === 'reasoning') return 'reasoning';
  return ix.categories[0] ?? 'agent';
}

function row(
  ix: HtmlInteraction,
  [left, width]: [number, number],
  onSelect: (ix: HtmlInteraction) => void,
): HTMLElement {
  const bar = h('span', { class: `wf-bar c-${colorOf(ix)}${ix.outcome !== 'ok' ? ' failed' : ''}` });
  const track = h('span', { class: 'wf-track' });
  if (left >= 0) {
    bar.style.left = `${Math.min(left, 99.5)}%`;
    bar.style.width = `${Math.max(width, 0.4)}%`;
    track.appendChild(bar);
  }
  const outcome = ix.outcome === 'ok' ? 'ok' : ix.failure ? `${ix.outcome}: ${ix.failure}` : ix.outcome;
  const clock =
    ix.durationSource === 'received'
      ? ' (timed as AXIS received the output)'
      : ix.durationSource === 'agent'
        ? " (the agent's own timestamps)"
        : '';
  const tip = h(
    'span',
    { class: 'wf-tip', role: 'tooltip' },
    h('div', null, `#${ix.id} ${ix.label}`),
    h(
      'div',
      null,
      `Category: ${ix.categories.join(', ')}${ix.unclassified ? ' (unclassified tool)' : ''} · ${ix.type}` +
        (ix.rule ? ` · rule ${ix.rule}` : ''),
    ),
    h('div', null, `Outcome: ${outcome}`),
    h('div', null, `Duration: ${fmtDuration(ix.durationMs)}${ix.durationMs !== null ? clock : ''}`),
    typeof ix.startMs === 'number' ? h('div', null, `Started at +${fmtDuration(ix.startMs)}`) : null,
  );
  const btn = h(
    'button',
    { type: 'button', class: 'wf-row', 'data-interaction': ix.id },
    h('span', { class: 'wf-label' }, `#${ix.id} ${ix.label}`),
    track,
    h(
      'span',
      { class: 'wf-dur' },
      ix.outcome === 'ok' ? fmtDuration(ix.durationMs) : `✗ ${fmtDuration(ix.durationMs)}`,
    ),
    tip,
  );
  btn.addEventListener('click', () => onSelect(ix));
  return btn;
}

function legend(): HTMLElement {
  const item = (cls: string, text: string) => h('span', null, h('span', { class: `sw c-${cls}` }), text);
  return h(
    'div',
    { class: 'wf-legend' },
    item('environment', 'Environment'),
    item('service', 'Service'),
    item('agent', 'Agent tool'),
    item('reasoning', 'Reasoning'),
    item('error', 'Error'),
    h('span', null, 'Outlined bars failed. Select a row to open it in the transcript.'),
  );
}

function axis(span: number | null): HTMLElement {
  const ticks = h('span', { class: 'wf-ticks' });
  if (span !== null)
    for (let i = 0; i <= 4; i++) {
      const tick = h('span', null, fmtDuration((span * i) / 4));
      tick.style.left = `${i * 25}%`;
      ticks.appendChild(tick);
    }
  return h(
    'div',
    { class: 'wf-axis', 'aria-hidden': 'true' },
    h('span', null, 'Interaction'),
    ticks,
    h('span', { class: 'wf-dur' }, 'Duration'),
  );
}
