/**
 * Allowlist HTML sanitizer for notes rendered from markdown. The input is never trusted: it is
 * tokenized here and re-serialized from scratch, so only allowlisted tags and attributes leave, every
 * attribute value is quoted and escaped, text can never open a tag, and output tags are balanced.
 * URL attributes are checked on exactly the string the browser will see (entities decoded, controls
 * removed, then re-escaped), so `&#106;avascript:` or `java\tscript:` cannot slip through.
 */
import { NOTE_TAGS } from './client/allowlist.js';

/** Global attributes allowed on every kept tag. */
const GLOBAL_ATTRS = ['title', 'lang'];

const VOID = new Set(['br', 'hr', 'img', 'input']);

/** Dropped together with everything up to their closing tag. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'textarea',
  'title',
  'xmp',
  'plaintext',
  'svg',
  'math',
  'select',
  'head',
]);

const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_DATA = /^data:image\/(?:png|gif|jpeg|webp);base64,[a-z0-9+/=\s]*$/i;
const NUMERIC_ATTR = /^\d{1,4}$/;
const ALIGN = new Set(['left', 'right', 'center']);
const CODE_CLASS = /^language-[\w+#-]{1,40}$/;

/** Sanitize untrusted HTML to a safe, balanced fragment. */
export function sanitizeHtml(input: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let i = 0;
  const n = input.length;

  while (i < n) {
    const lt = input.indexOf('<', i);
    if (lt === -1) {
      out.push(escapeText(input.slice(i)));
      break;
    }
    if (lt > i) out.push(escapeText(input.slice(i, lt)));
    i = lt;

    if (input.startsWith('<!--', i)) {
      const end = input.indexOf('-->', i + 4);
      i = end === -1 ? n : end + 3;
      continue;
    }
    const next = input[i + 1] ?? '';
    if (next === '!' || next === '?') {
      // Doctype, CDATA, processing instruction: dropped.
      const end = input.indexOf('>', i);
      i = end === -1 ? n : end + 1;
      continue;
    }

    const tag = readTag(input, i);
    if (!tag) {
      out.push('&lt;');
      i += 1;
      continue;
    }
    i = tag.end;

    if (DROP_WITH_CONTENT.has(tag.name)) {
      if (!tag.closing) i = skipPast(input, i, tag.name);
      continue;
    }
    const allowed = NOTE_TAGS[tag.name];
    if (!allowed) continue;

    if (tag.closing) {
      const at = open.lastIndexOf(tag.name);
      if (at === -1) continue;
      while (open.length > at) out.push(`</${open.pop()!}>`);
      continue;
    }
    const html = openTag(tag.name, tag.attrs, allowed);
    if (html === null) continue;
    out.push(html);
    if (!VOID.has(tag.name)) open.push(tag.name);
  }
  while (open.length > 0) out.push(`</${open.pop()!}>`);
  return out.join('');
}

interface Tag {
  name: string;
  closing: boolean;
  attrs: [string, string | null][];
  /** Index just past the tag's `>`. */
  end: number;
}

/** Parse a tag starting at `<`; null when it is not a complete tag (then `<` is text). */
function readTag(s: string, start: number): Tag | null {
  let i = start + 1;
  const closing = s[i] === '/';
  if (closing) i++;
  const m = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(s.slice(i, i + 64));
  if (!m) return null;
  const name = m[0].toLowerCase();
  i += m[0].length;
  const attrs: [string, string | null][] = [];
  while (i < s.length) {
    const c = s[i]!;
    if (c === '>') return { name, closing, attrs, end: i + 1 };
    if (isSpace(c) || c === '/') {
      i++;
      continue;
    }
    let j = i;
    // The browser lets an attribute name start with `=` and contain quotes; only `>`, `/` and space end it.
    while (j < s.length && !isSpace(s[j]!) && s[j] !== '>' && s[j] !== '/' && (j === i || s[j] !== '=')) j++;
    const attrName = s.slice(i, j).toLowerCase();
    i = j;
    while (i < s.length && isSpace(s[i]!)) i++;
    if (s[i] !== '=') {
      attrs.push([attrName, null]);
      continue;
    }
    i++;
    while (i < s.length && isSpace(s[i]!)) i++;
    const q = s[i];
    if (q === '"' || q === "'") {
      const close = s.indexOf(q, i + 1);
      if (close === -1) return null;
      attrs.push([attrName, s.slice(i + 1, close)]);
      i = close + 1;
    } else {
      let k = i;
      while (k < s.length && !isSpace(s[k]!) && s[k] !== '>') k++;
      attrs.push([attrName, s.slice(i, k)]);
      i = k;
    }
  }
  return null;
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
}

