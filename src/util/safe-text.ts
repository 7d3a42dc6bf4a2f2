/** Untrusted text for a terminal, with no dependencies: the CLI's error path loads it at start-up. */

// Bidi embeddings, overrides and isolates too: one left open reorders the rest of the terminal line.
const CONTROL_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Multi-line untrusted text: keeps newlines and tabs, drops every other control character. */
export function safeText(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(CONTROL_BUT_NEWLINE, '');
}

/** A titled block after a blank line; nothing when `body` is empty. */
export function section(title: string, body: string[]): string[] {
  return body.length ? ['', title, ...body] : [];
}

/** Multi-line untrusted text (notes, an answer) indented, control characters but newlines left out. */
export function indent(text: string, by = '  '): string[] {
  return safeText(text)
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => `${by}${l}`);
}
