// The CLI's V8 code cache (src/cli/code-cache.ts): the first command writes its chunks' compiled code,
// the next one takes it (a cache V8 refused would be written again), a damaged or stale cache only
// costs time, and a directory others can write to is never used.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { BIN, buildDist } from '../run/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

const NODE_DIR = `node-${process.version}-${process.arch}`;

/** The folder of this copy of AXIS in a cache (one per installed copy, under the Node's). */
function own(cache: string): string {
  const copies = readdirSync(join(cache, NODE_DIR));
  expect(copies).toHaveLength(1);
  return join(cache, NODE_DIR, copies[0]!);
}

function cli(args: string[], cache: string, cwd?: string, nodeFlags: string[] = []) {
  return spawnSync(process.execPath, [...nodeFlags, BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, AXIS_CODE_CACHE: cache, NO_COLOR: '1' },
  });
}

/** Each cache file by name with its modification time and inode: what a rewrite would change. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir)) {
    const st = statSync(join(dir, f));
    out.set(f, `${st.mtimeMs}:${st.ino}`);
  }
  return out;
}

/** A one-job project (a command agent printing a fixed transcript), not scored. */
function project(): string {
  const dir = tempDir('axis-cc-proj-');
  writeFileSync(join(dir, 'run.ndjson'), `${JSON.stringify({ type: 'result', text: 'done' })}\n`);
  writeFileSync(
    join(dir, 'hello.json'),
    JSON.stringify({ name: 'Hello', prompt: 'Say hi', judge: [{ check: 'It said hi' }] }),
  );
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: ['./hello.json'],
      agents: [
        {
          agent: 'command',
          name: 'cat',
          command: '/bin/cat',
          args: [join(dir, 'run.ndjson')],
          output: 'ndjson',
        },
      ],
    }),
  );
  return dir;
}

describe('the code cache', () => {
  it('is written by the first command and taken, not rewritten, by the next', () => {
    const cache = join(tempDir('axis-cc-'), 'cache');
    const first = cli(['--help'], cache);
    expect(first.status, first.stderr).toBe(0);
    const dir = own(cache);
    // Private to the user: the directories and every file in them.
    for (const d of [cache, join(cache, NODE_DIR), dir]) expect(statSync(d).mode & 0o777, d).toBe(0o700);
    const files = snapshot(dir);
    expect([...files.keys()].some((f) => /^main\.js\.\d+-\d+\.v8$/.test(f))).toBe(true);
    for (const f of files.keys()) expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
    const second = cli(['--help'], cache);
    expect(second.stdout).toBe(first.stdout);
    expect(snapshot(dir)).toEqual(files);
  });

  it('a run caches what it loads after changing V8 flags under those flags, and the next run takes it', () => {
    const cache = join(tempDir('axis-cc-'), 'cache');
    const cwd = project();
    const first = cli(['run', '--no-score'], cache, cwd);
    expect(first.status, first.stderr).toBe(0);
    const dir = own(cache);
    const files = snapshot(dir);
    // Chunks loaded once `run` raised the tier-up budget carry those flags in their name.
    expect([...files.keys()].some((f) => /\.\d+-\d+\.[0-9a-z]+\.v8$/.test(f))).toBe(true);
    const second = cli(['run', '--no-score'], cache, cwd);
    expect(second.status, second.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(files);
  });

  it('a heap flag given to Node is left as given, and the caches stay valid from one run to the next', () => {
    const cache = join(tempDir('axis-cc-'), 'cache');
    const cwd = project();
    const flags = ['--heap-growing-percent=30', '--semi-space-growth-factor=3'];
    const first = cli(['run', '--no-score'], cache, cwd, flags);
    expect(first.status, first.stderr).toBe(0);
    const files = snapshot(own(cache));
    // Before, `run` set both flags over the user's and took the caches at exit under V8's defaults,
    // which V8 then refused under the user's: every run wrote them again.
    const second = cli(['run', '--no-score'], cache, cwd, flags);
    expect(second.status, second.stderr).toBe(0);
    expect(snapshot(own(cache))).toEqual(files);
  });

  it('a damaged cache file is refused by V8 and written again; the command is unaffected', () => {
    const cache = join(tempDir('axis-cc-'), 'cache');
    const good = cli(['--version'], cache);
    const dir = own(cache);
    const main = readdirSync(dir).find((f) => f.startsWith('main.js.'))!;
    writeFileSync(join(dir, main), 'not V8 code');
    const again = cli(['--version'], cache);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(good.stdout);
    expect(statSync(join(dir, main)).size).toBeGreaterThan(100);
  });

  it('AXIS_CODE_CACHE=0 writes nothing; a directory others can write to is not used', () => {
    const home = tempDir('axis-cc-home-');
    const off = spawnSync(process.execPath, [BIN, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, AXIS_CODE_CACHE: '0', HOME: home, XDG_CACHE_HOME: '' },
    });
    expect(off.status).toBe(0);
    expect(readdirSync(home)).toEqual([]);

    const shared = join(tempDir('axis-cc-'), 'shared');
    mkdirSync(join(shared, NODE_DIR), { recursive: true });
    chmodSync(join(shared, NODE_DIR), 0o777);
    const r = cli(['--version'], shared);
    expect(r.status).toBe(0);
    expect(readdirSync(join(shared, NODE_DIR))).toEqual([]);
  });

  it('a cache path that cannot be a directory is skipped, and unset it is the user cache directory', () => {
    const file = join(tempDir('axis-cc-'), 'a-file');
    writeFileSync(file, '');
    const r = cli(['--version'], file);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');

    const home = tempDir('axis-cc-home-');
    const byDefault = spawnSync(process.execPath, [BIN, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, AXIS_CODE_CACHE: '', HOME: home, XDG_CACHE_HOME: '' },
    });
    expect(byDefault.status).toBe(0);
    expect(readdirSync(own(join(home, '.cache/axis/code-cache'))).length).toBeGreaterThan(3);
  });

  it("a command that writes caches removes a deleted copy's folder and an old Node's, and names its own copy", () => {
    const cache = join(tempDir('axis-cc-'), 'cache');
    const dead = join(cache, NODE_DIR, 'dead1');
    mkdirSync(dead, { recursive: true, mode: 0o700 });
    chmodSync(cache, 0o700);
    chmodSync(join(cache, NODE_DIR), 0o700);
    writeFileSync(join(dead, 'main.js.10-10.v8'), 'x');
    writeFileSync(join(dead, 'bundle-dir'), join(tempDir('axis-cc-deleted-'), 'gone/dist/bundle'));
    const oldNode = join(cache, 'node-v16.20.2-x64');
    mkdirSync(join(oldNode, 'abc1'), { recursive: true });
    const longAgo = (Date.now() - 60 * 86_400_000) / 1000;
    for (const p of [join(oldNode, 'abc1'), oldNode]) utimesSync(p, longAgo, longAgo);
    const r = cli(['--version'], cache);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(oldNode)).toBe(false);
    const bundleDir = readFileSync(join(own(cache), 'bundle-dir'), 'utf8');
    expect(existsSync(join(bundleDir, 'main.js')), bundleDir).toBe(true);
  });
});
