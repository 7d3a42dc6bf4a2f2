/** `run` checks: `sh -c <command>` in the workspace with the job environment and a time limit. */
import type { JobSpace } from '../../exec/job-space.js';
import { spawnAgentProcess } from '../../exec/process.js';
import type { CheckVerdict } from './types.js';

export const DEFAULT_RUN_TIMEOUT_MS = 180_000;
/** Output kept for the evidence (the end, where errors usually are). */
export const OUTPUT_TAIL_CHARS = 600;
/** Longest stdout line kept (its start): lines, not the whole output, bound the memory a check uses. */
const MAX_LINE_BYTES = 64 * 1024;

export interface RunCheckOptions {
  command: string;
  expectExit: number;
  cwd: string;
  env: Readonly<Record<string, string>>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The job's private /tmp (job-space.ts). */
  space?: JobSpace;
}

export async function runCommandCheck(opts: RunCheckOptions): Promise<CheckVerdict> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  let stdout = '';
  const res = await spawnAgentProcess({
    command: process.platform === 'win32' ? 'cmd.exe' : 'sh',
    args: process.platform === 'win32' ? ['/d', '/s', '/c', opts.command] : ['-c', opts.command],
    cwd: opts.cwd,
    env: opts.env,
    stdin: 'ignore',
    timeoutMs,
    killGraceMs: 2_000,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.space ? { space: opts.space } : {}),
    // All of stdout is read, however long: the evidence is its end, where a test run's summary is.
    maxStdoutBytes: Number.MAX_SAFE_INTEGER,
    maxLineBytes: MAX_LINE_BYTES,
    maxStderrBytes: 64 * 1024,
    onStdoutLine: (line) => {
      stdout += `${line}\n`;
      if (stdout.length > OUTPUT_TAIL_CHARS * 4) stdout = stdout.slice(-OUTPUT_TAIL_CHARS * 2);
    },
  });
  const output = tail([stdout.trimEnd(), res.stderrTail.trimEnd()].filter(Boolean).join('\n'));
  const shown = output ? `; output: ${output}` : '; no output';
  if (res.spawnError) return { passed: false, evidence: res.spawnError };
  if (res.timedOut)
    return { passed: false, evidence: `timed out after ${Number((timeoutMs / 1000).toFixed(1))} s${shown}` };
  if (res.aborted) return { passed: false, evidence: `stopped: ${res.abortReason ?? 'cancelled'}${shown}` };
  if (res.exitCode === null)
    return {
      passed: false,
      evidence: `killed by ${res.signal ?? 'a signal'} (expected exit ${opts.expectExit})${shown}`,
    };
  const passed = res.exitCode === opts.expectExit;
  return { passed, evidence: `exit code ${res.exitCode} (expected ${opts.expectExit})${shown}` };
}

function tail(text: string): string {
  const flat = text.replace(/\r/g, '').replace(/\n+/g, ' ⏎ ').trim();
  return flat.length > OUTPUT_TAIL_CHARS ? `…${flat.slice(-OUTPUT_TAIL_CHARS)}` : flat;
}
