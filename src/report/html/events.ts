/**
 * Transcript events for the page. Every event is kept; their text is kept whole up to a per-run
 * budget. A run with more text has its longest texts shortened first (all to the same length, head and
 * tail kept, the cut marked in place) until it fits, so short outputs are never touched and one huge
 * output cannot crowd out the rest. The full text stays in the run's detail JSON.
 */
import { createHash } from 'node:crypto';
import { redact } from '../../scoring/index.js';
import type { TranscriptEvent } from '../../transcript/model.js';
import { formatCount } from '../../util/number.js';
import type { HtmlEvent } from './model.js';

export interface TextLimits {
  /** Characters of transcript text kept per run before the longest texts are shortened. */
  runTextChars: number;
  /** No single text keeps more than this. */
  maxTextChars: number;
  /** Texts are never shortened below this, whatever the budget. */
  minTextChars: number;
}

type Field = 'text' | 'input' | 'output';

export function mapEvents(
  events: readonly TranscriptEvent[],
  startedAt: number | undefined,
  limits: TextLimits,
): HtmlEvent[] {
  const base = startedAt ?? events.find((e) => typeof e.ts === 'number')?.ts;
  // Each event's text and the field it goes in, redacted below once the cut level is known: only what
  // the page keeps of a long text is scanned. Two plain arrays, not a closure and a pair per event.
  const fields: (Field | undefined)[] = new Array(events.length);
  const texts: string[] = new Array(events.length);
  const out: HtmlEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const ev = events[i]!;
    const o: HtmlEvent = { kind: ev.kind };
    if (typeof ev.ts === 'number' && base !== undefined) o.t = ev.ts - base;
    switch (ev.kind) {
      case 'user':
      case 'text':
      case 'thinking':
        fields[i] = 'text';
        texts[i] = ev.text;
        break;
      case 'tool_call':
        o.name = shortName(ev.name);
        o.callId = shortId(ev.id);
        fields[i] = 'input';
        texts[i] = inputText(ev.input);
        break;
      case 'tool_result':
        o.callId = shortId(ev.callId);
        fields[i] = 'output';
        texts[i] = ev.output;
        o.isError = ev.isError;
        if (ev.exitCode !== undefined) o.exitCode = ev.exitCode;
        break;
      case 'error':
        fields[i] = 'text';
        texts[i] = ev.errorClass ? `[${ev.errorClass}] ${ev.message}` : ev.message;
        break;
      case 'system':
        fields[i] = 'text';
        texts[i] = ev.data ? `${ev.subtype} ${JSON.stringify(ev.data)}` : ev.subtype;
        break;
    }
    out.push(o);
  }

  const lengths: number[] = [];
  for (let i = 0; i < events.length; i++) lengths.push(fields[i] === undefined ? 0 : texts[i]!.length);
  const level = Math.min(
    limits.maxTextChars,
    Math.max(limits.minTextChars, cutLevel(lengths, limits.runTextChars)),
  );
  for (let i = 0; i < events.length; i++) {
    const field = fields[i];
    if (field === undefined) continue;
    const o = out[i]!;
    const s = texts[i]!;
    if (s.length <= level) {
      o[field] = redact(s);
      continue;
    }
    const short = shortenRedacted(s, level);
    o[field] = short.text;
    o.truncated = short.cut;
  }
  return out;
}

/** Characters past a cut that are redacted with what is kept, so a secret across the cut is still whole. */
const REDACT_MARGIN = 128;
/** Room before a value for its keyword and separator (`Bearer `, `api_key": "`). */
const KEYWORD_ROOM = 64;
/** Whether a character can be part of a credential's value (the secret patterns' value classes). */
function tokenChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || // 0-9
    (c >= 65 && c <= 90) || // A-Z
    (c >= 97 && c <= 122) || // a-z
    c === 46 ||
    c === 95 ||
    c === 126 ||
    c === 43 ||
    c === 47 ||
    c === 61 ||
    c === 45 // . _ ~ + / = -
  );
}

/**
 * `shorten(redact(s), keep)` without scanning the part of a long text the page leaves out: a 20 MB
 * run's texts are cut to a few hundred characters each, and redacting all of them first cost 40 ms.
 * The head is redacted with a margin past its end; the tail from further back, extended over any
 * credential-like run of characters it starts inside (and room for its keyword), so a key that begins
 * before the kept tail is still recognised and masked. The count of characters left out is the
 * original text's (the redaction of the kept parts may shorten them).
 */
