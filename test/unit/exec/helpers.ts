import { readFileSync } from 'node:fs';
import type { SpawnAgentOptions } from '../../../src/exec/process.js';

/** True while `pid` exists and is not a zombie (a zombie is dead; it only waits to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns the last value. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, stepMs = 20): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Environment for test children: the host PATH only. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...extra };
}

/** spawnAgentProcess options running `script` with /bin/sh in `cwd` (20 s limit, short kill grace). */
export function shOptions(
  cwd: string,
  script: string,
  extra: Partial<SpawnAgentOptions> = {},
): SpawnAgentOptions {
  return {
    command: '/bin/sh',
    args: ['-c', script],
    cwd,
    env: testEnv(),
    timeoutMs: 20_000,
    killGraceMs: 300,
    maxStdoutBytes: 1024 * 1024,
    maxStderrBytes: 64 * 1024,
    ...extra,
  };
}
