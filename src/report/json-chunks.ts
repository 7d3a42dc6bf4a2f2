/**
 * `JSON.stringify(value, null, 2)` as a sequence of UTF-8 chunks of about CHUNK_BYTES, byte for byte the
 * same text, so a report file of a long run (a 20 MB transcript gives a 30 MB detail file) is written without
 * ever holding the whole text, its flattened copy and its UTF-8 buffer in memory at once. Written by hand
 * because no JSON streaming library keeps JSON.stringify's exact pretty-printing: plain objects and
 * arrays near the top and long arrays are walked (a long array's elements stringified in groups); everything else is
 * JSON.stringify'd whole and re-indented (JSON text has no raw newline inside a string, so indenting
 * after each newline is exact).
 */
import { POOL_BUFFER_BYTES, takeBuffer } from '../util/buffer-pool.js';

const CHUNK_BYTES = POOL_BUFFER_BYTES;
/** The first chunk buffer of a file (they double up to CHUNK_BYTES). */
const FIRST_CHUNK_BYTES = 1 << 16;
/** Pieces are joined into strings of about this many UTF-16 units (two-byte: 64 KB, a regular V8 object). */
const JOIN_CHARS = 1 << 15;
/** A piece at least this long is encoded on its own, not joined with others first. */
const BIG_PIECE_CHARS = 1 << 12;
/** Arrays shorter than this are stringified whole. */
const LONG_ARRAY = 64;
/** Elements of a long array are stringified in groups of about this many characters. */
const GROUP_CHARS = 1 << 15;
const FIRST_GROUP = 64;
const MAX_GROUP = 1 << 14;
/** Plain objects and arrays are walked down to this depth (looking for long arrays). */
const WALK_DEPTH = 8;

export function* prettyJsonChunks(value: unknown): Generator<Buffer> {
  yield* chunked(small(value) ? [JSON.stringify(value, null, 2) ?? 'null'] : pieces(value, 0, true));
}

/**
 * A JSON file's text, `JSON.stringify(value, null, 2)` and a newline: one string when `value` is small,
 * else its chunks (the newline last). A small file's string goes to `writeFileSync` as it is, which
 * encodes it natively: through the chunks it was encoded into a 64 KB buffer of its own once longer
 * than 4,096 characters (a scored short job's detail file, ~8 KB) and then copied once more to be
 * joined with its newline.
 */
export function prettyJsonFile(value: unknown): string | Generator<Buffer> {
  if (small(value)) return `${JSON.stringify(value, null, 2) ?? 'null'}\n`;
  return (function* () {
    yield* prettyJsonChunks(value);
    yield NEWLINE;
  })();
}

const NEWLINE = Buffer.from('\n');

/** `JSON.stringify(value)` (no indentation) in chunks of about CHUNK_BYTES, the same way. */
export function* compactJsonChunks(value: unknown): Generator<Buffer> {
  yield* chunked(small(value) ? [JSON.stringify(value) ?? 'null'] : pieces(value, 0, false));
}

/** At most this many values and string characters make a value small (see `small`). */
const SMALL_NODES = 4096;
const SMALL_CHARS = 1 << 16;

/**
 * Whether `value` is small enough to be stringified in one call: no long array where `pieces` would
 * cut one into groups, and few values and characters in all. A short job's detail file (a few KB) is
 * most of what `axis run` writes, and walking it piece by piece cost three times JSON.stringify; the
 * text is the same either way (JSON.stringify is the definition), so this only picks the faster way.
 * The count stops at the first sign of a large value, so a long run's file costs the walk only its
 * first few thousand values. A loop over a stack of the objects still to see, strings and other
 * values counted where they are found: the recursive walk with a plain-object test per value cost a
 * scored short job's detail file (~300 values) about 105 µs in V8's baseline tiers, this about 60.
 */
