import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newTag } from '../../../src/exec/contain.js';
import { killAll, killTagged, liveProcessGroups } from '../../../src/exec/groups.js';
import { LineSplitter } from '../../../src/exec/line-splitter.js';
import { spawnAgentProcess, type SpawnAgentOptions } from '../../../src/exec/process.js';
import { isAlive, shOptions, waitFor } from './helpers.js';

// These cases read pids the child prints, which only mean something outside a PID namespace: they test
// the process-group fallback (the namespace mode is covered by test/e2e/hostile/orphans.test.ts).
process.env.AXIS_CONTAINMENT = 'process-group';

const cwd = mkdtempSync(join(tmpdir(), 'axis-proc-test-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function sh(script: string, extra: Partial<SpawnAgentOptions> = {}): SpawnAgentOptions {
  return shOptions(cwd, script, extra);
}

function node(code: string, extra: Partial<SpawnAgentOptions> = {}): SpawnAgentOptions {
  return { ...sh('', extra), command: process.execPath, args: ['-e', code] };
}

// A grandchild that ignores SIGTERM (the disposition survives exec), its pid printed on stdout.
const STUBBORN_GRANDCHILD = `(trap "" TERM; exec sleep 1000) & echo "$!"`;

describe('spawnAgentProcess', () => {
  it('collects exit code and stdout lines', async () => {
    const lines: string[] = [];
    const res = await spawnAgentProcess(
      sh('echo one; echo two; exit 3', { onStdoutLine: (l) => lines.push(l) }),
    );
    expect(lines).toEqual(['one', 'two']);
    expect(res.exitCode).toBe(3);
    expect(res.timedOut).toBe(false);
    expect(res.aborted).toBe(false);
    expect(res.spawnError).toBeUndefined();
    expect(res.pid).toBeGreaterThan(0);
  });

  it('on timeout kills the whole group, SIGKILLing a grandchild that ignores SIGTERM', async () => {
    const pids: number[] = [];
    let leader = 0;
    const res = await spawnAgentProcess(
      sh(`${STUBBORN_GRANDCHILD}; echo "$$"; wait`, {
        timeoutMs: 500,
        onSpawn: (pid) => (leader = pid),
        onStdoutLine: (l) => pids.push(Number(l)),
      }),
    );
    expect(res.timedOut).toBe(true);
    expect(res.aborted).toBe(false);
    expect(pids).toHaveLength(2);
    expect(pids[1]).toBe(leader);
    expect(isAlive(pids[0]!)).toBe(false);
    expect(isAlive(leader)).toBe(false);
    expect(liveProcessGroups()).not.toContain(leader);
  });

  it('when the leader exits first, terminates what is left of its group', async () => {
    const pids: number[] = [];
    const res = await spawnAgentProcess(
      sh(`(exec sleep 1000) >/dev/null 2>&1 & echo "$!"; ${STUBBORN_GRANDCHILD} >/dev/null; exit 0`, {
        onStdoutLine: (l) => pids.push(Number(l)),
      }),
    );
    expect(res.exitCode).toBe(0);
    expect(res.timedOut).toBe(false);
    expect(pids).toHaveLength(1);
    expect(isAlive(pids[0]!)).toBe(false);
  });

  it('leaves no orphan when the stubborn grandchild redirected its output away', async () => {
    let grandchild = 0;
    const res = await spawnAgentProcess(
      sh(`(trap "" TERM; exec sleep 1000) >/dev/null 2>&1 & echo "$!"; exit 0`, {
        onStdoutLine: (l) => (grandchild = Number(l)),
      }),
    );
    expect(res.exitCode).toBe(0);
    expect(grandchild).toBeGreaterThan(0);
    expect(isAlive(grandchild)).toBe(false);
  });

  it('abort terminates the process and reports the reason', async () => {
    const controller = new AbortController();
    let grandchild = 0;
    const res = await spawnAgentProcess(
      sh(`${STUBBORN_GRANDCHILD}; wait`, {
        signal: controller.signal,
        onStdoutLine: (l) => {
          grandchild = Number(l);
          controller.abort(new Error('stop now'));
        },
      }),
    );
    expect(res.aborted).toBe(true);
    expect(res.abortReason).toBe('stop now');
    expect(res.timedOut).toBe(false);
    expect(res.exitCode).toBeNull();
    expect(res.signal).toBe('SIGTERM');
    expect(isAlive(grandchild)).toBe(false);
  });

  it('does not start at all when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort('gone');
    let started = false;
    const res = await spawnAgentProcess(
      sh('echo hi', { signal: controller.signal, onSpawn: () => (started = true) }),
    );
    expect(started).toBe(false);
    expect(res.aborted).toBe(true);
    expect(res.abortReason).toBe('gone');
  });

  it('a missing binary is a clean spawnError, not an exception', async () => {
    const res = await spawnAgentProcess({ ...sh(''), command: 'axis-no-such-binary-xyz', args: [] });
    expect(res.spawnError).toMatch(/Cannot start "axis-no-such-binary-xyz": command not found/);
    expect(res.exitCode).toBeNull();
  });

  it('a missing working directory is named in the spawnError', async () => {
    const res = await spawnAgentProcess(sh('true', { cwd: join(cwd, 'missing-dir') }));
    expect(res.spawnError).toContain('working directory does not exist');
  });

  it('an oversized argument (E2BIG) is a clean spawnError', async () => {
    const res = await spawnAgentProcess({ ...sh(''), command: '/bin/echo', args: ['x'.repeat(300_000)] });
    expect(res.spawnError).toMatch(/E2BIG/);
    expect(res.spawnError).toMatch(/stdin/);
  });

  it('passes large input through stdin instead of argv', async () => {
    const big = `${'a'.repeat(500_000)}\n${'b'.repeat(10)}\n`;
    const lines: string[] = [];
    const res = await spawnAgentProcess({
      ...sh(''),
      command: 'cat',
      args: [],
      stdin: big,
      onStdoutLine: (l) => lines.push(l),
    });
    expect(res.exitCode).toBe(0);
    expect(lines).toEqual(['a'.repeat(500_000), 'b'.repeat(10)]);
  });

  it('stdin "ignore" gives the child an immediately closed input', async () => {
    const lines: string[] = [];
    const res = await spawnAgentProcess(
      sh('cat; echo done', { stdin: 'ignore', onStdoutLine: (l) => lines.push(l) }),
    );
    expect(res.exitCode).toBe(0);
    expect(lines).toEqual(['done']);
  });

  it('caps stdout, keeps draining, and reports the cap', async () => {
    let delivered = 0;
    const res = await spawnAgentProcess(
      sh('yes abcdefghi | head -n 100000', {
        maxStdoutBytes: 10_000,
        onStdoutLine: (l) => (delivered += l.length + 1),
      }),
    );
    expect(res.exitCode).toBe(0);
    expect(res.stdoutTruncated).toBe(true);
    expect(res.stdoutBytes).toBe(1_000_000);
    expect(delivered).toBeLessThanOrEqual(10_000);
    expect(delivered).toBeGreaterThan(9_000);
  });

  it('joins lines split across chunks, strips CRLF and keeps multi-byte characters whole', async () => {
    const lines: string[] = [];
    const code = `
      const w = (b, ms) => setTimeout(() => process.stdout.write(b), ms);
      w('ab', 0); w('c\\r\\nde', 60); w(Buffer.from([0xe2, 0x82]), 120); w(Buffer.from([0xac, 0x0a, 0x0a]), 180); w('tail', 240);`;
    const res = await spawnAgentProcess(node(code, { onStdoutLine: (l) => lines.push(l) }));
    expect(res.exitCode).toBe(0);
    expect(lines).toEqual(['abc', 'de€', '', 'tail']);
  });

  it('cuts an overlong line instead of buffering it', async () => {
    const got: { line: string; truncated: boolean }[] = [];
    const res = await spawnAgentProcess(
      sh(`head -c 100000 /dev/zero | tr '\\0' x; echo; echo ok`, {
        maxLineBytes: 100,
        onStdoutLine: (line, info) => got.push({ line, truncated: info.truncated }),
      }),
    );
    expect(res.truncatedLines).toBe(1);
    expect(got).toEqual([
      { line: 'x'.repeat(100), truncated: true },
      { line: 'ok', truncated: false },
    ]);
  });

  it('keeps the tail of stderr and mirrors it to onStderr', async () => {
    let mirrored = '';
    const res = await spawnAgentProcess(
      sh(`head -c 10000 /dev/zero | tr '\\0' e >&2; printf END >&2`, {
        maxStderrBytes: 100,
        onStderr: (t) => (mirrored += t),
      }),
    );
    expect(res.stderrTruncated).toBe(true);
    expect(res.stderrTail).toHaveLength(100);
    expect(res.stderrTail.endsWith('eeeEND')).toBe(true);
    expect(mirrored).toHaveLength(10_003);
  });

  it('a throwing callback is recorded, not thrown', async () => {
    const res = await spawnAgentProcess(
      sh('echo a; echo b', {
        onStdoutLine: () => {
          throw new Error('parser blew up');
        },
      }),
    );
    expect(res.exitCode).toBe(0);
    expect(res.callbackError).toBe('parser blew up');
  });

  it('registers live groups and killAll() ends them', async () => {
    let leader = 0;
    const pending = spawnAgentProcess(
      sh('echo up; exec sleep 1000', { onStdoutLine: () => undefined, onSpawn: (p) => (leader = p) }),
    );
    expect(await waitFor(() => leader > 0 && liveProcessGroups().includes(leader))).toBe(true);
    expect(killAll('SIGKILL')).toBeGreaterThanOrEqual(1);
    const res = await pending;
    expect(res.signal).toBe('SIGKILL');
    expect(isAlive(leader)).toBe(false);
    expect(liveProcessGroups()).not.toContain(leader);
  });
});

