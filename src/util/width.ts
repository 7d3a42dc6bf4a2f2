/**
 * Terminal text measured in display columns, not UTF-16 code units: a CJK character or an emoji takes two
 * columns, a combining mark none, an ANSI escape code none. Tables pad and clip with these so a scenario
 * key or an agent name in any script keeps the columns after it in place.
 */
import { createRequire } from 'node:module';

type StringWidth = (s: string) => number;
let loaded: StringWidth | undefined;

/**
 * string-width, loaded on the first text outside NARROW: loading it compiles its Unicode-property
 * regexes (about 40 ms and 4 MB), which a run whose names and cells are all narrow never needs.
 * require() of an ES module is unflagged from Node 20.19 (package.json's engines).
 */
function stringWidth(s: string): number {
  loaded ??= (createRequire(import.meta.url)('string-width') as { default: StringWidth }).default;
  return loaded(s);
}

/**
 * Characters of one column each, one UTF-16 unit each, that combine with nothing: printable ASCII and
 * Latin-1, Greek letters, dashes, quotes and other general punctuation, arrows, mathematical operators,
 * box drawing, blocks and geometric shapes (but the two emoji among them), ⚠, ✓, ✔ and ✗: what AXIS's
 * own output prints (`–`, `·`, `▁▄█`, `≥`, `σ`, and `⚠` before every warning of a run). Measured
 * without string-width, whose first call compiles its Unicode-property regexes (≈ 7 MB and 80 ms) and
 * whose every call segments graphemes: a 1,000-row summary of `–` cells cost 28 MB of peak memory.
 * width.test.ts checks each of these against string-width.
 */
export const NARROW =
  /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u00ff\u0391-\u03a9\u03b1-\u03c9\u2010-\u2027\u2030-\u205e\u2190-\u22ff\u2500-\u25fc\u25ff\u26a0\u2713\u2714\u2717]*$/;
/** Colour codes (SGR), the only escape sequences AXIS paints with. */
// eslint-disable-next-line no-control-regex -- an escape sequence is what it matches
const SGR = /\x1b\[[\d;]*m/g;

/** Display columns of `s`; ANSI escape codes count for nothing. */
export function textWidth(s: string): number {
  if (NARROW.test(s)) return s.length;
  if (s.includes('\x1b')) {
    const plain = s.replace(SGR, '');
    if (NARROW.test(plain)) return plain.length;
  }
  return stringWidth(s);
}

/** `s` followed by spaces up to `width` columns (as `padEnd`, counted in columns). */
export function padEndWidth(s: string, width: number): string {
  const room = width - textWidth(s);
  return room > 0 ? s + ' '.repeat(room) : s;
}

/** Spaces then `s`, up to `width` columns (as `padStart`, counted in columns). */
export function padStartWidth(s: string, width: number): string {
  const room = width - textWidth(s);
  return room > 0 ? ' '.repeat(room) + s : s;
}

const MARK = '…';
let segmenter: Intl.Segmenter | undefined;

/**
 * Plain `s` cut to at most `max` columns, the cut marked with `…` (one column): whole graphemes only, so
 * an emoji, a ZWJ sequence or a letter with its accents is kept or left out entire, never split.
 */
export function clipWidth(s: string, max: number): string {
  if (textWidth(s) <= max) return s;
  const room = Math.max(0, max - 1);
  if (NARROW.test(s)) return `${s.slice(0, room)}${MARK}`;
  segmenter ??= new Intl.Segmenter();
  let kept = '';
  let used = 0;
  for (const { segment } of segmenter.segment(s)) {
    const w = stringWidth(segment);
    if (used + w > room) break;
    kept += segment;
    used += w;
  }
  return `${kept}${MARK}`;
}

/** Plain `s` cut into pieces of at most `max` columns each (but one wider grapheme), whole graphemes only. */
export function cutWidth(s: string, max: number): string[] {
  const out: string[] = [];
  let piece = '';
  let used = 0;
  segmenter ??= new Intl.Segmenter();
  const graphemes = NARROW.test(s) ? [...s] : [...segmenter.segment(s)].map((g) => g.segment);
  for (const g of graphemes) {
    const w = textWidth(g);
    if (piece && used + w > max) {
      out.push(piece);
      piece = '';
      used = 0;
    }
    piece += g;
    used += w;
  }
  if (piece) out.push(piece);
  return out;
}
