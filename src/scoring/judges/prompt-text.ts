/**
 * The text of judge prompts: their character bounds, and how untrusted run text is quoted, cleaned and
 * cut to a bound.
 */
import { redact } from '../sparse-index.js';

/** Character bounds. Failures use the larger `failure*` bounds and their own budget. */
export const LIMITS = {
  task: 4_000,
  taskContext: 1_500,
  finalAnswer: 6_000,
  finalAnswerExcerpt: 1_500,
  sparseIndex: 30_000,
  input: 300,
  output: 700,
  reasoning: 400,
  failureInput: 1_500,
  failureOutput: 3_000,
  checkEvidence: 600,
  /** Detail of interactions that did not fail, per prompt. */
  detailBudget: 10_000,
  /** Safety net for runs with hundreds of failures; beyond it failures stay in the index only. */
  failureBudget: 60_000,
} as const;

export function section(title: string, body: string): string {
  return `## ${title}\n${body}`;
}

/** Untrusted text between <<< and >>>; delimiters inside it are defused, secrets masked. */
export function quote(text: string): string {
  let safe = clean(text);
  // `includes` first: most texts hold no delimiter, and it finds that faster than the regex does.
  if (safe.includes('<<<') || safe.includes('>>>'))
    // A whole run is spaced out: defusing three at a time left `> > >>>` of five.
    safe = safe.replace(/<{3,}|>{3,}/g, (m) => m.split('').join(' '));
  return safe.includes('\n') ? `<<<\n${safe}\n>>>` : `<<< ${safe} >>>`;
}

/** Control characters other than newline and tab, and the two Unicode line separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/** Control characters (other than newline and tab) removed, `\r\n` and `\r` made newlines, credential shapes masked. */
function clean(text: string): string {
  // `\r` is one of CONTROL's characters: a text without any (nearly all) is scanned once, not twice.
  if (!CONTROL.test(text)) return redact(text);
  return redact(text.replace(/\r\n?/g, '\n').replace(CONTROLS, ' '));
}

/** At most `max` characters: the head and the tail (errors usually show at the end), with a marker. */
export function bound(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.35);
  const tail = max - head;
  return `${text.slice(0, head)}\n… (${text.length - max} characters cut) …\n${text.slice(text.length - tail)}`;
}

/**
 * The sparse index within `max` characters: header lines, every failed interaction's line, and as many of
 * the first and last lines as fit, with markers where lines were left out.
 */
export function boundIndex(index: string, max: number): string {
  const text = index.replace(/\n$/, '');
  if (text.length <= max) return text;
  const lines = text.split('\n');
  const keep = new Array<boolean>(lines.length).fill(false);
  let used = 0;
  const take = (i: number): boolean => {
    if (keep[i]) return true;
    const cost = lines[i]!.length + 1;
    if (used + cost > max) return false;
    keep[i] = true;
    used += cost;
    return true;
  };
  lines.forEach((l, i) => {
    if (l.startsWith('#') && !/^#\d/.test(l)) take(i);
  });
  lines.forEach((l, i) => {
    if (/ -> (error|no-result)/.test(l)) take(i);
  });
  for (let lo = 0, hi = lines.length - 1; lo <= hi; lo++, hi--) {
    if (!take(lo)) break;
    if (hi !== lo && !take(hi)) break;
  }
  const out: string[] = [];
  let gap = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (gap > 0) out.push(`… ${gap} lines left out`);
      gap = 0;
      out.push(l);
    } else gap++;
  });
  if (gap > 0) out.push(`… ${gap} lines left out`);
  return out.join('\n');
}

export function inputText(input: unknown): string {
  if (input === undefined || input === null) return '';
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input);
  } catch {
    return String(input);
  }
}

export function oneLine(text: string): string {
  return clean(text).replace(/\s+/g, ' ').trim();
}

export function round(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** `1-5, 8, 10-12`. */
export function ranges(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!;
    let end = start;
    while (i + 1 < sorted.length && sorted[i + 1] === end + 1) end = sorted[++i]!;
    out.push(end === start ? String(start) : end === start + 1 ? `${start}, ${end}` : `${start}-${end}`);
  }
  return out.join(', ');
}
