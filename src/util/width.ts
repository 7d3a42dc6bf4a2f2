/**
 * Terminal text measured in display columns, not UTF-16 code units: a CJK character or an emoji takes two
 * columns, a combining mark none, an ANSI escape code none. Tables pad and clip with these so a scenario
 * key or an agent name in any script keeps the columns after it in place. Not for the CLI's start-up
 * path: string-width loads its Unicode tables with it (the reporters and commands load this lazily).
 */
import stringWidth from 'string-width';

/** Printable ASCII: one column per character, the common case, measured without string-width. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Display columns of `s`; ANSI escape codes count for nothing. */
export function textWidth(s: string): number {
  return PLAIN_ASCII.test(s) ? s.length : stringWidth(s);
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
  if (PLAIN_ASCII.test(s)) return `${s.slice(0, room)}${MARK}`;
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
