import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { giveBuffer, POOL_BUFFER_BYTES, pooledBuffers, takeBuffer } from '../../../src/util/buffer-pool.js';
import { compactJsonChunks, prettyJsonChunks } from '../../../src/report/json-chunks.js';
import { writeChunksOverlapped } from '../../../src/util/chunk-write.js';
import { openRawFile } from '../../../src/report/raw-file.js';
import { createScrubber } from '../../../src/report/scrub.js';
import { streamReportData, decodeReportData } from '../../../src/report/html/render.js';
import type { HtmlReportData } from '../../../src/report/html/model.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-buffer-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Empties the pool: each test starts from none. */
function drain(): void {
  while (pooledBuffers() > 0) takeBuffer();
}

/** A value whose pretty JSON is several megabytes (a long array of objects with text). */
function bigValue(n = 6000): Record<string, unknown> {
  return {
    reportId: 'x',
    events: Array.from({ length: n }, (_, i) => ({ kind: 'text', i, text: `é€ line ${i} `.repeat(40) })),
  };
}

beforeEach(drain);

describe('buffer pool', () => {
  it('hands out megabyte buffers and takes back only its own, whole, once', () => {
    const a = takeBuffer();
    expect(a.length).toBe(POOL_BUFFER_BYTES);
    giveBuffer(Buffer.alloc(POOL_BUFFER_BYTES)); // not the pool's
    giveBuffer(Buffer.allocUnsafe(100)); // a slice of Node's shared pool
    expect(pooledBuffers()).toBe(0);
    giveBuffer(a.subarray(10, 500)); // a view: the whole buffer comes back
    giveBuffer(a); // twice: still one entry
    expect(pooledBuffers()).toBe(1);
    const b = takeBuffer();
    expect(b.buffer).toBe(a.buffer);
    expect(b.byteOffset).toBe(0);
    expect(b.length).toBe(POOL_BUFFER_BYTES);
    expect(pooledBuffers()).toBe(0);
  });

  it('keeps at most four buffers', () => {
    const taken = Array.from({ length: 7 }, () => takeBuffer());
    for (const t of taken) giveBuffer(t);
    expect(pooledBuffers()).toBe(4);
  });

  it('never hands the same buffer to two chunks that are alive together', () => {
    // A consumer that keeps every chunk (nothing given back) must see distinct memory for each.
    const chunks = [...prettyJsonChunks(bigValue())];
    expect(chunks.length).toBeGreaterThan(3);
    expect(new Set(chunks.map((c) => c.buffer)).size).toBe(chunks.length);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toBe(JSON.stringify(bigValue(), null, 2));
  });

  it('a written file gives its chunks back, and the next file reuses them byte for byte', async () => {
    const value = bigValue();
    const first = join(dir, 'first.json');
    await writeChunksOverlapped(first, prettyJsonChunks(value));
    expect(pooledBuffers()).toBeGreaterThan(0);
    const before = pooledBuffers();
    // The second file is built from reused buffers that still hold the first file's bytes.
    const other = { ...value, reportId: 'y'.repeat(3) };
    const second = join(dir, 'second.json');
    await writeChunksOverlapped(second, prettyJsonChunks(other));
    expect(pooledBuffers()).toBe(before);
    expect(readFileSync(first, 'utf8')).toBe(JSON.stringify(value, null, 2));
    expect(readFileSync(second, 'utf8')).toBe(JSON.stringify(other, null, 2));
  });

  it('two files written at once, each from pool buffers, keep their own bytes', async () => {
    const a = bigValue(5000);
    const b = { other: bigValue(7000) };
    const [pa, pb] = [join(dir, 'a.json'), join(dir, 'b.json')];
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        writeChunksOverlapped(pa, prettyJsonChunks(a)),
        writeChunksOverlapped(pb, compactJsonChunks(b)),
      ]);
      expect(readFileSync(pa, 'utf8')).toBe(JSON.stringify(a, null, 2));
      expect(readFileSync(pb, 'utf8')).toBe(JSON.stringify(b));
    }
  });

  it('raw files written side by side from pool buffers hold every line of their own', async () => {
    const scrub = createScrubber({ secrets: [], paths: [] });
    const lines = (tag: string) =>
      Array.from({ length: 3000 }, (_, i) => `{"${tag}":${i},"text":"${'ü'.repeat(i % 2000)}"}`);
    const files = ['x', 'y'].map((tag) => ({ path: join(dir, `${tag}.raw.ndjson`), lines: lines(tag) }));
    const sinks = files.map((f) => openRawFile(f.path, scrub));
    for (let i = 0; i < 3000; i++) for (const [k, s] of sinks.entries()) s.write(files[k]!.lines[i]!);
    expect(await Promise.all(sinks.map((s) => s.commit()))).toEqual([true, true]);
    for (const f of files) expect(readFileSync(f.path, 'utf8')).toBe(`${f.lines.join('\n')}\n`);
    expect(pooledBuffers()).toBeGreaterThan(0);
  });

  it("report.html's page data gives its chunks back once zlib has taken them in", async () => {
    const data = { version: 1, filler: bigValue(8000) } as unknown as HtmlReportData;
    const payload = await streamReportData(data);
    expect(decodeReportData(payload)).toEqual(data);
    expect(pooledBuffers()).toBeGreaterThan(0);
  });
});
