/**
 * One line of terminal text folded to `width` columns: a CI log is read at 80, and a viewer that wraps a
 * long line does it mid-word. It breaks after ` · `, else after `, `, else after a space; the lines after
 * the first start with `indent` spaces, so read together they say what the one line did. A word (a path)
 * is cut only when it alone is wider than the room after the indent. A line never starts with `::`, even
 * indented: GitHub Actions trims a log line's leading spaces and obeys a workflow command there, and the
 * text can hold untrusted names (a baseline's pairs), so no break is made right before one.
 */
import { cutWidth, textWidth } from './width.js';

/** Less room than this after the indent and lines run past `width` instead: a word per line reads worse. */
const MIN_ROOM = 20;

export function foldLine(text: string, width: number, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  let line = '';
  for (const piece of unbroken(pieces(text, Math.max(MIN_ROOM, width - indent)))) {
    if (line.trim() && textWidth(line + piece.trimEnd()) > width) {
      lines.push(line.trimEnd());
      line = pad;
    }
    line += piece;
  }
  lines.push(line.trimEnd());
  return lines;
}

/**
 * The pieces with each one a break would leave at the start of a line as `::` (a workflow command) joined
 * to the one before it: such a line may run past the width, never start a command.
 */
function unbroken(pieces: string[]): string[] {
  const out: string[] = [];
  for (const piece of pieces) {
    const prev = out.at(-1);
    const command = /^\s*::/.test(piece) || (prev?.endsWith(':') === true && /^\s*:/.test(piece));
    if (prev !== undefined && command) out[out.length - 1] = prev + piece;
    else out.push(piece);
  }
  return out;
}

const BREAKS = [/(?<= · )/, /(?<=, )/, /(?<= )/];

/** `text` cut after each break of the first kind, a piece still wider than `room` after the next kind. */
function pieces(text: string, room: number, kind = 0): string[] {
  if (textWidth(text) <= room) return [text];
  const at = BREAKS[kind];
  if (!at) return cutWidth(text, room);
  return text.split(at).flatMap((p) => pieces(p, room, kind + 1));
}
