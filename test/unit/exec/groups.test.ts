import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive, signalGroup } from '../../../src/exec/groups.js';

const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** A real process leading a group of its own (detached), as a job's process does. */
async function groupLeader() {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  await once(child, 'spawn');
  started.push(child.pid!);
  return child;
}

describe.skipIf(process.platform === 'win32')('signalGroup', () => {
  it('is true for a live group, false once it is gone, and leaves Error.stackTraceLimit as it was', async () => {
    const before = Error.stackTraceLimit;
    const child = await groupLeader();
    expect(signalGroup(child.pid!, 0)).toBe(true);
    expect(groupAlive(child.pid!)).toBe(true);
    expect(Error.stackTraceLimit).toBe(before);

    const exited = once(child, 'exit');
    expect(signalGroup(child.pid!, 'SIGKILL')).toBe(true);
    await exited; // reaped: the group is gone
    expect(signalGroup(child.pid!, 0)).toBe(false);
    expect(groupAlive(child.pid!)).toBe(false);
    expect(Error.stackTraceLimit).toBe(before);
  });

  it('restores a limit the caller set, after the probe failed', () => {
    const before = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 7;
      // Far above any pid the kernel hands out (pid_max is at most 2^22).
      expect(signalGroup(2 ** 30, 0)).toBe(false);
      expect(Error.stackTraceLimit).toBe(7);
      expect(new Error('x').stack?.split('\n').length).toBeGreaterThan(1);
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});
