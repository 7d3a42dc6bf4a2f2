/**
 * V8 flags the CLI changes for its own process (runner/heap.ts, runner/tiering.ts). V8 takes a code cache
 * only under the flags it was made under, so the CLI's code cache (src/cli/code-cache.ts, a bundle entry
 * of its own that shares no module with this one: hence the global symbol) needs to know which flags were
 * in effect when each chunk loaded, and each flag's value at start-up.
 */
import { setFlagsFromString } from 'node:v8';

export const V8_FLAGS = Symbol.for('axis.v8Flags');

/** What the CLI changed: each flag's start-up value by name, and its value now (unchanged ones left out). */
export interface V8FlagLog {
  startup: Record<string, string>;
  now: Record<string, string>;
}

/** Sets `--name=value` for this process; `startup` is Node's value for it (V8's default unless given). */
export function setV8Flag(name: string, value: string | number, startup: string | number): void {
  setFlagsFromString(`--${name}=${value}`);
  const g = globalThis as { [V8_FLAGS]?: V8FlagLog };
  const log = (g[V8_FLAGS] ??= { startup: {}, now: {} });
  log.startup[name] ??= String(startup);
  if (String(value) === log.startup[name]) delete log.now[name];
  else log.now[name] = String(value);
}
