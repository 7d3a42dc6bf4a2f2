import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CACHE_VERSION, FLUSH_AFTER_MS, JudgeCache } from '../../../src/scoring/cache.js';
import { COMPACT_AT } from '../../../src/scoring/cache-pack.js';
import { removeTempDirs, tempDir } from '../run/helpers.js';

afterAll(removeTempDirs);

const parts = (n: number) => ({
  cacheId: 'anthropic|m|http://127.0.0.1:1',
  system: 's',
  messages: [{ role: 'user' as const, content: `question ${n}` }],
  schema: 'goal@1',
});
const answer = (n = 0) => ({ text: `{"ok":true,"n":${n}}`, model: 'm', usage: { input: 1, output: 1 } });
const newCache = () => JudgeCache.forConfigDir(tempDir('axis-cache-test-'));
const files = (c: JudgeCache) => readdirSync(c.dir!).sort();
const packs = (c: JudgeCache) => files(c).filter((f) => f.endsWith('.pack'));

describe('JudgeCache.key', () => {
  // Keys name stored answers: they must stay what they were before the head's hash was kept.
  const before = (p: Parameters<JudgeCache['key']>[0]) =>
    createHash('sha256')
      .update(JSON.stringify([CACHE_VERSION, p.cacheId, p.system, p.messages, p.schema]))
      .digest('hex');
  it('is the sha256 of the whole key, whichever heads were hashed before', () => {
    const c = new JudgeCache(null);
    const variants = [
      parts(1),
      { ...parts(2), system: 'another "system"\nprompt, é😀' },
      { ...parts(3), cacheId: 'openai|gpt|https://x' },
      parts(4),
      { ...parts(5), schema: { type: 'object', required: ['a'] } },
      { ...parts(6), schema: undefined },
      { ...parts(7), messages: [] },
      { ...parts(8), system: 'another "system"\nprompt, é😀' },
    ];
    for (let round = 0; round < 2; round++)
      for (const v of variants) expect(c.key(v), JSON.stringify(v)).toBe(before(v));
    // More heads than are kept: the first ones are hashed again, the same.
    const many = Array.from({ length: 40 }, (_, i) => ({ ...parts(i), system: `system ${i}` }));
    for (const v of [...many, ...many]) expect(c.key(v)).toBe(before(v));
    expect(new Set(many.map((v) => c.key(v))).size).toBe(40);
  });
});

/** Stores answers 0..n-1 through a fresh instance on `dir`, then closes it (one finished pack). */
async function storeRun(dir: string, from: number, n: number): Promise<JudgeCache> {
  const c = new JudgeCache(dir);
  for (let i = from; i < from + n; i++) await c.set(c.key(parts(i)), answer(i));
  c.close();
  return c;
}

async function expectAnswers(dir: string, ns: number[]): Promise<void> {
  const reader = new JudgeCache(dir);
  for (const n of ns)
    expect((await reader.get(reader.key(parts(n))))?.text, `answer ${n}`).toBe(answer(n).text);
}

