import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRawFile } from '../../../src/report/raw-file.js';
import { createScrubber } from '../../../src/report/scrub.js';
import { RawLog } from '../../../src/exec/output-cap.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

const scrub = () =>
  createScrubber({ secrets: ['tok-abcdefgh1'], paths: [['/tmp/axis-zz/work', '<workspace>']] });

describe('raw lines streamed to disk', () => {
  it('writes scrubbed lines as they arrive under a temp name, then moves the file into place', async () => {
    const dir = tempDir('axis-raw-');
    const path = join(dir, 'scenarios', 'a', 'x.raw.ndjson');
    const sink = openRawFile(path, scrub());
    sink.write('{"a":"tok-abcdefgh1 in /tmp/axis-zz/work/f"}');
    sink.write('two\r\nparts');
    // Enough to flush a chunk before the run ends: the data is on disk, not in memory.
    const big = 'y'.repeat(300 * 1024);
    sink.write(big);
    await new Promise((r) => setTimeout(r, 50));
    const during = readdirSync(join(dir, 'scenarios', 'a'));
    expect(during).toHaveLength(1);
    expect(during[0]).toMatch(/^x\.raw\.ndjson\.tmp-\d+-[a-z0-9]+$/);
    expect(readFileSync(join(dir, 'scenarios', 'a', during[0]!), 'utf8').length).toBeGreaterThan(big.length);
    sink.write('last');
    expect(await sink.commit()).toBe(true);
    expect(readdirSync(join(dir, 'scenarios', 'a'))).toEqual(['x.raw.ndjson']);
    expect(readFileSync(path, 'utf8')).toBe(`{"a":"[REDACTED] in <workspace>/f"}\ntwo parts\n${big}\nlast\n`);
  });

  it('keeps every byte across buffer sizes and boundaries: multi-byte text, empty and huge lines', async () => {
    let seed = 3;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const alphabet = ['a', 'é', '€', '😀', ' ', '{', '"', '\\'];
    // First: a line whose bytes end exactly at the end of the first 16 KB buffer, newline not included.
    const lines: string[] = ['abc', '€'.repeat(5_460)];
    for (let i = 0; i < 400; i++) {
      const n = rand() < 0.05 ? 90_000 + Math.floor(rand() * 200_000) : Math.floor(rand() * 9_000);
      let line = '';
      while (line.length < n)
        line += alphabet[Math.floor(rand() * alphabet.length)]!.repeat(1 + Math.floor(rand() * 40));
      lines.push(line.slice(0, n).replace(/[\ud800-\udbff]$/, 'x'));
    }
    const path = join(tempDir('axis-raw-'), 'x.raw.ndjson');
    const sink = openRawFile(path, scrub());
    for (const l of lines) sink.write(l);
    expect(await sink.commit()).toBe(true);
    expect(readFileSync(path).equals(Buffer.from(`${lines.join('\n')}\n`, 'utf8'))).toBe(true);
  });

  it("copies a line's bytes when nothing in it changes, and scrubs and encodes the line when something does", async () => {
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = [
      'a',
      'é',
      '€',
      '😀',
      ' ',
      '"',
      '\\',
      'tok-abcdefgh1',
      '/tmp/axis-zz/work',
      '\\/tmp',
      '\r',
    ];
    const lines: string[] = ['€'.repeat(5_460), ''];
    for (let i = 0; i < 300; i++) {
      const n = rand() < 0.05 ? 90_000 + Math.floor(rand() * 200_000) : Math.floor(rand() * 9_000);
      let line = '';
      while (line.length < n)
        line += pieces[Math.floor(rand() * pieces.length)]!.repeat(1 + Math.floor(rand() * 5));
      lines.push(line);
    }
    const dir = tempDir('axis-raw-');
    const plain = openRawFile(join(dir, 'plain.raw.ndjson'), scrub());
    const copied = openRawFile(join(dir, 'copied.raw.ndjson'), scrub());
    for (const l of lines) {
      plain.write(l);
      copied.write(l, Buffer.from(l, 'utf8'));
    }
    expect(await plain.commit()).toBe(true);
    expect(await copied.commit()).toBe(true);
    const want = readFileSync(join(dir, 'plain.raw.ndjson'));
    expect(want.toString('utf8')).not.toMatch(/tok-abcdefgh1|\/tmp\/axis-zz\/work|\r/);
    expect(readFileSync(join(dir, 'copied.raw.ndjson')).equals(want)).toBe(true);
    // The bytes are what is written when the line is unchanged (here they differ from the line on purpose).
    const path = join(dir, 'bytes.raw.ndjson');
    const sink = openRawFile(path, scrub());
    sink.write('abc', Buffer.from('xyz'));
    sink.write('tok-abcdefgh1', Buffer.from('xyz'));
    expect(await sink.commit()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('xyz\n[REDACTED]\n');
  });

  it('writes no file when nothing was printed', async () => {
    const dir = tempDir('axis-raw-');
    const sink = openRawFile(join(dir, 'x.raw.ndjson'), scrub());
    expect(await sink.commit()).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails the commit loudly and leaves no temp file when the directory cannot be made', async () => {
    const dir = tempDir('axis-raw-');
    writeFileSync(join(dir, 'scenarios'), 'a file, not a directory');
    const sink = openRawFile(join(dir, 'scenarios', 'x.raw.ndjson'), scrub());
    sink.write('line');
    await expect(sink.commit()).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(readdirSync(dir)).toEqual(['scenarios']);
    // The same when the failure comes while the agent is still printing (a chunk written mid-run):
    // nothing is thrown into the agent's output callback, and nothing more is kept.
    let made = 0;
    const late = openRawFile(join(dir, 'scenarios', 'y.raw.ndjson'), scrub(), () => {
      made++;
      throw new Error('EACCES: cannot make the directory');
    });
    late.write('x'.repeat(20_000));
    for (let i = 0; i < 100; i++) late.write('y'.repeat(20_000));
    expect(made).toBe(1);
    await expect(late.commit()).rejects.toThrow(/EACCES/);
    expect(readdirSync(dir)).toEqual(['scenarios']);
  });

  it('is on disk at most one buffer behind the lines written, with no turn of the event loop', async () => {
    const dir = tempDir('axis-raw-');
    const sink = openRawFile(join(dir, 'x.raw.ndjson'), scrub());
    const line = 'é'.repeat(3_000);
    let written = 0;
    for (let i = 0; i < 1_500; i++) {
      sink.write(line, Buffer.from(line));
      written += Buffer.byteLength(line) + 1;
      if (i % 100 === 99) {
        const onDisk = statSync(join(dir, readdirSync(dir)[0]!)).size;
        expect(written - onDisk).toBeLessThanOrEqual(1 << 20);
      }
    }
    expect(written).toBeGreaterThan(8 << 20);
    expect(await sink.commit()).toBe(true);
    expect(statSync(join(dir, 'x.raw.ndjson')).size).toBe(written);
  });

  it('a failed write mid-run leaves no temp file and fails the commit', async () => {
    const dir = tempDir('axis-raw-');
    const path = join(dir, 'x.raw.ndjson');
    const sink = openRawFile(path, scrub());
    sink.write('a'.repeat(40_000));
    const [tmp] = readdirSync(dir);
    expect(tmp).toMatch(/^x\.raw\.ndjson\.tmp-/);
    // The temp file's directory goes away under it: the next chunk's write still succeeds on the open
    // file, so the failure comes at the rename, which must report it and clean up.
    rmSync(dir, { recursive: true, force: true });
    sink.write('b'.repeat(40_000));
    await expect(sink.commit()).rejects.toThrow(/ENOENT/);
    expect(existsSync(dir)).toBe(false);
  });

  it('RawLog keeps lines up to the cap, counts the rest and passes the kept ones on', async () => {
    const dir = tempDir('axis-raw-');
    mkdirSync(join(dir, 'r'));
    const path = join(dir, 'r', 'x.raw.ndjson');
    const log = new RawLog(openRawFile(path, scrub()), 10);
    for (const l of ['abcd', 'efgh', 'ij', 'k']) log.push(l);
    expect({ kept: log.kept, dropped: log.dropped }).toEqual({ kept: 2, dropped: 2 });
    expect(await log.commit()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('abcd\nefgh\n');
    // With the bytes given, their length is what counts against the cap (é is 2 bytes: 4 + 1 > 4).
    const bytes = new RawLog(openRawFile(join(dir, 'r', 'y.raw.ndjson'), scrub()), 9);
    bytes.push('ééé', Buffer.from('ééé'));
    bytes.push('é', Buffer.from('é'));
    expect({ kept: bytes.kept, dropped: bytes.dropped }).toEqual({ kept: 1, dropped: 1 });
    expect(await bytes.commit()).toBe(true);
    const none = new RawLog();
    none.push('x');
    expect(await none.commit()).toBe(false);
  });
});
