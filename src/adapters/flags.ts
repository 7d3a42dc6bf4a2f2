/** Turning an agent's `flags` object into CLI arguments. */

export type Flags = Record<string, string | boolean>;

/** `--name` for a bare key; a key that already starts with `-` is used as written. */
export function flagName(key: string): string {
  return key.startsWith('-') ? key : `--${key}`;
}

/**
 * `true` → `--k`, a string → `--k v`, `false` → nothing. Keys keep their insertion order, so
 * `{ ...defaults, ...user }` puts the defaults first and lets the user turn them off with `false`.
 */
export function renderFlags(flags: Flags): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(flags)) {
    if (value === false) continue;
    out.push(flagName(key));
    if (typeof value === 'string') out.push(value);
  }
  return out;
}

/** Defaults overridden by the user's flags (a user `false` removes a default). */
export function withDefaults(defaults: Flags, user: Flags): Flags {
  return { ...defaults, ...user };
}

/** True when the flag is set and not `false`. */
export function flagOn(flags: Flags, key: string): boolean {
  const v = flags[key];
  return v !== undefined && v !== false;
}
