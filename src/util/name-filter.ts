/**
 * Name matching shared by every filter: a pattern matches a value exactly or as a picomatch glob, against
 * the full name or its base (scenario key without `@variant`; the adapter name of an agent).
 * `*` and `**` match everything, `/` included.
 */
import picomatch from 'picomatch';

const cache = new Map<string, (s: string) => boolean>();

function matcher(pattern: string): (s: string) => boolean {
  let m = cache.get(pattern);
  if (!m) {
    m = pattern === '*' || pattern === '**' ? () => true : picomatch(pattern, { dot: true });
    cache.set(pattern, m);
  }
  return m;
}

export function matchesName(pattern: string, full: string, base: string): boolean {
  if (pattern === full || pattern === base) return true;
  const m = matcher(pattern);
  return m(full) || m(base);
}

/** `["a,b", " c "]` or `"a,b"` → `["a", "b", "c"]`. */
export function splitList(input: string | readonly string[] | undefined): string[] {
  if (input === undefined) return [];
  const parts = typeof input === 'string' ? [input] : input;
  return parts
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}