describe('JudgeCache', () => {
  it("stores a run's answers in one pack file that a later instance reads back", async () => {
    const cache = newCache();
    const keys = [1, 2, 3].map((n) => cache.key(parts(n)));
    expect(new Set(keys).size).toBe(3);
    await Promise.all(keys.map((k, i) => cache.set(k, answer(i + 1))));
    cache.flush();
    expect(files(cache)).toHaveLength(1);
    expect(packs(cache)).toHaveLength(1);
    // Its own answers are found at once, before it closes.
    expect(await cache.get(keys[1]!)).toMatchObject({ text: answer(2).text, version: 1, model: 'm' });
    cache.close();
    await expectAnswers(cache.dir!, [1, 2, 3]);
    expect(await new JudgeCache(cache.dir).get(cache.key(parts(4)))).toBeUndefined();
  });

  it('stores answers again after someone removed the cache mid-run', async () => {
    const cache = newCache();
    await cache.set(cache.key(parts(1)), answer(1));
    cache.flush();
    rmSync(cache.dir!, { recursive: true });
    await cache.set(cache.key(parts(2)), answer(2));
    cache.flush();
    expect(packs(cache)).toHaveLength(1);
    expect(await cache.get(cache.key(parts(1)))).toBeUndefined();
    cache.close();
    await expectAnswers(cache.dir!, [2]);
  });

  it('two instances writing at once each keep a pack; a third finds both runs’ answers', async () => {
    const dir = tempDir('axis-cache-test-');
    const a = new JudgeCache(join(dir, 'judge'));
    const b = new JudgeCache(join(dir, 'judge'));
    for (let i = 0; i < 6; i++) await (i % 2 ? a : b).set(a.key(parts(i)), answer(i));
    a.flush();
    b.flush();
    expect(packs(a)).toHaveLength(2);
    // Neither is closed yet: a reader scans packs still being written.
    await expectAnswers(a.dir!, [0, 1, 2, 3, 4, 5]);
    a.close();
    b.close();
    await expectAnswers(a.dir!, [0, 1, 2, 3, 4, 5]);
  });

  it(`writes the answers stored within ${FLUSH_AFTER_MS} ms in one go, found by get meanwhile`, async () => {
    const cache = newCache();
    const keys = [1, 2, 3].map((n) => cache.key(parts(n)));
    for (const [i, k] of keys.entries()) await cache.set(k, answer(i + 1));
    // Not written yet: its own instance finds them, another does not.
    expect(existsSync(cache.dir!)).toBe(false);
    expect((await cache.get(keys[2]!))?.text).toBe(answer(3).text);
    expect(await new JudgeCache(cache.dir).get(keys[0]!)).toBeUndefined();
    await new Promise((r) => setTimeout(r, FLUSH_AFTER_MS + 50));
    // One pack, its three lines written by the timer; a later answer is appended after them.
    const pack = join(cache.dir!, packs(cache)[0]!);
    expect(readFileSync(pack, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    await cache.set(cache.key(parts(4)), answer(4));
    expect(readFileSync(pack, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    cache.close();
    expect(readFileSync(pack, 'utf8').trimEnd().split('\n')).toHaveLength(4);
    await expectAnswers(cache.dir!, [1, 2, 3, 4]);
    // The instance's own answers are then read back from the pack.
    expect((await cache.get(keys[0]!))?.text).toBe(answer(1).text);
  });

  it('a process that exits without closing its cache still writes what it stored', async () => {
    const dir = join(tempDir('axis-cache-test-'), 'judge');
    // dist/ (built before the tests): a plain Node process of its own, as `axis run` is.
    const src = fileURLToPath(new URL('../../../dist/scoring/cache.js', import.meta.url));
    const code = `
      const { JudgeCache } = await import(${JSON.stringify(src)});
      const c = new JudgeCache(${JSON.stringify(dir)});
      for (let i = 0; i < 2; i++)
        await c.set(c.key({ cacheId: 'anthropic|m|http://127.0.0.1:1', system: 's',
          messages: [{ role: 'user', content: 'question ' + i }], schema: 'goal@1' }),
          { text: '{"ok":true,"n":' + i + '}', model: 'm', usage: { input: 1, output: 1 } });
      process.exit(3);`;
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    expect(status).toBe(3);
    await expectAnswers(dir, [0, 1]);
  });

  it('skips the half-written last line of a killed run and reads the lines before it', async () => {
    const c = await storeRun(newCache().dir!, 0, 2);
    const pack = join(c.dir!, packs(c)[0]!);
    appendFileSync(pack, `${c.key(parts(2))} {"version":1,"text":"{\\"ok`);
    await expectAnswers(c.dir!, [0, 1]);
    expect(await new JudgeCache(c.dir).get(c.key(parts(2)))).toBeUndefined();
  });

  it('scans a pack bigger than its window: a line longer than any entry is skipped, the rest found', async () => {
    const dir = newCache().dir!;
    await storeRun(dir, 0, 1);
    const c = new JudgeCache(dir);
    const line = (n: number, text = answer(n).text) =>
      `${c.key(parts(n))} ${JSON.stringify({ version: 1, ...answer(n), text, createdAt: 'x' })}\n`;
    const huge = 'x'.repeat(17 * 1024 * 1024);
    // Another process's pack (a dead pid): answers 1, then an over-long one, then 3, then half of 4.
    writeFileSync(
      join(dir, `zzzzzzzz-999999999-abcdefgh.pack`),
      line(1) + line(2, huge) + line(3) + line(4).slice(0, 40),
    );
    await expectAnswers(dir, [0, 1, 3]);
    const reader = new JudgeCache(dir);
    expect(await reader.get(reader.key(parts(2)))).toBeUndefined();
    expect(await reader.get(reader.key(parts(4)))).toBeUndefined();
  });

  it('still answers from an earlier AXIS’s one-file-per-answer cache', async () => {
    const c = newCache();
    await storeRun(c.dir!, 5, 1); // makes the directory
    const entry = { version: 1, ...answer(9), createdAt: '2026-01-01T00:00:00.000Z' };
    writeFileSync(join(c.dir!, `${c.key(parts(9))}.json`), JSON.stringify(entry));
    await expectAnswers(c.dir!, [5, 9]);
    writeFileSync(join(c.dir!, `${c.key(parts(8))}.json`), JSON.stringify({ ...entry, version: 0 }));
    expect(await new JudgeCache(c.dir).get(c.key(parts(8)))).toBeUndefined();
  });

  it('ignores an entry whose fields are not what AXIS writes (its model reaches the report)', async () => {
    const c = newCache();
    await storeRun(c.dir!, 0, 1); // makes the directory
    const entry = { version: 1, ...answer(1), createdAt: '2026-01-01T00:00:00.000Z' };
    const bad = [
      { ...entry, model: { evil: [1] } },
      { ...entry, model: 7 },
      { ...entry, usage: 'lots' },
      { ...entry, usage: { input: -1, output: 1 } },
      { ...entry, costUsd: 'free' },
      [entry],
      null,
    ];
    bad.forEach((e, i) => writeFileSync(join(c.dir!, `${c.key(parts(10 + i))}.json`), JSON.stringify(e)));
    const reader = new JudgeCache(c.dir);
    for (let i = 0; i < bad.length; i++) expect(await reader.get(reader.key(parts(10 + i)))).toBeUndefined();
  });

  it(`merges finished packs once more than ${COMPACT_AT} pile up, into one indexed pack`, async () => {
    const dir = newCache().dir!;
    await storeRun(dir, 0, 2);
    // What a merge killed mid-way left: removed by the next merge when its process is gone.
    writeFileSync(join(dir, 'c-abc-999999999-xyz.pack.tmp-999999999'), 'half a merge');
    writeFileSync(join(dir, `c-abc-1-xyz.idx.tmp-${process.pid}`), 'a merge of a live process');
    for (let r = 1; r <= COMPACT_AT; r++) await storeRun(dir, r * 2, 2);
    expect(readdirSync(dir)).toContain(`c-abc-1-xyz.idx.tmp-${process.pid}`);
    rmSync(join(dir, `c-abc-1-xyz.idx.tmp-${process.pid}`));
    const all = Array.from({ length: (COMPACT_AT + 1) * 2 }, (_, i) => i);
    const names = readdirSync(dir).sort();
    expect(names.filter((f) => f.endsWith('.pack'))).toHaveLength(1);
    expect(names.filter((f) => f.endsWith('.idx'))).toHaveLength(1);
    expect(names.find((f) => f.includes('.tmp'))).toBeUndefined();
    const idx = readFileSync(
      join(
        dir,
        names.find((f) => f.endsWith('.idx'))!,
      ),
      'latin1',
    ).split('\n');
    expect(idx[0]).toMatch(/^axis-judge-index 1 \d+$/);
    expect(idx.filter((l) => /^[0-9a-f]{64} \d+ \d+$/.test(l))).toHaveLength(all.length);
    await expectAnswers(dir, all);
    // The merged pack is bigger than the next loose packs together: it stays as it is when they merge.
    const merged = names.find((f) => f.endsWith('.pack'))!;
    for (let r = 0; r <= COMPACT_AT; r++) await storeRun(dir, 100 + r, 1);
    const after = readdirSync(dir).filter((f) => f.endsWith('.pack'));
    expect(after).toHaveLength(2);
    expect(after).toContain(merged);
    await expectAnswers(dir, [...all, 100, 100 + COMPACT_AT]);
  });

  it('never trusts an index that does not match its pack, nor a location that does not hold its key', async () => {
    const dir = newCache().dir!;
    for (let r = 0; r <= COMPACT_AT; r++) await storeRun(dir, r, 1);
    const idxName = readdirSync(dir).find((f) => f.endsWith('.idx'))!;
    const idxPath = join(dir, idxName);
    const lines = readFileSync(idxPath, 'latin1').split('\n');
    // Every location moved by one byte: the key check refuses each of them.
    const shifted = lines.map((l, i) => (i === 0 ? l : l.replace(/ (\d+) /, (_, o) => ` ${Number(o) + 1} `)));
    writeFileSync(idxPath, shifted.join('\n'));
    const reader = new JudgeCache(dir);
    expect(await reader.get(reader.key(parts(0)))).toBeUndefined();
    // Locations that are not numbers, or point before the first line, give nothing either.
    const bogus = lines.map((l, i) =>
      i === 0 ? l : i === 1 ? l.replace(/ \d+ /, ' 12x ') : l.replace(/ \d+ /, ' 3 '),
    );
    writeFileSync(idxPath, bogus.join('\n'));
    const other = new JudgeCache(dir);
    for (const n of [0, 1, 2]) expect(await other.get(other.key(parts(n)))).toBeUndefined();
    // An index whose size is not the pack's is ignored and the pack scanned instead.
    writeFileSync(idxPath, ['axis-judge-index 1 7', ...shifted.slice(1)].join('\n'));
    await expectAnswers(dir, [0, 3, COMPACT_AT]);
  });

  it('leaves the packs of a live process alone when merging', async () => {
    const dir = newCache().dir!;
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      for (let r = 0; r <= COMPACT_AT; r++) await storeRun(dir, r, 1);
      // A pack another live AXIS is still writing: the same kind of name, that process's pid.
      const live = `zzzzzzzz-${sleeper.pid}-abcdefgh.pack`;
      const donor = new JudgeCache(dir);
      const key = donor.key(parts(50));
      writeFileSync(
        join(dir, live),
        `${key} ${JSON.stringify({ version: 1, ...answer(50), createdAt: 'x' })}\n`,
      );
      for (let r = 0; r <= COMPACT_AT; r++) await storeRun(dir, 60 + r, 1);
      expect(readdirSync(dir)).toContain(live);
      await expectAnswers(dir, [0, 50, 60 + COMPACT_AT]);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a disabled cache stores nothing and finds nothing', async () => {
    const dir = tempDir('axis-cache-test-');
    const cache = JudgeCache.forConfigDir(dir, false);
    await cache.set('k', answer());
    expect(await cache.get('k')).toBeUndefined();
    cache.close();
    expect(existsSync(`${dir}/.axis`)).toBe(false);
  });
});
