import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confinedPath, pickPermission } from '../../../src/adapters/acp-fs.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

describe('confinedPath', () => {
  it('allows files inside the workspace, new ones included', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'a');
    expect(await confinedPath(join(root, 'a.txt'), root)).toEqual({ path: join(root, 'a.txt') });
    expect(await confinedPath(join(root, 'new/dir/b.txt'), root)).toEqual({
      path: join(root, 'new/dir/b.txt'),
    });
  });

  it('refuses relative paths, paths outside, `..` escapes and symlinks pointing out', async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret'), 's');
    mkdirSync(join(root, 'sub'));
    symlinkSync(outside, join(root, 'sub/link'));
    expect(await confinedPath('a.txt', root)).toEqual({ error: 'path must be absolute, found "a.txt"' });
    expect(await confinedPath('/etc/passwd', root)).toHaveProperty('error');
    expect(await confinedPath(join(root, '../escape.txt'), root)).toHaveProperty('error');
    expect(await confinedPath(join(root, 'sub/link/secret'), root)).toHaveProperty('error');
    expect(await confinedPath(join(root, 'sub/link/new.txt'), root)).toHaveProperty('error');
  });
});

describe('pickPermission', () => {
  it('prefers allow_once, then allow_always, never a reject option', () => {
    const opts = (...kinds: string[]) => kinds.map((kind, i) => ({ optionId: `o${i}`, kind }));
    expect(pickPermission(opts('reject_once', 'allow_always', 'allow_once'))).toBe('o2');
    expect(pickPermission(opts('reject_once', 'allow_always'))).toBe('o1');
    expect(pickPermission(opts('reject_once', 'reject_always'))).toBeUndefined();
  });
});
