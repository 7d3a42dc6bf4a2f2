// `npm run build`'s helper step (scripts/build-native.mjs): with a C compiler it makes a static helper
// that passes the self-test AXIS runs; without one the build goes on, says so, and leaves no stale binary.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  });

  it('without a C compiler: exit 0, one line saying the helper is not built, no stale binary left', () => {
    const out = join(tempDir('axis-build-native-'), 'axis-contain');
    writeFileSync(out, 'stale');
    const r = build(out, '/nonexistent');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `build: no C compiler (\`cc\`; Debian/Ubuntu: apt-get install gcc libc6-dev): ${out} not built (jobs use the util-linux chain)\n`,
    );
    expect(existsSync(out)).toBe(false);
  });
});
