/**
 * DOM helpers and formatters for the report page. Elements are built with createElement and text goes
 * in as text nodes only: no markup string from the data ever reaches the parser.
 */

export type Child = Node | string | number | null | undefined | false;
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h(tag: string, attrs: Attrs | null = null, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (typeof value === 'function') el.addEventListener(key.slice(2), value);
      else if (key === 'class') el.className = String(value);
      else el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (attributes as text, children as for `h`). */
export function svg(
  tag: string,
  attrs: Record<string, string | number | null | undefined> | null = null,
  ...children: (Child | Child[])[]
): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs ?? {}))
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  append(el, children);
  return el;
}

export function append(el: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Text with a line-break opportunity (<wbr>) after each `/`, `_` and `.`, so names wrap there. */
export function breakable(text: string): Node[] {
  const out: Node[] = [];
  for (const part of text.split(/(?<=[/_.])/)) {
    if (out.length) out.push(document.createElement('wbr'));
    out.push(document.createTextNode(part));
  }
  return out;
}

export function clear(el: Node): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** `1 file`, `2 files`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function scoreClass(score: number): string {
  if (score >= 90) return 'good';
  if (score >= 80) return 'fair';
  if (score >= 70) return 'warn';
  return 'bad';
}

/** A score chip; `n/a`, `unscored` or `failed` instead of a number when there is none. */
export function scoreChip(score: number | null | undefined, missing = 'n/a', title?: string): HTMLElement {
  if (typeof score !== 'number') return h('span', { class: 'score s-na', title: title ?? null }, missing);
  return h(
    'span',
    { class: `score s-${scoreClass(score)}`, title: title ?? null },
    String(Math.round(score)),
  );
}

/** A horizontal bar filled to `score` percent. */
export function scoreBar(score: number | null, label: string): HTMLElement {
  const fill = h('span');
  if (typeof score === 'number') {
    fill.className = `f-${scoreClass(score)}`;
    fill.style.width = `${Math.max(0, Math.min(100, score))}%`;
  }
  return h(
    'div',
    {
      class: 'bar',
      role: 'meter',
      'aria-label': label,
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': typeof score === 'number' ? Math.round(score) : null,
    },
    fill,
  );
}

/** A label with a hover/focus tooltip (keyboard reachable). */
export function tooltip(label: string, text: string): HTMLElement {
  const body = h('span', { class: 'tip-body', role: 'tooltip' }, text);
  return h(
    'span',
    { class: 'tip', tabindex: 0, 'aria-label': `${label}: ${text}` },
    label,
    h('span', { class: 'tip-icon', 'aria-hidden': 'true' }, '?'),
    body,
  );
}

export function fmtDuration(ms: number | null | undefined): string {
  if (typeof ms !== 'number') return '—';
  // Rounded once, to the unit shown, as the terminal's (src/report/format.ts): never `1m 60s`.
  if (ms < 999.5) return `${Math.round(ms)}ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

export function fmtInt(n: number | null | undefined): string {
  if (typeof n !== 'number') return '—';
  return Math.round(n).toLocaleString('en-US');
}

export function fmtTokens(n: number | null | undefined): string {
  if (typeof n !== 'number') return '—';
  // Rounded once, to the unit shown: 999,950 is `1.00M`, never `1000.0k`.
  if (n >= 999_950) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return fmtInt(n);
}

export function fmtCost(usd: number | null | undefined): string {
  if (typeof usd !== 'number') return '—';
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * `2026-12-05 18:22:26 UTC`, as `axis reports` prints it: in the viewer's own zone, unnamed, it read
 * as a different time from the terminal's and the trend's.
 */
export function fmtTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export const CATEGORY_LABEL: Record<string, string> = {
  goal: 'Goal achievement',
  environment: 'Environment',
  service: 'Service',
  agent: 'Agent',
};

/** A collapsible section whose body is built the first time it opens. */
export function lazySection(
  title: string,
  count: string | null,
  build: () => Node,
  open = false,
): HTMLDetailsElement {
  const body = h('div', { class: 'section-body' });
  const details = h(
    'details',
    { class: 'section' },
    h('summary', null, title, count ? h('span', { class: 'count' }, count) : null),
    body,
  ) as HTMLDetailsElement;
  let built = false;
  const ensure = (): void => {
    if (built || !details.open) return;
    built = true;
    body.appendChild(build());
  };
  details.addEventListener('toggle', ensure);
  if (open) {
    details.open = true;
    ensure();
  }
  return details;
}
