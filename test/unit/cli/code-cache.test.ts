import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cacheFile,
  codeCacheDir,
  COPY_FILE,
  pruneCaches,
  pruneCopies,
  usableCacheDir,
} from '../../../src/cli/code-cache.js';
import { changedFlags } from '../../../src/util/v8-flags.js';
import { removeTempDirs, tempDir } from '../run/helpers.js';

afterAll(removeTempDirs);

const NODE_DIR = `node-${process.version}-${process.arch}`;
const home = () => '/home/u';

describe('codeCacheDir', () => {
  it('is the user cache directory by default, one per Node version and architecture', () => {
    expect(codeCacheDir({}, 'linux', home)).toBe(join('/home/u/.cache/axis/code-cache', NODE_DIR));
    expect(codeCacheDir({ XDG_CACHE_HOME: '/xdg' }, 'linux', home)).toBe(
      join('/xdg/axis/code-cache', NODE_DIR),
    );
    // A relative XDG_CACHE_HOME is invalid by the XDG spec: ignored.
    expect(codeCacheDir({ XDG_CACHE_HOME: 'rel' }, 'linux', home)).toBe(
      join('/home/u/.cache/axis/code-cache', NODE_DIR),
    );
    expect(codeCacheDir({ LOCALAPPDATA: '/lad' }, 'win32', home)).toBe(
      join('/lad/axis/code-cache', NODE_DIR),
    );
  });

  it('AXIS_CODE_CACHE names another directory or turns the cache off', () => {
    expect(codeCacheDir({ AXIS_CODE_CACHE: '/c' }, 'linux', home)).toBe(join('/c', NODE_DIR));
    for (const off of ['0', 'off', 'false', 'no', 'OFF', ' 0 '])
      expect(codeCacheDir({ AXIS_CODE_CACHE: off }, 'linux', home), off).toBeUndefined();
    expect(codeCacheDir({ AXIS_CODE_CACHE: '' }, 'linux', home)).toBe(
      join('/home/u/.cache/axis/code-cache', NODE_DIR),
    );
  });

  it('no home directory means no cache, not a failure', () => {
    const none = () => {
      throw new Error('no home');
    };
    expect(codeCacheDir({}, 'linux', none)).toBeUndefined();
  });
});

describe('usableCacheDir', () => {
  it('makes a missing directory private; refuses one others can write, a symlink or a file', () => {
    const root = tempDir('axis-cc-unit-');
    expect(usableCacheDir(join(root, 'a/b'))).toBe(true);
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o775);
    expect(usableCacheDir(open)).toBe(false);
    symlinkSync(join(root, 'a/b'), join(root, 'link'));
    expect(usableCacheDir(join(root, 'link'))).toBe(false);
    writeFileSync(join(root, 'file'), '');
    expect(usableCacheDir(join(root, 'file'))).toBe(false);
    expect(usableCacheDir(join(root, 'file', 'below'))).toBe(false);
  });
});

describe('cacheFile and changedFlags', () => {
  it("names the chunk's size and modification time, and the flags changed, so any change misses", () => {
    const root = tempDir('axis-cc-unit-');
    const chunk = join(root, 'chunk-A.js');
    writeFileSync(chunk, 'x');
    utimesSync(chunk, 1000, 1000);
    const plain = cacheFile('/c', chunk, '');
    expect(plain).toBe('/c/chunk-A.js.1-1000000.v8');
    const flagged = cacheFile('/c', chunk, '--interrupt-budget=600000');
    expect(flagged).toMatch(/^\/c\/chunk-A\.js\.1-1000000\.[0-9a-z]+\.v8$/);
    expect(cacheFile('/c', chunk, '--interrupt-budget=600001')).not.toBe(flagged);
    writeFileSync(chunk, 'y');
    utimesSync(chunk, 1000, 1001);
    expect(cacheFile('/c', chunk, '')).not.toBe(plain);
  });

  it('lists only the flags whose value differs from start-up, in a fixed order', () => {
    expect(changedFlags({})).toBe('');
    expect(changedFlags({ 'interrupt-budget': '600000', 'heap-growing-percent': '50' })).toBe(
      '--heap-growing-percent=50 --interrupt-budget=600000',
    );
  });
});

