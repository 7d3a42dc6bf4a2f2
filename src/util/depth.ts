/**
 * How deep objects and arrays nest in untrusted data (an agent's output line, a tape). Code that walks such
 * data recursively (redaction, scoring, the simulator's answers) would overflow the stack on a value nested
 * tens of thousands of levels deep, so readers refuse one past a limit, checked here without recursion.
 */

/**
 * Whether `text` holds more than `max` `{` and `[` together, which a JSON text nested deeper than `max`
 * levels must. Almost every line holds far fewer, and counting them with `indexOf` costs a fraction of
 * a walk of the parsed value (on a 20 MB stream, a few ms against 50-100 ms in V8's baseline tiers, where
 * `axis run` keeps most code: docs/performance.md), so the walk runs only for text that could be too deep.
 */
export function bracketsOver(text: string, max: number): boolean {
  let n = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++n > max) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++n > max) return true;
  return false;
}

/**
 * Whether `value` nests objects and arrays deeper than `max` levels (`value` itself is level 1). Only
 * objects are visited, from two plain stacks, without an array of entries or values per object: the
 * 20 MB bench's tape (9,000 objects) took 30 ms to walk cold with an entry array and a node per value,
 * and about 1 ms this way.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > max) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    // for…in: no array of values per object. It also sees inherited enumerable keys, which plain data
    // (parsed JSON, object literals) has none of; it can only make the check stricter.
    for (const key in v) {
      const child: unknown = (v as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