export function small(value: unknown): boolean {
  if (typeof value !== 'object' || value === null)
    return typeof value !== 'string' || value.length <= SMALL_CHARS;
  const stack: object[] = [value];
  let nodes = 0;
  let chars = 0;
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      if (v.length >= LONG_ARRAY) return false;
      nodes += v.length;
      for (let i = 0; i < v.length; i++) {
        const e: unknown = v[i];
        if (typeof e === 'string') chars += e.length;
        else if (typeof e === 'object' && e !== null) stack.push(e);
      }
    } else {
      // Objects pieces would not walk (toJSON, class instances) are stringified whole by it too, but
      // their size is unknown here: left to the walk.
      const proto = Object.getPrototypeOf(v) as unknown;
      if (
        (proto !== Object.prototype && proto !== null) ||
        typeof (v as { toJSON?: unknown }).toJSON === 'function'
      )
        return false;
      const o = v as Record<string, unknown>;
      // for…in: a plain object's keys without an array of them (only a size estimate: an enumerable
      // key inherited from Object.prototype would only count too much).
      for (const k in o) {
        nodes++;
        chars += k.length;
        const e = o[k];
        if (typeof e === 'string') chars += e.length;
        else if (typeof e === 'object' && e !== null) stack.push(e);
      }
    }
    if (nodes > SMALL_NODES || chars > SMALL_CHARS) return false;
  }
  return true;
}

/**
 * The pieces joined into strings of about JOIN_CHARS, each encoded once, straight into the chunk being
 * filled, and the chunks handed out about CHUNK_BYTES at a time. The joined strings stay below V8's
 * large-object size, so they die young (megabyte strings put every megabyte twice in the large-object
 * space, the joined text and then its flattened copy, where only a full collection frees it: 30 MB of
 * detail file left 60 MB of garbage). Encoding into the chunk, not into a buffer per string that is then
 * concatenated, copies each byte once (the concatenation was 24 ms of a 20 MB run's writes). Chunk
 * buffers start at FIRST_CHUNK_BYTES and double up to CHUNK_BYTES, so a file of a few hundred KB holds
 * no megabyte of external memory; a small file is one buffer of its own size (an `axis run` of short
 * jobs writes a few files per job, and a fresh megabyte of external memory each time made V8 collect
 * far more often), and one encoding call rather than one per piece.
 */
function* chunked(parts: Iterable<string>): Generator<Buffer> {
  let strings: string[] = [];
  let chars = 0;
  let out: Buffer | undefined;
  let at = 0;
  let size = FIRST_CHUNK_BYTES;
  let handedOut = false;
  /** `text` encoded into the chunk being filled (a new one when it may not fit). */
  function* put(text: string): Generator<Buffer> {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (out && out.length - at < text.length * 3) {
      yield out.subarray(0, at);
      handedOut = true;
      out = undefined;
    }
    if (text.length * 3 > CHUNK_BYTES) {
      yield Buffer.from(text, 'utf8'); // one long value (a huge string): its own buffer
      handedOut = true;
      return;
    }
    if (!out) {
      // Full-size chunks come from the pool: the writer gives each back once it is on disk.
      const bytes = Math.max(size, text.length * 3);
      out = bytes === CHUNK_BYTES ? takeBuffer() : Buffer.allocUnsafe(bytes);
      size = Math.min(CHUNK_BYTES, size * 2);
      at = 0;
    }
    at += out.write(text, at, 'utf8');
  }
  const joined = (): string => {
    const text = strings.length === 1 ? strings[0]! : strings.join('');
    strings = [];
    chars = 0;
    return text;
  };
  for (const piece of parts) {
    // A big piece (a group of a long array's elements) is encoded as it is: joined with the small
    // ones around it, every byte of it was copied once more first (45 MB of a 30 MB detail file).
    if (piece.length >= BIG_PIECE_CHARS) {
      if (strings.length > 0) yield* put(joined());
      yield* put(piece);
      continue;
    }
    strings.push(piece);
    chars += piece.length;
    if (chars >= JOIN_CHARS) yield* put(joined());
  }
  const rest = joined();
  if (out && out.length - at >= rest.length * 3) {
    at += out.write(rest, at, 'utf8');
    yield out.subarray(0, at);
    return;
  }
  if (out) yield out.subarray(0, at);
  if (rest !== '' || (!out && !handedOut)) yield Buffer.from(rest, 'utf8');
}

