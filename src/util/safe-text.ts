/** Untrusted text for a terminal, with no dependencies: the CLI's error path loads it at start-up. */

// Bidi embeddings, overrides and isolates too: one left open reorders the rest of the terminal line.
const CONTROL_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * What a name shown on a terminal line (a scenario key or name, an agent name) may not hold: C0 and C1
 * controls, DEL, line separators and the bidi controls that reorder a line (Trojan Source). Config
 * validation and blob merging refuse such names; `NAME_WITHOUT_CONTROLS` is the same rule for a whole
 * string, for a schema's `.regex`.
 */
// eslint-disable-next-line no-control-regex
export const NAME_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
export const NAME_WITHOUT_CONTROLS = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/;

/** Multi-line untrusted text: keeps newlines and tabs, drops every other control character. */
export function safeText(s: string): string {
  return noRunnerCommands(s.replace(/\r\n?/g, '\n').replace(CONTROL_BUT_NEWLINE, ''));
}

/**
 * Untrusted text a CI runner would obey: GitHub Actions runs `::cmd::` at a line's start (after any spaces)
 * and `##[cmd]` anywhere in a line of a step's log (Azure Pipelines `##vso[`), so an agent could add
 * annotations, mask words or stop AXIS's own commands. A space between the marks shows the same words.
 */
export function noRunnerCommands(s: string): string {
  if (!s.includes('::') && !s.includes('##')) return s;
  // Any space but a newline before it: the runner trims every Unicode space (.NET TrimStart), NBSP too.
  return s.replace(/^([^\S\n]*):(?=:)/gm, '$1: ').replace(/##(vso)?\[/gi, '##$1 [');
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

/** Characters of a note or an answer a terminal view shows before naming where the rest is. */
export const MAX_VIEW_CHARS = 2000;

/** `text` cut to `max` characters for a terminal view, then how many more `where` holds. */
export function clipText(text: string, where: string, max = MAX_VIEW_CHARS): string {
  return text.length > max
    ? `${text.slice(0, max)}\n… (${text.length - max} more characters in ${where})`
    : text;
}