describe('killTagged (what lifecycle scripts leave running)', () => {
  it('ends a background process a script started under the scope tag, once', async () => {
    const tag = newTag()!;
    const out: string[] = [];
    // The child says its pid once it is in its own session, so the script's exit cannot race setsid.
    const script =
      "rm -f svc.pid; setsid sh -c 'echo $$ > svc.pid; exec sleep 1000' >/dev/null 2>&1 & " +
      'while [ ! -s svc.pid ]; do sleep 0.01; done; cat svc.pid';
    const res = await spawnAgentProcess(sh(script, { scopeTag: tag, onStdoutLine: (l) => out.push(l) }));
    const pid = Number(out[0]);
    expect(res.exitCode).toBe(0);
    expect(isAlive(pid)).toBe(true);
    expect(await killTagged(tag, 1000)).toBe(1);
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    expect(await killTagged(tag, 1000)).toBe(0);
  });

  it('a tag no process was started under has nothing to end', async () => {
    expect(await killTagged(newTag()!, 1000)).toBe(0);
  });
});

describe('LineSplitter', () => {
  /** Every emitted line with its cut flag and bytes, the stream pushed in chunks of the given sizes. */
  function splitAll(stream: Buffer, maxLine: number, sizes: number[]): string[] {
    const out: string[] = [];
    const s = new LineSplitter(maxLine, (line, cut, utf8) =>
      out.push(`${JSON.stringify(line)} ${cut} ${utf8?.toString('hex') ?? '-'}`),
    );
    for (let at = 0, k = 0; at < stream.length; k++) {
      const size = sizes[k % sizes.length]!;
      s.push(stream.subarray(at, at + size));
      at += size;
    }
    s.end();
    return out;
  }

  it('splits a stream the same however it is cut into chunks', () => {
    // Empty lines, CRLF, a lone CR inside a line, lines at, over and far over the cap, lines across chunk
    // borders, multi-byte characters (some cut by a chunk border or by the cap), a stretch with invalid
    // bytes, and a last line without a break.
    let seed = 3;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const parts: Buffer[] = [];
    let count = 0;
    for (let i = 0; i < 900; i++) {
      const len = [0, 1, 99, 100, 101, 250, rand(120)][rand(7)]!;
      let line = '';
      for (let j = 0; j < len; j++)
        line += rand(12) === 0 ? 'é€😀'[rand(3)]! : String.fromCharCode(32 + rand(95));
      if (rand(9) === 0) line = `a\r${line}`;
      parts.push(Buffer.from(line));
      if (i >= 600 && i < 620 && rand(3) === 0) parts.push(Buffer.from([0xff, 0xc3]));
      parts.push(Buffer.from(rand(4) === 0 ? '\r\n' : '\n'));
      count++;
    }
    parts.push(Buffer.from('tail'));
    const stream = Buffer.concat(parts);
    const byteByByte = splitAll(stream, 100, [1]);
    expect(byteByByte.length).toBe(count + 1);
    expect(byteByByte.some((l) => l.includes(' true '))).toBe(true); // some were cut
    expect(byteByByte.some((l) => l.endsWith(' -'))).toBe(true); // some were not valid UTF-8
    for (const sizes of [[stream.length], [4096], [5000, 4097, 6000], [65536], [70_000, 3]])
      expect(splitAll(stream, 100, sizes)).toEqual(byteByByte);
  });

  it('emits complete lines only, flushing the rest at end', () => {
    const out: string[] = [];
    const s = new LineSplitter(1000, (l) => out.push(l));
    s.push(Buffer.from('a'));
    s.push(Buffer.from('b\nc'));
    expect(out).toEqual(['ab']);
    s.push(Buffer.from('\r\n'));
    s.push(Buffer.from('last'));
    s.end();
    expect(out).toEqual(['ab', 'c', 'last']);
  });

  it("gives a line's bytes only when they are valid UTF-8, so exactly the line's encoding", () => {
    const out: { line: string; utf8: string | undefined }[] = [];
    const s = new LineSplitter(6, (line, _cut, utf8) => out.push({ line, utf8: utf8?.toString('hex') }));
    const bytes = (...b: number[]) => Buffer.from(b);
    // é split across chunks; a lone continuation byte; an overlong encoding; an encoded surrogate; a BOM;
    // a line cut inside a character (6 bytes kept of ab€€: the second € loses its last byte).
    s.push(Buffer.concat([Buffer.from('a'), bytes(0xc3)]));
    s.push(Buffer.concat([bytes(0xa9), Buffer.from('\n')]));
    s.push(bytes(0x61, 0x80, 0x0a, 0xc0, 0xaf, 0x0a, 0xed, 0xa0, 0x80, 0x0a, 0xef, 0xbb, 0xbf, 0x41, 0x0a));
    s.push(Buffer.from('ab€€\r\n'));
    s.end();
    expect(out.map((o) => o.line)).toEqual([
      'aé',
      'a\ufffd',
      '\ufffd\ufffd',
      '\ufffd\ufffd\ufffd',
      '\ufeffA',
      'ab€\ufffd',
    ]);
    for (const o of out)
      expect(o.utf8).toBe(o.line.includes('\ufffd') ? undefined : Buffer.from(o.line).toString('hex'));
  });
});
