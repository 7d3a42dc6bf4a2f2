/**
 * Scrubbing: secrets and absolute paths never reach a report file. Secret values become `[REDACTED]`;
 * a job's temp paths become `<workspace>`, `<home>`, `<tmp>`; paths under the config dir become
 * project-relative.
 */

export interface Scrubber {
  /** Plain text (notes, messages, stderr). */
  text(s: string): string;
  /** A raw JSON line: also catches JSON-escaped forms of paths and secrets. */
  line(s: string): string;
  /**
   * A deep copy with every string (keys too) scrubbed. Arrays already scrubbed by this scrubber (same
   * array, same length) are not walked again: a run's transcript events are scrubbed once, however many
   * times the result holding them is.
   */
  value<T>(v: T): T;
  /** Bytes of a captured file; null when nothing needed replacing. */
  bytes(buf: Buffer): Buffer | null;
}

export interface ScrubberOptions {
  secrets: readonly string[];
  /** Absolute path → replacement (`<workspace>`, a project-relative prefix, …). */
  paths: readonly (readonly [string, string])[];
}

export const REDACTED = '[REDACTED]';

export function createScrubber(opts: ScrubberOptions): Scrubber {
  const paths = opts.paths.filter(([from]) => from.length > 1).sort((a, b) => b[0].length - a[0].length);
  const secrets = [...new Set(opts.secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  const escaped = (s: string) => JSON.stringify(s).slice(1, -1);
  const replaceAll = (s: string, from: string, to: string) => (s.includes(from) ? s.split(from).join(to) : s);

  // Every path replaced is absolute, so a string without a `/` holds none of them, and no replacement
  // can put one there (a replacement happens only where a path was): the path checks are skipped.
  // Most strings of a score (rationales, labels) have none; checking every path in each was most of
  // the scrubbing of a long run's result.
  const slashed = paths.every(([from]) => from.includes('/'));
  const text = (s: string): string => {
    let out = s;
    if (!slashed || s.includes('/')) for (const [from, to] of paths) out = replaceAll(out, from, to);
    for (const secret of secrets) out = replaceAll(out, secret, REDACTED);
    return out;
  };
  // JSON-escaped forms computed once, not once per line (a 20 MB run has 17,000 lines).
  const linePaths = paths.map(([from, to]) => [from, to, escaped(from), escaped(to)] as const);
  const lineSecrets = secrets.map((secret) => [secret, escaped(secret)] as const);
  const line = (s: string): string => {
    let out = s;
    for (const [from, to, escFrom, escTo] of linePaths) {
      out = replaceAll(out, from, to);
      if (escFrom !== from) out = replaceAll(out, escFrom, escTo);
    }
    for (const [secret, esc] of lineSecrets) {
      out = replaceAll(out, secret, REDACTED);
      if (esc !== secret) out = replaceAll(out, esc, REDACTED);
    }
    return out;
  };
  // Keys repeat (every event has `kind`, every audit `interactionId`): each distinct key is scrubbed once.
  const keys = new Map<string, string>();
  const key = (k: string): string => {
    let out = keys.get(k);
    if (out === undefined) {
      out = text(k);
      if (keys.size < 10_000) keys.set(k, out);
    }
    return out;
  };
  // Input array → [its length when scrubbed, the scrubbed copy]. Scrubbed copies map to themselves.
  const done = new WeakMap<object, readonly [number, unknown[]]>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) {
      const seen = done.get(v);
      if (seen && seen[0] === v.length) return seen[1];
      const out = v.map(walk);
      done.set(v, [v.length, out]);
      done.set(out, [out.length, out]);
      return out;
    }
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const x = o[k];
        if (x !== undefined) out[key(k)] = walk(x);
      }
      return out;
    }
    return v;
  };
  const value = <T>(v: T): T => walk(v) as T;
  const secretBufs = secrets.map((s) => Buffer.from(s));
  const bytes = (buf: Buffer): Buffer | null => {
    let out = buf;
    let changed = false;
    for (const s of secretBufs) {
      if (out.indexOf(s) === -1) continue;
      changed = true;
      const parts: Buffer[] = [];
      let at = 0;
      for (let i = out.indexOf(s); i !== -1; i = out.indexOf(s, at)) {
        parts.push(out.subarray(at, i), Buffer.from(REDACTED));
        at = i + s.length;
      }
      parts.push(out.subarray(at));
      out = Buffer.concat(parts);
    }
    return changed ? out : null;
  };
  return { text, line, value, bytes };
}
