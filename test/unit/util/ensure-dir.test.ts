import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDir } from '../../../src/util/ensure-dir.js';

const root = mkdtempSync(join(tmpdir(), 'axis-ensure-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ensureDir', () => {
  it('an existing directory is ready as it is; missing levels are created', async () => {
    expect(await ensureDir(root)).toBeUndefined();
    const deep = join(root, 'a/b/c');
    expect(await ensureDir(deep)).toBeUndefined();
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(await ensureDir(deep)).toBeUndefined();
  });

  it('a file in the way is named, whether it is the directory itself or a parent', async () => {
    const file = join(root, 'file.txt');
    writeFileSync(file, 'x');
    expect(await ensureDir(file)).toBe(`${file} is not a directory`);
    expect(await ensureDir(join(file, 'sub/deeper'))).toBe(`${file} is not a directory`);
    expect(existsSync(join(root, 'file.txt/sub'))).toBe(false);
  });

  it('a link to a missing target is named, not followed into a directory', async () => {
    const link = join(root, 'dangling');
    symlinkSync(join(root, 'nowhere'), link);
    expect(await ensureDir(link)).toBe(`${link} is a symbolic link to a missing target`);
    expect(await ensureDir(join(link, 'sub'))).toBe(`${link} is a symbolic link to a missing target`);
    expect(existsSync(join(root, 'nowhere'))).toBe(false);
    // Its own target: the test must not lean on a directory another test made (a shuffled order).
    mkdirSync(join(root, 'target'));
    const good = join(root, 'to-target');
    symlinkSync(join(root, 'target'), good);
    expect(await ensureDir(join(good, 'b/new'))).toBeUndefined();
    expect(statSync(join(root, 'target/b/new')).isDirectory()).toBe(true);
  });

  it.skipIf(process.platform !== 'linux')(
    'a file system that refuses every mkdir gives an error, not a hang (recursive mkdir spins on /proc)',
    async () => {
      expect(await ensureDir('/proc/axis-no-such-dir/sub')).toBe(
        'cannot create /proc/axis-no-such-dir (ENOENT)',
      );
    },
  );
});
