/**
 * The checkout lock (config/dir-lock.ts) across real processes: holders never overlap, a dead holder's
 * lock is taken over, a live one is waited for and then named.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DirLockTimeout, withDirLock } from '../../../src/config/dir-lock.js';
import { selfOwner } from '../../../src/util/owner.js';

const ROOT = join(import.meta.dirname, '../../..');
const root = mkdtempSync(join(tmpdir(), 'axis-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A child process that takes the lock on `dir`, logs enter/exit around a 150 ms hold. */
function contender(dir: string, log: string): Promise<number | null> {
  const script = `
    const { appendFileSync } = await import('node:fs');
    const { withDirLock } = await import(${JSON.stringify(join(ROOT, 'dist/config/dir-lock.js'))});
    await withDirLock(${JSON.stringify(dir)}, 'test', async () => {
      appendFileSync(${JSON.stringify(log)}, 'enter ' + process.pid + '\\n');
      await new Promise((r) => setTimeout(r, 150));
      appendFileSync(${JSON.stringify(log)}, 'exit ' + process.pid + '\\n');
    }, { pollMs: 20 });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
  return new Promise((r) => child.on('close', r));
}

describe('withDirLock', () => {
  it('four processes contending for one checkout take turns: every enter is followed by its own exit', async () => {
    const dir = join(root, 'remotes/local/acme/suite@v1');
    const log = join(root, 'turns.log');
    const codes = await Promise.all([1, 2, 3, 4].map(() => contender(dir, log)));
    expect(codes).toEqual([0, 0, 0, 0]);
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(8);
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i]).toMatch(/^enter \d+$/);
      expect(lines[i + 1]).toBe(lines[i]!.replace('enter', 'exit'));
    }
    expect(existsSync(`${dir}.lock`)).toBe(false);
  }, 30_000);

  it("a dead holder's lock (its pid gone or reused) is taken over, and nothing is left beside it", async () => {
    const dir = join(root, 'stale');
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const me = selfOwner()!;
    const dead = { pid: gone, since: '2026-01-01T00:00:00.000Z', owner: { ...me, pid: gone, start: 1 } };
    writeFileSync(`${dir}.lock`, JSON.stringify(dead));
    let ran = false;
    await withDirLock(dir, 'test', async () => {
      ran = true;
      expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    });
    expect(ran).toBe(true);
    expect(readdirSync(root).filter((n) => n.startsWith('stale'))).toEqual([]);
  });

  it('a live holder is waited for, then named in the error', async () => {
    const dir = join(root, 'live');
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.pid, since: 'now', owner: selfOwner() }));
    const started = Date.now();
    const err = await withDirLock(dir, 'git source x', async () => 1, { timeoutMs: 400, pollMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(err).toBeInstanceOf(DirLockTimeout);
    expect((err as Error).message).toContain(
      `git source x: ${dir}.lock is held by pid ${process.pid} since now`,
    );
    expect(existsSync(`${dir}.lock`)).toBe(true); // a live holder's lock is never removed
  });

  it('a wait is said once, naming the lock and its holder, so a blocked command is not silent', async () => {
    const dir = join(root, 'said');
    writeFileSync(`${dir}.lock`, '');
    const said: string[] = [];
    const opts = { timeoutMs: 300, pollMs: 20, noticeAfterMs: 50, onWait: (m: string) => said.push(m) };
    await withDirLock(dir, 'Baseline "main"', async () => 1, opts).catch(() => undefined);
    expect(said).toEqual([
      `Baseline "main": waiting for ${dir}.lock (being written, or left by a process killed while writing it: taken over 30 s after its last change)`,
    ]);
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.pid, since: 'now', owner: selfOwner() }));
    said.length = 0;
    await withDirLock(dir, 'Baseline "main"', async () => 1, opts).catch(() => undefined);
    expect(said).toEqual([`Baseline "main": waiting for ${dir}.lock (held by pid ${process.pid} since now)`]);
  });

  it('an unreadable lock blocks only while it is fresh (a holder still writing it)', async () => {
    const dir = join(root, 'garbled');
    writeFileSync(`${dir}.lock`, '');
    const fresh = await withDirLock(dir, 't', async () => 1, { timeoutMs: 200, pollMs: 50 }).catch((e) => e);
    expect(fresh).toBeInstanceOf(DirLockTimeout);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(`${dir}.lock`, old, old);
    expect(await withDirLock(dir, 't', async () => 2)).toBe(2);
  });
});
