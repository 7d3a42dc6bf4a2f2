/**
 * The TypeScript and JavaScript modules a user writes (configs, scenarios, tapes, adapters), loaded with
 * jiti, so they need no build step. One loader per process, imported on first use: loading jiti cost
 * 40–60 ms of every start, and a JSON config never needs it. `import … from 'axis-eval'` inside such a
 * module gets this running copy of AXIS (one spawner, one simulator gateway), installed in the project
 * or not.
 */
import type { Jiti } from 'jiti';
import { selfEntry } from './package-root.js';

let jiti: Jiti | undefined;

/** The module's namespace object (a CommonJS module's exports); throws what loading it threw. */
export async function importUserModule(path: string): Promise<unknown> {
  if (!jiti) {
    const { createJiti } = await import('jiti');
    jiti ??= createJiti(import.meta.url, {
      moduleCache: false,
      interopDefault: false,
      alias: { 'axis-eval': selfEntry() },
    });
  }
  return jiti.import(path);
}

/**
 * The reason a user module did not load, on one line: the error's first line, with the place a parse
 * error gives on its second (` <absolute file>:3:10`, a 0-based column) as `at line 3, column 11`, as
 * an editor counts and as AXIS's JSON errors say it. The absolute path is left out: the issue names the
 * file.
 */
export function loadReason(message: string): string {
  const [first = message, second = ''] = message.split('\n');
  const at = /:(\d+):(\d+)\s*$/.exec(second);
  return `${first.trim()}${at ? ` at line ${at[1]}, column ${Number(at[2]) + 1}` : ''}`;
}
