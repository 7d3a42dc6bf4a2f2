#!/usr/bin/env node
// `npm run build` runs this after tsc: compiles native/axis-contain.c (the one-exec containment helper,
// src/runner/contain.ts) into dist/native/axis-contain with the C compiler `cc`. Statically linked when
// the C library's static archive is there (no dynamic loader at each job's start), else dynamically.
// Linux only. Without a compiler the build goes on without the helper and says so: AXIS then contains
// jobs with the util-linux chain (setpriv → unshare → sh), which is slower but equally safe. A compiler
// that rejects the source fails the build.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SOURCE = join(ROOT, 'native/axis-contain.c');
const OUT = join(ROOT, 'dist/native/axis-contain');
const FLAGS = ['-O2', '-s', '-std=gnu99', '-Wall', '-Wextra'];

function skip(why) {
  rmSync(OUT, { force: true }); // never leave a stale helper behind
  process.stdout.write(`build: ${why}: dist/native/axis-contain not built (jobs use the util-linux chain)\n`);
}

if (process.platform !== 'linux') skip(`containment namespaces need Linux (this is ${process.platform})`);
else if (spawnSync('cc', ['--version'], { stdio: 'ignore' }).status !== 0)
  skip('no C compiler (`cc`; Debian/Ubuntu: apt-get install gcc libc6-dev)');
else {
  mkdirSync(join(ROOT, 'dist/native'), { recursive: true });
  const tryStatic = spawnSync('cc', [...FLAGS, '-static', '-o', OUT, SOURCE], { encoding: 'utf8' });
  if (tryStatic.status !== 0) {
    // No libc.a (or no static linking here): a dynamic binary still does the job in one exec.
    execFileSync('cc', [...FLAGS, '-o', OUT, SOURCE], { stdio: 'inherit' });
  }
}
