/**
 * Profile overlays: objects deep-merge, arrays and scalars replace. Two objects are replaced whole
 * because merging their fields would mix unrelated shapes: one MCP server definition (stdio vs http),
 * and the judge's agent entry. The judge itself is replaced whole when the overlay names another provider.
 * `classify` rules are ordered (first match wins): the overlay's come first.
 */
import { isPlainObject } from './schema-helpers.js';

const ATOMIC = [/^mcp_servers\.[^.]+$/, /^judge\.agent$/];

export function mergeOverlay<T extends Record<string, unknown>>(
  base: T,
  overlay: Record<string, unknown>,
): T {
  return merge(base, overlay, '') as T;
}

function merge(base: unknown, overlay: unknown, path: string): unknown {
  if (!isPlainObject(base) || !isPlainObject(overlay) || ATOMIC.some((re) => re.test(path))) {
    return overlay === undefined ? base : overlay;
  }
  // Another provider: the base judge's model, URL and key belong to the provider it replaces.
  if (path === 'judge' && overlay.provider !== undefined && overlay.provider !== base.provider)
    return overlay;
  // classify: first match wins, so the profile's rules go first or a glob of the base would shadow them.
  if (path === 'classify')
    return Object.fromEntries([
      ...Object.entries(overlay),
      ...Object.entries(base).filter(([k]) => !(k in overlay)),
    ]);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    if (value === undefined) continue;
    out[key] = merge(base[key], value, path ? `${path}.${key}` : key);
  }
  return out;
}
