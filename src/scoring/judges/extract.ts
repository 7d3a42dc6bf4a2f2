/**
 * Finding the JSON objects in a judge's answer. Models wrap JSON in prose or code fences, so the
 * candidates are the whole text (alone, when it is one object), else each fenced code block, then every
 * balanced `{…}` object in the text (strings and escapes respected). Never the greedy first-`{`-to-last-`}` span, which breaks as soon
 * as the prose around the answer contains a brace.
 */

/** Answers longer than this are only searched in their first part. */
export const MAX_SCAN_CHARS = 400_000;
/** Start positions tried at most, so pathological text stays linear-ish. */
const MAX_STARTS = 200;

const FENCE = /```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)```/g;

/** Every JSON object (not array or scalar) found in `text`, in the order they should be tried. */
export function jsonCandidates(text: string): unknown[] {
  return [...eachJsonCandidate(text)];
}

/**
 * The candidates of {@link jsonCandidates}, one at a time (a whole-text JSON answer is parsed once, not
 * re-split into every balanced object it contains).
 */
export function* eachJsonCandidate(text: string): Generator<unknown> {
  const src = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const seen = new Set<string>();
  const parsed = (s: string): unknown => {
    const key = s.trim();
    if (seen.has(key)) return undefined;
    seen.add(key);
    const v = tryParse(key);
    return isObject(v) ? v : undefined;
  };

  // A reply that is one JSON object is the answer: objects quoted in its strings are not candidates.
  const whole = parsed(src);
  if (whole !== undefined) {
    yield whole;
    return;
  }
  for (const m of src.matchAll(FENCE)) {
    const body = m[2] ?? '';
    const fenced = parsed(body);
    if (fenced !== undefined) yield fenced;
    for (const obj of balancedObjects(body)) {
      const v = parsed(obj);
      if (v !== undefined) yield v;
    }
  }
  for (const obj of balancedObjects(src)) {
    const v = parsed(obj);
    if (v !== undefined) yield v;
  }
}

/** The first JSON object in `text`, or undefined. */
export function extractJson(text: string): Record<string, unknown> | undefined {
  for (const v of eachJsonCandidate(text)) return v as Record<string, unknown>;
  return undefined;
}

/**
 * Substrings that are balanced `{…}` objects and parse as JSON, outermost first, left to right. After a
 * parsed object the scan continues behind it; after a failed start it continues at the next `{`.
 */
export function balancedObjects(text: string): string[] {
  const out: string[] = [];
  let starts = 0;
  let i = text.indexOf('{');
  while (i !== -1 && starts < MAX_STARTS) {
    starts++;
    const end = matchingBrace(text, i);
    if (end !== -1) {
      const slice = text.slice(i, end + 1);
      if (isObject(tryParse(slice))) {
        out.push(slice);
        i = text.indexOf('{', end + 1);
        continue;
      }
    }
    i = text.indexOf('{', i + 1);
  }
  return out;
}

/** Index of the `}` closing the `{` at `start` (strings and escapes respected), or -1. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */) depth++;
    else if (c === 125 /* } */) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function tryParse(s: string): unknown {
  if (s === '' || (s[0] !== '{' && s[0] !== '[')) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** A JSON object: not null, not an array. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