/** Index just past `</name ...>`, or the end of input when it never closes. */
function skipPast(s: string, from: number, name: string): number {
  const re = new RegExp(`</${name}[\\s/>]`, 'ig');
  re.lastIndex = from;
  const m = re.exec(s);
  if (!m) return s.length;
  const end = s.indexOf('>', m.index);
  return end === -1 ? s.length : end + 1;
}

/** The tag re-serialized from its allowed attributes; null drops the tag (its content stays). */
function openTag(
  name: string,
  attrs: readonly [string, string | null][],
  allowed: readonly string[],
): string | null {
  const kept = new Map<string, string>();
  for (const [attr, raw] of attrs) {
    if (kept.has(attr)) continue; // the browser keeps the first of duplicate attributes
    if (!allowed.includes(attr) && !GLOBAL_ATTRS.includes(attr)) continue;
    const value = attrValue(name, attr, raw);
    if (value !== null) kept.set(attr, value);
  }
  if (name === 'img' && !kept.has('src')) return kept.has('alt') ? escapeText(kept.get('alt')!) : '';
  if (name === 'a' && !kept.has('href')) return null; // a link whose target was refused is plain text
  if (name === 'input') {
    if (kept.get('type') !== 'checkbox') return '';
    kept.set('disabled', '');
  }
  if (name === 'a' && /^https?:/i.test(kept.get('href') ?? '')) {
    kept.set('rel', 'noopener noreferrer nofollow');
    kept.set('target', '_blank');
  }
  let out = `<${name}`;
  for (const [attr, value] of kept) out += value === '' ? ` ${attr}` : ` ${attr}="${escapeAttr(value)}"`;
  return `${out}>`;
}

/** The attribute's decoded value if it is allowed as written, else null. */
function attrValue(tag: string, attr: string, raw: string | null): string | null {
  const value = decodeEntities(raw ?? '');
  switch (attr) {
    case 'href':
      return safeLink(value);
    case 'src':
      return tag === 'img' ? safeImage(value) : null;
    case 'class':
      return CODE_CLASS.test(value) ? value : null;
    case 'width':
    case 'height':
    case 'colspan':
    case 'rowspan':
    case 'start':
      return NUMERIC_ATTR.test(value.trim()) ? value.trim() : null;
    case 'align':
      return ALIGN.has(value.trim().toLowerCase()) ? value.trim().toLowerCase() : null;
    case 'type':
      return value.trim().toLowerCase();
    case 'checked':
    case 'disabled':
    case 'open':
      return '';
    case 'lang':
      return /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/.test(value) ? value : null;
    default:
      return value;
  }
}

/** http(s), mailto, or a relative reference (no scheme). */
export function safeLink(value: string): string | null {
  const url = stripControls(value);
  if (url === '') return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (scheme) return LINK_SCHEMES.has(scheme[1]!.toLowerCase()) ? url : null;
  // Anything with a colon before the first path/query/fragment delimiter would be read as a scheme.
  const head = url.split(/[/?#]/, 1)[0]!;
  return head.includes(':') ? null : url;
}

/** Only inline raster images: remote ones would be blocked by the page's CSP anyway. */
function safeImage(value: string): string | null {
  const url = stripControls(value);
  return IMAGE_DATA.test(url) ? url : null;
}

/** Browsers drop ASCII tab/newline anywhere in a URL and C0 controls/space at its ends; drop all. */
function stripControls(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]/g, '');
}

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
  excl: '!',
  num: '#',
  percnt: '%',
  equals: '=',
  quest: '?',
  semi: ';',
  bsol: '\\',
  grave: '`',
};

/**
 * Decode character references. Unknown named references stay as written; since the output escapes
 * every `&`, the browser then reads exactly the string checked here.
 */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return '\ufffd';
      return String.fromCodePoint(code);
    }
    const named = NAMED[ref.toLowerCase()];
    return named ?? whole;
  });
}

const VALID_REF = /^&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/;

/** Text: `<`/`>` escaped; `&` kept only when it starts a well-formed character reference. */
export function escapeText(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '<') out += '&lt;';
    else if (c === '>') out += '&gt;';
    else if (c === '&') out += VALID_REF.test(s.slice(i, i + 40)) ? '&' : '&amp;';
    else out += c;
  }
  return out;
}

/** Escape for a double-quoted attribute value or any text node. */
export function escapeAttr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
