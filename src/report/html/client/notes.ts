/**
 * Setup/teardown notes arrive as HTML the report writer already sanitized. They are still not put in
 * with innerHTML: the HTML is parsed into an inert document and copied node by node through the same
 * allowlist, so a bug in either layer alone cannot run anything.
 */
import { h } from './dom.js';

const NOTE_ATTRS: Record<string, string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  b: [],
  blockquote: [],
  br: [],
  caption: [],
  code: ['class'],
  dd: [],
  del: [],
  details: ['open'],
  div: [],
  dl: [],
  dt: [],
  em: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  i: [],
  img: ['src', 'alt', 'title', 'width', 'height'],
  input: ['type', 'checked', 'disabled'],
  ins: [],
  kbd: [],
  li: [],
  mark: [],
  ol: ['start'],
  p: [],
  pre: [],
  q: [],
  s: [],
  samp: [],
  small: [],
  span: [],
  strong: [],
  sub: [],
  summary: [],
  sup: [],
  table: [],
  tbody: [],
  td: ['align', 'colspan', 'rowspan'],
  tfoot: [],
  th: ['align', 'colspan', 'rowspan'],
  thead: [],
  tr: [],
  ul: [],
};

export function renderNotes(html: string): HTMLElement {
  const root = h('div', { class: 'md' });
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  copyChildren(doc.body, root);
  return root;
}

function copyChildren(from: Node, to: Node): void {
  for (const node of Array.from(from.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) {
      to.appendChild(document.createTextNode(node.textContent ?? ''));
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const src = node as Element;
      const tag = src.tagName.toLowerCase();
      const allowed = NOTE_ATTRS[tag];
      if (!allowed) {
        if (tag !== 'script' && tag !== 'style') copyChildren(src, to);
        continue;
      }
      const el = document.createElement(tag);
      for (const name of allowed) {
        const value = src.getAttribute(name);
        if (value !== null && attrOk(tag, name, value)) el.setAttribute(name, value);
      }
      if (tag === 'a' && !el.hasAttribute('href')) {
        copyChildren(src, to);
        continue;
      }
      if (tag === 'input') {
        if (el.getAttribute('type') !== 'checkbox') continue;
        el.setAttribute('disabled', '');
      }
      if (tag === 'a' && /^https?:/i.test(el.getAttribute('href') ?? '')) {
        el.setAttribute('rel', 'noopener noreferrer nofollow');
        el.setAttribute('target', '_blank');
      }
      copyChildren(src, el);
      to.appendChild(el);
    }
  }
}

function attrOk(tag: string, name: string, value: string): boolean {
  if (name === 'href') {
    const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(value);
    return scheme ? ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase()) : !/^[^/?#]*:/.test(value);
  }
  if (name === 'src') return tag === 'img' && /^data:image\/(?:png|gif|jpeg|webp);base64,/i.test(value);
  if (name === 'class') return /^language-[\w+#-]+$/.test(value);
  return true;
}
