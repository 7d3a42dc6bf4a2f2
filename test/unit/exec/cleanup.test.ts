import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installInterruptHandler } from '../../../src/exec/cleanup.js';
import { spawnAgentProcess } from '../../../src/exec/process.js';
import { registerTempDir } from '../../../src/exec/workspace.js';
import { isAlive, testEnv, waitFor } from './helpers.js';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

describe('installInterruptHandler', () => {
  it('adds one listener per signal and removes them again', () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    uninstall = installInterruptHandler({ controller: new AbortController(), exit: () => undefined });
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual([
      before[0]! + 1,
      before[1]! + 1,
    ]);
    uninstall();
    uninstall(); // idempotent
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  it('first signal aborts the run, second kills process groups, removes temp dirs and exits 130', async () => {
    const controller = new AbortController();
    const codes: number[] = [];
    const events: string[] = [];
    uninstall = installInterruptHandler({
      controller,
      exit: (code) => codes.push(code),
      onFirst: (s) => events.push(`first:${s}`),
      onForce: (s) => events.push(`force:${s}`),
    });
    const dir = mkdtempSync(join(tmpdir(), 'axis-cleanup-test-'));
    registerTempDir(dir);
    let leader = 0;
    // Not tied to the controller: only the forced cleanup can end it.
    const job = spawnAgentProcess({
      command: '/bin/sh',
      args: ['-c', 'exec sleep 1000'],
      cwd: dir,
      env: testEnv(),
      timeoutMs: 0,
      maxStdoutBytes: 1024,
      maxStderrBytes: 1024,
      onSpawn: (pid) => (leader = pid),
    });
    expect(await waitFor(() => leader > 0)).toBe(true);

    process.emit('SIGINT');
    expect(controller.signal.aborted).toBe(true);
    expect((controller.signal.reason as Error).message).toBe('Run cancelled by SIGINT');
    expect(codes).toEqual([]);
    expect(isAlive(leader)).toBe(true);

    process.emit('SIGINT');
    expect(events).toEqual(['first:SIGINT', 'force:SIGINT']);
    expect(codes).toEqual([130]);
    expect(existsSync(dir)).toBe(false);
    const res = await job;
    expect(res.signal).toBe('SIGKILL');
    expect(isAlive(leader)).toBe(false);
  });

  it('exits 143 on a second SIGTERM', () => {
    const codes: number[] = [];
    uninstall = installInterruptHandler({
      controller: new AbortController(),
      exit: (code) => codes.push(code),
    });
    process.emit('SIGTERM');
    process.emit('SIGTERM');
    expect(codes).toEqual([143]);
  });

  it('does nothing once uninstalled', () => {
    const controller = new AbortController();
    const codes: number[] = [];
    const off = installInterruptHandler({
      controller,
      exit: (code) => codes.push(code),
      signals: ['SIGTERM'],
    });
    off();
    process.emit('SIGTERM'); // emit() only calls listeners; no default action is taken
    expect(controller.signal.aborted).toBe(false);
    expect(codes).toEqual([]);
  });
});
