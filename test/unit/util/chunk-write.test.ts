import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChunksOverlapped } from '../../../src/util/chunk-write.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-chunk-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Open descriptors of this process (a handle left open by a failed write shows up here). */
const openFds = () => readdirSync('/proc/self/fd').length;

describe('writeChunksOverlapped', () => {
  it('writes every chunk in order: strings, buffers, empty ones, multi-byte text', async () => {
    const chunks: (string | Buffer)[] = [];
    for (let i = 0; i < 200; i++)
      chunks.push(i % 3 === 0 ? `é${i}€\n` : i % 3 === 1 ? Buffer.alloc(70_000, 65 + (i % 26)) : '');
    const path = join(dir, 'many');
    await writeChunksOverlapped(path, chunks);
    expect(readFileSync(path).equals(Buffer.concat(chunks.map((c) => Buffer.from(c))))).toBe(true);
  });

  it('builds the next chunk while the previous one is written', async () => {
    // Between yielding chunk n and being asked for chunk n+1 no event-loop turn may pass: the write of
    // chunk n is in flight meanwhile. (fs/promises.writeFile waits for each write's completion first.)
    const turned: boolean[] = [];
    let turn = false;
    function* gen(): Generator<Buffer> {
      for (let i = 0; i < 4; i++) {
        if (i > 0) turned.push(turn);
        turn = false;
        setImmediate(() => (turn = true));
        yield Buffer.alloc(1 << 20, 48 + i);
      }
    }
    const path = join(dir, 'overlap');
    await writeChunksOverlapped(path, gen());
    expect(turned).toEqual([false, true, true]);
    expect(readFileSync(path).length).toBe(4 << 20);
  });

  it('truncates an existing file', async () => {
    const path = join(dir, 'shorter');
    await writeChunksOverlapped(path, 'a long first version\n');
    await writeChunksOverlapped(path, ['short']);
    expect(readFileSync(path, 'utf8')).toBe('short');
  });

  it('rejects with the write error (ENOSPC) and leaves no descriptor open', async () => {
    const before = openFds();
    await expect(
      writeChunksOverlapped('/dev/full', [Buffer.alloc(1 << 16, 1), Buffer.alloc(1 << 16, 2), 'x']),
    ).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(openFds()).toBe(before);
  });

  it('rejects with the error of a chunk that fails to build, after the write in flight settles', async () => {
    function* failing(): Generator<string> {
      yield 'first chunk\n';
      throw new Error('cannot serialize');
    }
    const before = openFds();
    const path = join(dir, 'failing');
    await expect(writeChunksOverlapped(path, failing())).rejects.toThrow('cannot serialize');
    expect(openFds()).toBe(before);
    expect(readFileSync(path, 'utf8')).toBe('first chunk\n');
  });

  it('a build error while a write is failing reports the build error and raises no unhandled rejection', async () => {
    function* failing(): Generator<Buffer> {
      yield Buffer.alloc(1 << 16, 1);
      throw new Error('second chunk failed');
    }
    await expect(writeChunksOverlapped('/dev/full', failing())).rejects.toThrow('second chunk failed');
  });
});
