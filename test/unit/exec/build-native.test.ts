// `npm run build`'s helper step (scripts/build-native.mjs): with a C compiler it makes a static helper
// that passes the self-test AXIS runs; without one the build goes on, says so, and leaves no stale binary.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../run/helpers.js';

const SCRIPT = join(import.meta.dirname, '../../../scripts/build-native.mjs');
afterAll(removeTempDirs);

function build(out: string, path: string) {
  return spawnSync(process.execPath, [SCRIPT, out], { encoding: 'utf8', env: { PATH: path } });
}

describe('scripts/build-native.mjs', () => {
  it('compiles a statically linked helper that passes the self-test', () => {
    const out = join(tempDir('axis-build-native-'), 'axis-contain');
    const r = build(out, process.env.PATH ?? '/usr/bin:/bin');
    expect(r.status, r.stderr).toBe(0);
    const file = spawnSync('file', [out], { encoding: 'utf8' });
    if (file.status === 0) expect(file.stdout).toMatch(/statically linked/);
    const test = spawnSync(out, [
      '--fstab',
      '/dev/null',
      '--',
      '/bin/sh',
      '-c',
      '[ $$ = 2 ] && kill -TERM $$',
    ]);
    expect(test.status).toBe(128 + 15);
    // The spawner beside it, also static; started without AXIS's IPC channel it says so and exits 2.
    const spawner = join(dirname(out), 'axis-spawner');
    const sfile = spawnSync('file', [spawner], { encoding: 'utf8' });
    if (sfile.status === 0) expect(sfile.stdout).toMatch(/statically linked/);
    const alone = spawnSync(spawner, [], { encoding: 'utf8', env: {} });
    expect(alone.status).toBe(2);
    expect(alone.stderr).toMatch(/no IPC channel/);
    // What each was linked with, for the benches: musl where musl-gcc is installed.
    const musl = spawnSync('musl-gcc', ['--version'], { stdio: 'ignore' }).status === 0;
    const kind = musl ? 'musl, static' : 'system C library, static';
    expect(JSON.parse(readFileSync(join(dirname(out), 'build.json'), 'utf8'))).toEqual({
      'axis-contain': kind,
      'axis-spawner': kind,
    });
  });

  it('without a C compiler: exit 0, a line per program saying it is not built, no stale binary left', () => {
    const dir = tempDir('axis-build-native-');
    const out = join(dir, 'axis-contain');
    const spawner = join(dir, 'axis-spawner');
    writeFileSync(out, 'stale');
    writeFileSync(spawner, 'stale');
    writeFileSync(join(dir, 'build.json'), '{}');
    const r = build(out, '/nonexistent');
    expect(r.status, r.stderr).toBe(0);
    const why = 'build: no C compiler (`cc`; Debian/Ubuntu: apt-get install gcc libc6-dev)';
    expect(r.stdout).toBe(
      `${why}: ${out} not built (jobs use the util-linux chain)\n` +
        `${why}: ${spawner} not built (jobs are forked by the Node spawner)\n`,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(spawner)).toBe(false);
    expect(existsSync(join(dir, 'build.json'))).toBe(false);
  });
});
