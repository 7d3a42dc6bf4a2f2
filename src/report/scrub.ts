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
   * `v` with every string (keys too) scrubbed, as a deep copy that shares whatever needed no change: an
   * array or plain object none of whose keys or values changed is returned as it is (never mutate what
   * this returns; copy first). Keys whose value is undefined are left out, and any other object becomes
   * a plain object of its own keys. Arrays already scrubbed by this scrubber (same array, same length)
   * are not walked again: a run's transcript events are scrubbed once, however many times the result
   * holding them is.
   */
  value<T>(v: T): T;
  /** Bytes of a captured file; null when nothing needed replacing. */
  bytes(buf: Buffer): Buffer | null;
  /** Plain text that arrives in pieces (a live log), scrubbed as if it came whole. */
  stream(): TextStream;
}

export interface TextStream {
  /** The scrubbed text that can be written now; the end of `piece` may be held for the next one. */
  push(piece: string): string;
  /** What is still held, scrubbed. */
  end(): string;
}

export interface ScrubberOptions {
  secrets: readonly string[];
  /** Absolute path → replacement (`<workspace>`, a project-relative prefix, …). */
  paths: readonly (readonly [string, string])[];
}

export const REDACTED = '[REDACTED]';

/** A plain object with plain object `o`'s first `n` keys and values: those the scrub left as they were. */
function firstKeys(o: Record<string, unknown>, n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let i = 0;
  for (const k in o) {
    if (i++ >= n) break;
    out[k] = o[k];
  }
  return out;
}

/** Arrays at least this long are remembered once scrubbed (a run's events), shorter ones walked again. */
const MEMO_LENGTH = 64;

/**
 * Scrubbed keys without a `/`, shared by the scrubbers made with the same `secrets` array (a report
 * store makes one per job): when every path replaced is absolute, such a key holds none, so the
 * secrets alone decide what it becomes, and a job's scrubber need not scrub `kind`, `score`, … again
 * (the first scrub of a short job's result, ~100 distinct keys: 35-57 µs, 23-27 µs with them shared).
 * Whoever shares an array never changes it (the store's is frozen).
 */
const slashFreeKeys = new WeakMap<readonly string[], Map<string, string>>();

