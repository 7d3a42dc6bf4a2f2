/**
 * Setup/teardown notes arrive as HTML the report writer already sanitized. They are still not put in
 * with innerHTML: the HTML is parsed into an inert document and copied node by node through the same
 * allowlist, so a bug in either layer alone cannot run anything.
 */
import { NOTE_TAGS } from './allowlist.js';
import { h } from './dom.js';

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
      const allowed = NOTE_TAGS[tag];
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
