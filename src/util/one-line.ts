/** One line of untrusted text for a terminal: shared by report views and the gate's lines. */
import { noRunnerCommands } from './safe-text.js';
import { clipWidth } from './width.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Bidi embeddings, overrides and isolates: one left open reorders the rest of the terminal line. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * One line of untrusted text: control characters and newlines become spaces, cut at `max` display
 * columns (whole graphemes: a cut inside an emoji printed half a surrogate pair).
 */
export function oneLine(s: string, max = 160): string {
  const flat = s.replace(BIDI, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return clipWidth(noRunnerCommands(flat), max);
}
