/**
 * How AXIS shows a value it found in a file, in its error messages (the config's and the report store's
 * alike). Here, not in config/schema-helpers.ts: the store's readers (`axis reports`, `history`,
 * `badge`, …) then do not load zod, about 200 KB to compile and run, for one function.
 */

const SECRET_LIKE = /^(sk-|sk_|ghp_|gho_|ghs_|github_pat_|xox[abpr]-|AKIA|AIza|glpat-)\S{8,}$/;

/**
 * Characters JSON.stringify leaves as they are but a terminal drops or obeys (C1 controls, line
 * separators, bidi controls): written \uXXXX, so the problem shows what to remove.
 */
const UNSEEN = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `s` quoted with every character a terminal would not show as it is escaped. */
export const quoted = (s: string) => JSON.stringify(s).replace(UNSEEN, escapeChar);

/** A short, user-readable rendering of a value found in a file. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    // A key pasted where a variable *name* belongs must not end up in CI logs.
    if (SECRET_LIKE.test(value)) return 'a value that looks like a secret (not shown)';
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return value.length === 0 ? 'an empty string' : quoted(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (typeof value === 'function') return 'a function';
  return 'an object';
}
