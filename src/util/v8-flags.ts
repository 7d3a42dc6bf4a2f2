/**
 * V8 flags the CLI changes for its own process (runner/heap.ts, runner/tiering.ts), and what the CLI's
 * code cache (src/cli/code-cache.ts) needs to know of them: V8 takes a cache only under the flags it was
 * made under, so a chunk loaded while any flag differs from its start-up value is cached under those
 * flags, and they are set back to that state before its cache is taken. The cache's bundle entry shares
 * this module with the CLI's chunks (one instance per process), so the two see the same record.
 */

/** Each flag the CLI set: its start-up value, and its value now (left out when back at start-up). */
const startup: Record<string, string> = {};
const now: Record<string, string> = {};

/** node:v8, taken when a flag is first set: `axis --help` never loads it. */
const v8 = () => process.getBuiltinModule('node:v8');

/**
 * Sets `--name=value` for this process; `initial` is V8's default for it. A flag Node was started with
 * (its arguments or NODE_OPTIONS) is the user's setting: it is left as given, and false is returned.
 */
export function setV8Flag(name: string, value: string | number, initial: string | number): boolean {
  if (givenAtStartup(name)) return false;
  v8().setFlagsFromString(`--${name}=${value}`);
  startup[name] ??= String(initial);
  if (String(value) === startup[name]) delete now[name];
  else now[name] = String(value);
  return true;
}

/**
 * Whether Node was started with V8 flag `--name` (`-` and `_` are the same to V8), as `--name=value`
 * or `--name value`, in its own arguments or NODE_OPTIONS.
 */
export function givenAtStartup(
  name: string,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  const flag = new RegExp(`(?:^|\\s)--${name.replace(/[-_]/g, '[-_]')}(?:=|\\s|$)`);
  return execArgv.some((a) => flag.test(a)) || flag.test(nodeOptions);
}

/** The record so far: each flag's start-up value and its value now, or null when none was set. */
export function v8FlagLog(): { startup: Record<string, string>; now: Record<string, string> } | null {
  return Object.keys(startup).length === 0 ? null : { startup: { ...startup }, now: { ...now } };
}

/** The flags changed from their start-up values, as one text in a fixed order ('' when none). */
export function changedFlags(changed: Record<string, string> = now): string {
  return Object.keys(changed)
    .sort()
    .map((name) => `--${name}=${changed[name]}`)
    .join(' ');
}

/** Every flag set back to its start-up value, then `flags` (a `changedFlags` text) set. */
export function restoreFlagsTo(flags: string): void {
  if (flags === '' && Object.keys(startup).length === 0) return;
  const { setFlagsFromString } = v8();
  for (const [name, value] of Object.entries(startup)) setFlagsFromString(`--${name}=${value}`);
  for (const flag of flags.split(' ').filter(Boolean)) setFlagsFromString(flag);
}