describe('pruneCaches', () => {
  it("removes the caches of chunks gone or changed and a killed writer's old temp files, nothing else", () => {
    const bundle = tempDir('axis-cc-bundle-');
    const dir = tempDir('axis-cc-dir-');
    writeFileSync(join(bundle, 'main.js'), 'main');
    writeFileSync(join(bundle, 'chunk-B.js'), 'b');
    utimesSync(join(bundle, 'main.js'), 1000, 1000);
    utimesSync(join(bundle, 'chunk-B.js'), 1000, 1000);
    const keep = [
      cacheFile(dir, join(bundle, 'main.js'), ''),
      cacheFile(dir, join(bundle, 'main.js'), '--interrupt-budget=600000'),
      cacheFile(dir, join(bundle, 'chunk-B.js'), ''),
      join(dir, 'main.js.4-1000000.v8.77.tmp'), // a write under way
      join(dir, 'notes.txt'),
    ];
    const drop = [
      join(dir, 'main.js.5-1000000.v8'), // the chunk changed size
      join(dir, 'chunk-B.js.1-999000.v8'), // and time
      join(dir, 'chunk-GONE.js.1-1000000.v8'), // a chunk of an earlier build
      join(dir, 'chunk-B.js.1-1000000.v8.66.tmp'), // a killed writer's, two hours old
    ];
    for (const f of [...keep, ...drop]) writeFileSync(f, 'x');
    const now = Date.now();
    utimesSync(drop[3]!, (now - 7_200_000) / 1000, (now - 7_200_000) / 1000);
    pruneCaches(dir, bundle, now);
    expect(readdirSync(dir).sort()).toEqual(keep.map((f) => f.slice(dir.length + 1)).sort());
    // A folder that is not there is no failure.
    expect(() => pruneCaches(join(dir, 'missing'), bundle)).not.toThrow();
  });
});

describe('pruneCopies', () => {
  it('removes the folders of deleted copies and of Node versions untouched for 30 days, nothing else', () => {
    const base = tempDir('axis-cc-base-');
    const nodeDir = join(base, NODE_DIR);
    const live = tempDir('axis-cc-live-');
    writeFileSync(join(live, 'main.js'), 'main');
    const now = Date.now();
    const old = (p: string) => utimesSync(p, (now - 40 * 86_400_000) / 1000, (now - 40 * 86_400_000) / 1000);
    const folder = (p: string, copy?: string) => {
      mkdirSync(p, { recursive: true });
      writeFileSync(join(p, 'main.js.4-1000.v8'), 'x');
      if (copy !== undefined) writeFileSync(join(p, COPY_FILE), copy);
      return p;
    };
    const own = folder(join(nodeDir, 'own1'), join(base, 'nowhere')); // this process's: never touched
    const kept = [
      own,
      folder(join(nodeDir, 'live1'), live), // its copy is there
      folder(join(nodeDir, 'new1')), // names no copy, written lately
      folder(join(nodeDir, 'Notes')), // not a name AXIS gives
      join(nodeDir, 'link1'), // a symlink is never followed or removed
      join(nodeDir, 'file1'),
      folder(join(base, 'node-v18.20.0-x64')), // another Node, written lately
      folder(join(base, 'other')),
    ];
    const target = folder(join(tempDir('axis-cc-target-'), 'kept'));
    symlinkSync(target, kept[4]!);
    writeFileSync(kept[5]!, '');
    // Another Node's folder untouched for 40 days, but a copy's folder in it written lately: kept.
    folder(join(base, 'node-v21.1.0-x64', 'abc'));
    old(join(base, 'node-v21.1.0-x64'));
    kept.push(join(base, 'node-v21.1.0-x64', 'abc'));
    old(join(base, 'other'));
    const dropped = [
      folder(join(nodeDir, 'gone1'), join(base, 'deleted-copy')), // its copy was deleted
      folder(join(nodeDir, 'rel1'), 'relative/bundle'),
      folder(join(nodeDir, 'old1')), // names no copy, untouched for 40 days
      folder(join(base, 'node-v16.0.0-x64', 'xyz')),
    ];
    old(dropped[2]!);
    old(dropped[3]!);
    old(join(base, 'node-v16.0.0-x64'));
    pruneCopies(nodeDir, own, now);
    for (const p of kept) expect(existsSync(p), p).toBe(true);
    for (const p of dropped) expect(existsSync(p), p).toBe(false);
    expect(existsSync(join(base, 'node-v16.0.0-x64'))).toBe(false);
    expect(readdirSync(target)).toEqual(['main.js.4-1000.v8']);
    // A folder that is not there is no failure.
    expect(() => pruneCopies(join(base, 'missing', NODE_DIR), own, now)).not.toThrow();
  });
});
