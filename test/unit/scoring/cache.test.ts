import { existsSync, readdirSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { JudgeCache } from '../../../src/scoring/cache.js';
import { removeTempDirs, tempDir } from '../run/helpers.js';

afterAll(removeTempDirs);

const parts = (n: number) => ({
  cacheId: 'anthropic|m|http://127.0.0.1:1',
  system: 's',
  messages: [{ role: 'user' as const, content: `question ${n}` }],
  schema: 'goal@1',
});
const answer = { text: '{"ok":true}', model: 'm', usage: { input: 1, output: 1 } };

describe('JudgeCache', () => {
  it('stores answers one file each, makes its directory once, and again when it was removed', async () => {
    const cache = JudgeCache.forConfigDir(tempDir('axis-cache-test-'));
    const keys = [1, 2, 3].map((n) => cache.key(parts(n)));
    expect(new Set(keys).size).toBe(3);
    await Promise.all(keys.slice(0, 2).map((k) => cache.set(k, answer)));
    expect(readdirSync(cache.dir!).sort()).toEqual(
      keys
        .slice(0, 2)
        .map((k) => `${k}.json`)
        .sort(),
    );
    expect(await cache.get(keys[0]!)).toMatchObject({ text: answer.text, version: 1 });
    // Someone clears the cache while the run goes on: the next answer is still stored.
    rmSync(cache.dir!, { recursive: true });
    await cache.set(keys[2]!, answer);
    expect(readdirSync(cache.dir!)).toEqual([`${keys[2]}.json`]);
    expect(await cache.get(keys[0]!)).toBeUndefined();
  });

  it('a disabled cache stores nothing and finds nothing', async () => {
    const dir = tempDir('axis-cache-test-');
    const cache = JudgeCache.forConfigDir(dir, false);
    await cache.set('k', answer);
    expect(await cache.get('k')).toBeUndefined();
    expect(existsSync(`${dir}/.axis`)).toBe(false);
  });
});
