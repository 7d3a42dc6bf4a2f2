import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAlive, waitFor } from '../../unit/exec/helpers.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/runner/interrupt.mjs', import.meta.url));

interface Fixture {
  child: ChildProcess;
  next: (key: string) => Promise<Record<string, unknown>>;
  exit: Promise<number | null>;
}

/** Starts the fixture; `next(key)` resolves with the first JSON line that has `key`. */
function startFixture(graceMs: number): Fixture {
  // The fixture's jobs print their own pids, which only mean something outside a PID namespace: this file
  // tests the signal handling in the process-group mode (namespaces: test/e2e/hostile/orphans.test.ts).
  const child = spawn(process.execPath, [FIXTURE, String(graceMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, AXIS_CONTAINMENT: 'process-group' },
  });
  const seen: Record<string, unknown>[] = [];
  const waiters: { key: string; resolve: (v: Record<string, unknown>) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const msg = JSON.parse(line) as Record<string, unknown>;
    seen.push(msg);
    for (const w of waiters.filter((x) => x.key in msg)) w.resolve(msg);
  });
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const next = (key: string): Promise<Record<string, unknown>> => {
    const hit = seen.find((m) => key in m);
    return hit ? Promise.resolve(hit) : new Promise((resolve) => waiters.push({ key, resolve }));
  };
  return { child, next, exit };
}

describe('Ctrl-C handling (real processes)', () => {
  it('second SIGINT kills every process group, removes temp dirs and exits 130', async () => {
    const fx = startFixture(60_000);
    const ready = (await fx.next('ready')) as { pids: number[]; dirs: string[] };
    expect(ready.pids).toHaveLength(4);
    for (const pid of ready.pids) expect(isAlive(pid)).toBe(true);
    for (const dir of ready.dirs) expect(existsSync(dir)).toBe(true);

    fx.child.kill('SIGINT');
    const first = await fx.next('first');
    expect(first).toEqual({ first: 'SIGINT', reason: 'Run cancelled by SIGINT' });
    // The jobs got SIGTERM, which they ignore: still running after the first signal.
    for (const pid of ready.pids) expect(isAlive(pid)).toBe(true);

    fx.child.kill('SIGINT');
    expect(await fx.exit).toBe(130);
    expect(await waitFor(() => ready.pids.every((pid) => !isAlive(pid)))).toBe(true);
    for (const dir of ready.dirs) expect(existsSync(dir)).toBe(false);
  });

  it('SIGTERM twice exits 143 with the same cleanup', async () => {
    const fx = startFixture(60_000);
    const ready = (await fx.next('ready')) as { pids: number[]; dirs: string[] };
    fx.child.kill('SIGTERM');
    await fx.next('first');
    fx.child.kill('SIGTERM');
    expect(await fx.exit).toBe(143);
    expect(await waitFor(() => ready.pids.every((pid) => !isAlive(pid)))).toBe(true);
    for (const dir of ready.dirs) expect(existsSync(dir)).toBe(false);
  });

  it('a single SIGINT stops the jobs and lets the run finish normally', async () => {
    const fx = startFixture(200);
    const ready = (await fx.next('ready')) as { pids: number[]; dirs: string[] };
    fx.child.kill('SIGINT');
    const done = (await fx.next('done')) as { done: { aborted: boolean; abortReason: string }[] };
    expect(done.done).toEqual([
      { aborted: true, abortReason: 'Run cancelled by SIGINT', signal: 'SIGKILL' },
      { aborted: true, abortReason: 'Run cancelled by SIGINT', signal: 'SIGKILL' },
    ]);
    expect(await fx.exit).toBe(0);
    for (const pid of ready.pids) expect(isAlive(pid)).toBe(false);
    for (const dir of ready.dirs) expect(existsSync(dir)).toBe(false);
  });
});
