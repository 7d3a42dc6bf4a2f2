#!/usr/bin/env node
// `npm run build` runs this after tsc: compiles native/axis-contain.c (the one-exec containment helper,
// src/runner/contain.ts) into dist/native/axis-contain. Linked statically, so no dynamic loader runs at
// each job's start: with musl (`musl-gcc`, Debian's musl-tools) when present, whose start-up is nearly
// free, else with the system's C library (glibc's static start-up probes the CPU's caches with `cpuid`,
// which traps in a VM: 0.25 ms more per job here), else dynamically linked (0.3 ms more still; figures in
// docs/performance.md). Linux only. Without a C compiler the build goes on without the helper and says
// so: AXIS then contains jobs with the util-linux chain (setpriv → unshare → sh), slower but equally safe.
// A compiler that rejects the source fails the build.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SOURCE = join(ROOT, 'native/axis-contain.c');
// An output path as the argument is for the build's own test (test/unit/runner/build-native.test.ts).
const OUT = process.argv[2] ?? join(ROOT, 'dist/native/axis-contain');
const FLAGS = ['-O2', '-s', '-std=gnu99', '-Wall', '-Wextra', '-o', OUT, SOURCE];

const has = (cc) => spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0;
const builds = (cc, extra) => spawnSync(cc, [...extra, ...FLAGS], { stdio: 'ignore' }).status === 0;

function skip(why) {
  rmSync(OUT, { force: true }); // never leave a stale helper behind
  process.stdout.write(`build: ${why}: ${OUT} not built (jobs use the util-linux chain)\n`);
}

if (process.platform !== 'linux') skip(`containment namespaces need Linux (this is ${process.platform})`);
else if (!has('cc')) skip('no C compiler (`cc`; Debian/Ubuntu: apt-get install gcc libc6-dev)');
else {
  mkdirSync(dirname(OUT), { recursive: true });
  const done = (has('musl-gcc') && builds('musl-gcc', ['-static'])) || builds('cc', ['-static']);
  // No static C library here: a dynamic binary still does it in one exec (errors shown this time).
  if (!done) execFileSync('cc', FLAGS, { stdio: 'inherit' });
}