function* pieces(value: unknown, depth: number, pretty: boolean): Generator<string> {
  const pad = pretty ? '\n' + '  '.repeat(depth) : '';
  if (Array.isArray(value) && value.length >= LONG_ARRAY) {
    yield '[';
    let count = FIRST_GROUP;
    for (let i = 0; i < value.length;) {
      const group = value.slice(i, i + count);
      const text = pretty ? elementsText(group, depth) : JSON.stringify(group).slice(1, -1);
      // Apart: a comma put before a big group would copy it whole when the two are encoded.
      if (i > 0) yield ',';
      yield text;
      i += group.length;
      count = Math.max(1, Math.min(MAX_GROUP, Math.round((count * GROUP_CHARS) / Math.max(1, text.length))));
    }
    yield `${pad}]`;
    return;
  }
  if (depth < WALK_DEPTH && Array.isArray(value)) {
    // A short array near the top (report.json's `results`) may still hold a long run's whole score.
    if (value.length === 0) {
      yield '[]';
      return;
    }
    for (let i = 0; i < value.length; i++) {
      yield `${i > 0 ? ',' : '['}${pretty ? `${pad}  ` : ''}`;
      yield* pieces(value[i], depth + 1, pretty);
    }
    yield `${pad}]`;
    return;
  }
  if (depth < WALK_DEPTH && isPlainObject(value)) {
    let first = true;
    for (const key of Object.keys(value)) {
      const v = value[key];
      const head = pretty
        ? `${first ? '{' : ','}${pad}  ${JSON.stringify(key)}: `
        : `${first ? '{' : ','}${JSON.stringify(key)}:`;
      if (Array.isArray(v) || isPlainObject(v)) {
        first = false;
        yield head;
        yield* pieces(v, depth + 1, pretty);
        continue;
      }
      const text = pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
      if (text === undefined) continue;
      first = false;
      yield head;
      yield pretty ? indent(text, depth + 1) : text;
    }
    yield first ? '{}' : `${pad}}`;
    return;
  }
  yield pretty ? indent(JSON.stringify(value, null, 2) ?? 'null', depth) : (JSON.stringify(value) ?? 'null');
}

/**
 * The elements of an array at `depth`, as they appear inside its brackets in JSON.stringify(…, null, 2):
 * each one after `\n` and its indentation, separated by commas. The group is stringified nested in
 * `depth` arrays, so JSON.stringify itself indents it (re-indenting the text after each newline cost
 * as much as the stringify), and the nesting brackets are cut off. A prefix that is not the expected
 * one (never seen) falls back to stringifying each element and re-indenting it.
 */
function elementsText(group: unknown[], depth: number): string {
  let wrapped: unknown = group;
  for (let k = 0; k < depth; k++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  const [open, close] = nesting(depth);
  if (text.startsWith(open) && text.endsWith(close))
    return text.slice(open.length, text.length - close.length);
  const pad = '\n' + '  '.repeat(depth + 1);
  return group.map((e) => `${pad}${indent(JSON.stringify(e, null, 2) ?? 'null', depth + 1)}`).join(',');
}

const nestings: [string, string][] = [];

/** The text JSON.stringify(…, null, 2) puts before the first and after the last element at `depth`. */
function nesting(depth: number): [string, string] {
  let n = nestings[depth];
  if (!n) {
    let open = '';
    let close = '';
    for (let k = 0; k <= depth; k++) {
      open += k < depth ? `[\n${'  '.repeat(k + 1)}` : '[';
      close = `\n${'  '.repeat(k)}]${close}`;
    }
    n = nestings[depth] = [open, close];
  }
  return n;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function indent(text: string, depth: number): string {
  return depth === 0 || !text.includes('\n') ? text : text.replaceAll('\n', '\n' + '  '.repeat(depth));
}
