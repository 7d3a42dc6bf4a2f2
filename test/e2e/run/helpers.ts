import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../../..');

/** The `command` agent printing a fixed AXIS NDJSON transcript (test/fixtures/command-agent). */
export const TOY_AGENT = {
  agent: 'command',
  name: 'toy',
  command: join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh'),
  output: 'ndjson',
};
export const BIN = join(ROOT, 'bin/axis.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** dist/ is built once by test/global-setup.ts; this only checks it is there. */
export function buildDist(): void {
  // bin/axis.js runs the bundle; the unbundled modules come with it (one build makes both).
  const marker = join(ROOT, 'dist/bundle/main.js');
  if (!existsSync(marker)) throw new Error('dist/ is missing: run `npm run build` first');
}

/** How Node.js starts a process warning on stderr: `(node:1234) MaxListenersExceededWarning: …`. */
const NODE_WARNING = /^\(node:\d+\) (?:\[\w+\] )?\w*Warning: .*$/m;

/**
 * Starts `node bin/axis.js <args>` in `cwd`; `done` resolves when it exits, and rejects when it printed
 * a Node.js warning.
 */
export function startAxis(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): { child: ChildProcess; done: Promise<CliResult>; output: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      // A warning Node prints (a listener "leak", a deprecation) is noise in a user's CI log: none may.
      const warning = NODE_WARNING.exec(stderr);
      if (warning) reject(new Error(`axis ${args.join(' ')} printed a Node.js warning: ${warning[0]}`));
      else resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done, output: () => `${stdout}\n--- stderr ---\n${stderr}` };
}

export function axis(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  return startAxis(args, cwd, env).done;
}

/**
 * `text` with each folded `  ✗ ` line joined again: its continuation lines (4 spaces, then text) put
 * back after it with one space, as the terminal views fold it at a space (src/util/fold.ts).
 */
export function unfoldCrosses(text: string): string {
  const out: string[] = [];
  let open = false;
  for (const line of text.split('\n')) {
    const more: boolean = open && /^ {4}\S/.test(line);
    if (more) out[out.length - 1] += ` ${line.trim()}`;
    else out.push(line);
    open = line.startsWith('  ✗ ') || more;
  }
  return out.join('\n');
}

/**
 * Terminal text with each folded line joined back to the line it continues (indented 4 or more spaces:
 * a job's reason under its line, a ✗ line's continuation), for tests that look for a whole sentence.
 */
export function joinFolded(text: string): string {
  return text.replace(/\n {4,}(?=\S)/g, ' ');
}
