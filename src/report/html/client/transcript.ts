/**
 * The run's transcript: built only when its section opens, in chunks (a long run has thousands of
 * events), long bodies folded behind a button.
 */
import type { HtmlEvent, HtmlRun } from '../model.js';
import { fmtDuration, h } from './dom.js';

const CHUNK = 150;
const FOLD_CHARS = 2_000;

export interface TranscriptView {
  root: HTMLElement;
  /** Render up to `index` and return that event's element. */
  reveal(index: number): HTMLElement | null;
}

export function renderTranscript(run: HtmlRun): TranscriptView {
  const list = h('div', { class: 'events' });
  const more = h('button', { type: 'button', class: 'link-btn' });
  const root = h('div', null, list, more);
  const els: HTMLElement[] = [];
  const names = new Map<string, string>();
  for (const ev of run.events) if (ev.kind === 'tool_call' && ev.callId) names.set(ev.callId, ev.name ?? '');

  const renderUpTo = (end: number): void => {
    const stop = Math.min(end, run.events.length);
    for (let i = els.length; i < stop; i++) {
      const el = eventView(run.events[i]!, i, names);
      els.push(el);
      list.appendChild(el);
    }
    const left = run.events.length - els.length;
    more.hidden = left === 0;
    more.textContent = `Show ${Math.min(CHUNK, left)} more events (${left} remaining)`;
  };
  more.addEventListener('click', () => renderUpTo(els.length + CHUNK));
  if (run.events.length === 0)
    list.appendChild(h('p', { class: 'empty' }, 'No transcript was captured for this run.'));
  renderUpTo(CHUNK);
  return {
    root,
    reveal(index) {
      if (index >= els.length) renderUpTo(index + 1);
      return els[index] ?? null;
    },
  };
}

function eventView(ev: HtmlEvent, i: number, names: Map<string, string>): HTMLElement {
  const kind = ev.kind.replace(/[^a-z_]/g, '');
  const cls = `ev ev-${kind}${ev.isError ? ' is-error' : ''}`;
  const head = h(
    'div',
    { class: 'ev-head' },
    h('span', { class: 'ev-kind' }, label(ev)),
    ev.name ? h('span', { class: 'mono' }, ev.name) : null,
    ev.kind === 'tool_result' && ev.callId && names.has(ev.callId)
      ? h('span', { class: 'mono faint' }, `← ${names.get(ev.callId)}`)
      : null,
    ev.exitCode !== undefined ? h('span', null, `exit ${ev.exitCode}`) : null,
    h('span', { class: 'faint' }, `#${i + 1}`),
    typeof ev.t === 'number' ? h('span', { class: 'faint' }, `+${fmtDuration(ev.t)}`) : null,
  );
  const body = ev.kind === 'tool_call' ? ev.input : ev.kind === 'tool_result' ? ev.output : ev.text;
  const el = h('div', { class: cls, 'data-event': i }, head);
  // A shortened text carries its own marker where the cut is (events.ts).
  if (body) el.appendChild(foldable(body));
  return el;
}

function label(ev: HtmlEvent): string {
  switch (ev.kind) {
    case 'tool_call':
      return 'tool call';
    case 'tool_result':
      return ev.isError ? 'tool error' : 'tool result';
    case 'text':
      return 'assistant';
    default:
      return ev.kind;
  }
}

function foldable(text: string): HTMLElement {
  const pre = h('pre');
  if (text.length <= FOLD_CHARS) {
    pre.textContent = text;
    return pre;
  }
  pre.textContent = `${text.slice(0, FOLD_CHARS)}…`;
  const btn = h(
    'button',
    { type: 'button', class: 'link-btn' },
    `Show all ${text.length.toLocaleString('en-US')} characters`,
  );
  btn.addEventListener('click', () => {
    pre.textContent = text;
    btn.remove();
  });
  return h('div', null, pre, btn);
}
