import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { newTag, startTime, taggedProcesses, TAG_VAR } from '../../../src/exec/contain.js';
import { waitFor } from './helpers.js';

/** A real `sleep` carrying `tag` in its environment; resolves once it is running. */
async function taggedSleep(tag: string) {
  const child = spawn('sleep', ['30'], { env: { PATH: process.env.PATH, [TAG_VAR]: tag }, stdio: 'ignore' });
  const pid = child.pid!;
  await waitFor(() => startTime(pid) !== undefined);
  return { child, pid, start: startTime(pid)! };
}

describe('taggedProcesses with a start bound', () => {
  it('finds a tagged process started at or after the bound, and skips it once the bound is later', async () => {
    const tag = newTag()!;
    const older = await taggedSleep(tag);
    const newer = await taggedSleep(tag);
    try {
      expect(taggedProcesses((t) => t === tag).sort()).toEqual([older.pid, newer.pid].sort());
      // Newer than the bound (also when pids wrapped at pid_max in between): found; the bound itself is not.
      expect(taggedProcesses((t) => t === tag, { pid: older.pid, start: older.start })).toEqual([newer.pid]);
      expect(taggedProcesses((t) => t === tag, { pid: newer.pid, start: newer.start })).toEqual([]);
    } finally {
      older.child.kill('SIGKILL');
      newer.child.kill('SIGKILL');
    }
  });
});