export function createScrubber(opts: ScrubberOptions): Scrubber {
  const paths = opts.paths.filter(([from]) => from.length > 1).sort((a, b) => b[0].length - a[0].length);
  const secrets = [...new Set(opts.secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  // Every path replaced holds a `/` (is absolute): then a string without one holds none of them.
  const slashed = paths.every(([from]) => from.includes('/'));
  const text = textScrubber(paths, secrets, slashed);
  let shared: Map<string, string> | undefined;
  if (slashed) {
    shared = slashFreeKeys.get(opts.secrets);
    if (!shared) slashFreeKeys.set(opts.secrets, (shared = new Map()));
  }
  return {
    text,
    line: lineScrubber(paths, secrets),
    value: valueScrubber(text, shared),
    bytes: bytesScrubber(secrets),
    stream: () => textStream(text, [...paths.map(([from]) => from), ...secrets]),
  };
}

/**
 * Pieces cut anywhere (a pipe's chunks) may cut a secret or path in two, which `text` would miss in
 * each half: the tail that could start one is held until the next piece shows all of it.
 */
function textStream(text: (s: string) => string, needles: readonly string[]): TextStream {
  const longest = needles.reduce((n, s) => Math.max(n, s.length), 0);
  let held = '';
  return {
    push(piece) {
      const s = held + piece;
      // Whatever starts before `cut` ends inside `s`; move `cut` back before any that crosses it.
      let cut = Math.max(0, s.length - longest + 1);
      for (let moved = true; moved;) {
        moved = false;
        for (const n of needles) {
          const at = s.indexOf(n, Math.max(0, cut - n.length + 1));
          if (at !== -1 && at < cut) {
            cut = at;
            moved = true;
          }
        }
      }
      held = s.slice(cut);
      return text(s.slice(0, cut));
    },
    end() {
      const out = text(held);
      held = '';
      return out;
    },
  };
}

type Paths = readonly (readonly [string, string])[];

const escaped = (s: string) => JSON.stringify(s).slice(1, -1);
const replaceAll = (s: string, from: string, to: string) => (s.includes(from) ? s.split(from).join(to) : s);

/** Characters a matcher scans needle by needle before it compiles its one expression. */
export const SCAN_BEFORE_REGEX = 256 * 1024;

/**
 * Whether a string holds any of `needles` (null for none): most strings hold none, and for those the
 * replacing loops below are skipped. At first each needle is looked for on its own (String#includes);
 * once the matcher has scanned SCAN_BEFORE_REGEX characters, one regular expression of them all takes
 * over, so a long run's strings are scanned once, not once per needle (a job has five paths). Not from
 * the start: each job's scrubber has paths of its own, so its expressions are new patterns, which V8
 * parses, compiles and tiers up for that job alone: 0.1-0.2 ms of a short job's main thread, far more
 * than scanning its strings needle by needle (docs/performance.md).
 */
function matcher(needles: readonly string[]): ((s: string) => boolean) | null {
  const list = [...new Set(needles)];
  if (list.length === 0) return null;
  let scanned = 0;
  let any: RegExp | undefined;
  return (s) => {
    if (any) return any.test(s);
    scanned += s.length;
    if (scanned > SCAN_BEFORE_REGEX) {
      any = new RegExp(list.map((n) => n.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|'));
      return any.test(s);
    }
    // Indexed: a for…of allocates an iterator result per needle until V8 optimizes this (~1 MB a
    // 200-job run, in the sampling heap profile).
    for (let i = 0; i < list.length; i++) if (s.includes(list[i]!)) return true;
    return false;
  };
}

/** `paths` longest first, `secrets` longest first: a longer match is replaced before a part of it. */
function textScrubber(paths: Paths, secrets: readonly string[], slashed: boolean): (s: string) => string {
  // When every path replaced is absolute (`slashed`), a string without a `/` holds none of them, and no
  // replacement can put one there (a replacement happens only where a path was): the path checks are
  // skipped. Most strings of a score (rationales, labels) have none; checking every path in each was
  // most of the scrubbing of a long run's result.
  // A string holding no path is left as it is by the loop (it replaces only where a path is), and so
  // is one holding no secret: each loop runs only when its matcher finds something.
  const anyPath = matcher(paths.map(([from]) => from));
  const anySecret = matcher(secrets);
  return (s: string): string => {
    let out = s;
    if (anyPath && (!slashed || s.includes('/')) && anyPath(s))
      for (const [from, to] of paths) out = replaceAll(out, from, to);
    if (anySecret && anySecret(out)) for (const secret of secrets) out = replaceAll(out, secret, REDACTED);
    return out;
  };
}

function lineScrubber(paths: Paths, secrets: readonly string[]): (s: string) => string {
  // JSON-escaped forms computed once, not once per line (a 20 MB run has 17,000 lines).
  const linePaths = paths.map(([from, to]) => [from, to, escaped(from), escaped(to)] as const);
  const lineSecrets = secrets.map((secret) => [secret, escaped(secret)] as const);
  // As in textScrubber: a line holding none of the forms is left as it is.
  const any = matcher([...linePaths.flatMap(([from, , esc]) => [from, esc]), ...lineSecrets.flat()]);
  return (s: string): string => {
    if (!any || !any(s)) return s;
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
}

/** {@link Scrubber.value}: every string (keys too) through `text`, copied on write. */
function valueScrubber(text: (s: string) => string, shared?: Map<string, string>): <T>(v: T) => T {
  // Keys repeat (every event has `kind`, every audit `interactionId`): each distinct key is scrubbed once.
  // Those without a `/` in `shared` when there is one (see slashFreeKeys).
  const own = new Map<string, string>();
  const key = (k: string): string => {
    const keys = shared !== undefined && !k.includes('/') ? shared : own;
    let out = keys.get(k);
    if (out === undefined) {
      out = text(k);
      if (keys.size < 10_000) keys.set(k, out);
    }
    return out;
  };
  // Input array → [its length when scrubbed, the scrubbed copy]. Scrubbed copies map to themselves.
  const done = new WeakMap<object, readonly [number, unknown[]]>();
  // Copy on write: an array or plain object in which nothing changes is returned as it is, not copied
  // (a long run's transcript and score were deep-copied whole, ~40,000 objects, to change a handful).
  const walkArray = (v: unknown[]): unknown[] => {
    const long = v.length >= MEMO_LENGTH;
    const seen = long ? done.get(v) : undefined;
    if (seen && seen[0] === v.length) return seen[1];
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x === undefined && !(i in v)) continue; // a hole stays one, as map() keeps it
      const y = walk(x);
      if (out) out[i] = y;
      else if (y !== x) {
        out = v.slice(0, i);
        out[i] = y;
      }
    }
    if (out) out.length = v.length;
    const result = out ?? v;
    if (long) {
      done.set(v, [v.length, result]);
      if (out) done.set(out, [out.length, out]);
    }
    return result;
  };
  // A plain object's keys by for…in (nothing enumerable is inherited from Object.prototype): an array
  // of keys per object (Object.keys) was the largest part of walking a 20 MB run's 100,000 objects.
  const walkObject = (o: Record<string, unknown>): Record<string, unknown> => {
    // Only a plain object can stand for its own copy: anything else (a Date, a class instance) becomes a
    // plain object of its own keys, as it always did.
    if (Object.getPrototypeOf(o) !== Object.prototype) return walkOther(o);
    let out: Record<string, unknown> | undefined;
    let i = 0;
    for (const k in o) {
      const x = o[k];
      if (x === undefined)
        out ??= firstKeys(o, i); // the key is left out
      else {
        const sk = key(k);
        const y = walk(x);
        if (out) out[sk] = y;
        else if (sk !== k || y !== x) {
          out = firstKeys(o, i);
          out[sk] = y;
        }
      }
      i++;
    }
    return out ?? o;
  };
  const walkOther = (o: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (x !== undefined) out[key(k)] = walk(x);
    }
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return walkArray(v);
    if (v && typeof v === 'object') return walkObject(v as Record<string, unknown>);
    return v;
  };
  return <T>(v: T): T => walk(v) as T;
}

function bytesScrubber(secrets: readonly string[]): (buf: Buffer) => Buffer | null {
  const secretBufs = secrets.map((s) => Buffer.from(s));
  return (buf: Buffer): Buffer | null => {
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
}
