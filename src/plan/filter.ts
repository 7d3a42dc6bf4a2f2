/** Filter helpers; name matching itself lives with the pairing rule in config/pairing.ts. */
export { matchesName } from '../config/pairing.js';

/** `["a,b", " c "]` or `"a,b"` → `["a", "b", "c"]`. */
export function splitList(input: string | readonly string[] | undefined): string[] {
  if (input === undefined) return [];
  const parts = typeof input === 'string' ? [input] : input;
  return parts
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}
