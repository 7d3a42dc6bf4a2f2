/**
 * `JSON.stringify(value, null, 2)` as a sequence of chunks of about CHUNK_CHARS, byte for byte the same
 * text, so a report file of a long run (a 20 MB transcript gives a 30 MB detail file) is written without
 * ever holding the whole text, its flattened copy and its UTF-8 buffer in memory at once. Written by hand
 * because no JSON streaming library keeps JSON.stringify's exact pretty-printing: plain objects near the
 * top and long arrays are walked; everything else is JSON.stringify'd whole and re-indented (JSON text
 * has no raw newline inside a string, so indenting after each newline is exact).
 */
const CHUNK_CHARS = 1 << 20;
/** Arrays shorter than this are stringified whole. */
const LONG_ARRAY = 64;
/** Plain objects are walked down to this depth (looking for long arrays). */
const WALK_DEPTH = 4;

export function* prettyJsonChunks(value: unknown): Generator<string> {
  let buf = '';
  for (const piece of pieces(value, 0)) {
    buf += piece;
    if (buf.length >= CHUNK_CHARS) {
      yield buf;
      buf = '';
    }
  }
  if (buf !== '') yield buf;
}

function* pieces(value: unknown, depth: number): Generator<string> {
  const pad = '\n' + '  '.repeat(depth);
  if (Array.isArray(value) && value.length >= LONG_ARRAY) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      const text = JSON.stringify(value[i], null, 2) ?? 'null';
      yield `${i > 0 ? ',' : ''}${pad}  ${indent(text, depth + 1)}`;
    }
    yield `${pad}]`;
    return;
  }
  if (depth < WALK_DEPTH && isPlainObject(value)) {
    let first = true;
    for (const key of Object.keys(value)) {
      const v = value[key];
      const head = `${first ? '{' : ','}${pad}  ${JSON.stringify(key)}: `;
      if (Array.isArray(v) || isPlainObject(v)) {
        first = false;
        yield head;
        yield* pieces(v, depth + 1);
        continue;
      }
      const text = JSON.stringify(v, null, 2);
      if (text === undefined) continue;
      first = false;
      yield head + indent(text, depth + 1);
    }
    yield first ? '{}' : `${pad}}`;
    return;
  }
  yield indent(JSON.stringify(value, null, 2) ?? 'null', depth);
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
