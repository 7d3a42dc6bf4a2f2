import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from '../../../src/util/small-write.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-small-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomicSync (real files)', () => {
  it('writes every chunk of an iterable, strings and buffers, in order', () => {
    const path = join(dir, 'chunks.json');
    const big = 'x'.repeat(300_000);
    writeFileAtomicSync(
      path,
      (function* () {
        yield '{"a":"';
        yield Buffer.from(big);
        yield '"}\n';
      })(),
    );
    expect(readFileSync(path, 'utf8')).toBe(`{"a":"${big}"}\n`);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('a failed rename throws and leaves neither a temp file nor a changed target', () => {
    const path = join(dir, 'in-the-way');
    mkdirSync(join(path, 'child'), { recursive: true });
    expect(() => writeFileAtomicSync(path, ['a', 'b'])).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(readdirSync(path)).toEqual(['child']);
  });
});
