import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../../..');
export const BIN = join(ROOT, 'bin/axis.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Builds dist/ unless it is newer than every source file (`npm test` builds first). Rebuilding while
 * another test file runs bin/axis.js could let it read half-written output, so a fresh build is kept.
 * Others' unfinished files may fail type checking; tsc still emits.
 */
export function buildDist(): void {
  const marker = join(ROOT, 'dist/cli/commands/run.js');
  if (existsSync(marker) && newestMtime(join(ROOT, 'src')) <= statSync(marker).mtimeMs) return;
  spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
  if (!existsSync(marker)) throw new Error('build did not produce dist/cli/commands/run.js');
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Starts `node bin/axis.js <args>` in `cwd`; `done` resolves when it exits. */
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
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
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