export function shortenRedacted(s: string, keep: number): { text: string; cut: number } {
  // Shorter texts: the two windows would overlap.
  if (s.length <= keep + 2 * REDACT_MARGIN + KEYWORD_ROOM) return shorten(redact(s), keep);
  const headSource = redact(s.slice(0, Math.ceil(keep * 0.7) + REDACT_MARGIN));
  let from = s.length - keep - REDACT_MARGIN;
  while (from > 0 && tokenChar(s.charCodeAt(from - 1))) from--;
  const tailSource = redact(s.slice(Math.max(0, from - KEYWORD_ROOM)));
  return cutAround(headSource, tailSource, keep, s.length);
}

/**
 * The length L with Σ min(len, L) = budget: texts up to L stay whole, longer ones are cut to L.
 * Infinity when everything fits.
 */
export function cutLevel(lengths: readonly number[], budget: number): number {
  let rest = lengths.reduce((a, b) => a + b, 0);
  if (rest <= budget) return Infinity;
  const sorted = [...lengths].sort((a, b) => b - a);
  for (let k = 0; k < sorted.length; k++) {
    rest -= sorted[k]!;
    const level = (budget - rest) / (k + 1);
    if (level >= (sorted[k + 1] ?? 0)) return Math.max(0, Math.floor(level));
  }
  return 0;
}

/**
 * Keep about 70% from the start and 30% from the end, at line breaks when one is near, marking the cut
 * between them. Returns the text and the number of characters left out.
 */
export function shorten(s: string, keep: number): { text: string; cut: number } {
  return cutAround(s, s, keep, s.length);
}

/** `shorten`'s cut with the head taken from the start of `headSource` and the tail from the end of `tailSource`. */
function cutAround(
  headSource: string,
  tailSource: string,
  keep: number,
  length: number,
): { text: string; cut: number } {
  let head = headSource.slice(0, Math.ceil(keep * 0.7));
  let tail = tailSource.slice(Math.max(0, tailSource.length - (keep - head.length)));
  const nl = head.lastIndexOf('\n');
  if (nl >= head.length * 0.8) head = head.slice(0, nl + 1);
  const tl = tail.indexOf('\n');
  if (tl !== -1 && tl < tail.length * 0.2) tail = tail.slice(tl + 1);
  if (keep - head.length <= 0) tail = '';
  const cut = Math.max(0, length - head.length - tail.length);
  const marker = `… [${formatCount(cut)} characters not shown: the full text is in the run's detail JSON] …`;
  return { text: `${head}${head.endsWith('\n') ? '' : '\n'}${marker}\n${tail}`, cut };
}

/** Inputs of up to this many characters of JSON are shown on one line, longer ones pretty-printed. */
const ONE_LINE_INPUT = 100;

/** Short inputs on one line, longer ones pretty-printed. */
function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  // A long input is stringified once, pretty: stringifying it on one line first only to measure it was
  // two fifths of this function on a 20 MB run, whose edits carry whole files.
  if (charsAtLeast(input, ONE_LINE_INPUT + 1, 0) > ONE_LINE_INPUT)
    return JSON.stringify(input, null, 2) ?? '';
  const flat = JSON.stringify(input) ?? '';
  return flat.length <= ONE_LINE_INPUT ? flat : (JSON.stringify(input, null, 2) ?? '');
}

/**
 * A lower bound of `JSON.stringify(value).length` (the characters of its strings and keys, before
 * escaping), counted only until it reaches `enough`. Cheap on a big input: its first long string ends it.
 */
function charsAtLeast(value: unknown, enough: number, depth: number): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null || depth > 8) return 0;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return 0; // stringified otherwise
  let n = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && n < enough; i++) n += charsAtLeast(value[i], enough - n, depth + 1);
    return n;
  }
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    // JSON.stringify leaves these keys out.
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    n += key.length + charsAtLeast(v, enough - n, depth + 1);
    if (n >= enough) break;
  }
  return n;
}

/** Tool names and call ids are outside the text budget: capped, so no agent inflates the page with them. */
const NAME_CHARS = 200;
const ID_CHARS = 100;

function shortName(name: string): string {
  if (name.length <= NAME_CHARS) return name;
  return `${name.slice(0, NAME_CHARS)}… (${formatCount(name.length)} characters)`;
}

/** An id only links a result to its call: a long one keeps its start and a hash of the whole, so it stays distinct. */
function shortId(id: string): string {
  if (id.length <= ID_CHARS) return id;
  return `${id.slice(0, ID_CHARS)}…${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
}
