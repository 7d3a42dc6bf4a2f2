#!/usr/bin/env node
// `npm run build` runs this after tsc: compiles AXIS's two C programs into dist/native/:
// - axis-contain (native/axis-contain.c), the one-exec containment helper (src/exec/contain.ts);
// - axis-spawner (native/axis-spawner.c), the process that forks job processes for AXIS
//   (src/exec/spawner.ts; the Node version, src/exec/spawner-main.ts, runs where it is not built).
// Linked statically, so no dynamic loader runs at each start: with musl (`musl-gcc`, Debian's
// musl-tools) when present, whose start-up is nearly free, else with the system's C library (glibc's
// static start-up probes the CPU's caches with `cpuid`, which traps in a VM: 0.25 ms more per job here),
// else dynamically linked (0.3 ms more still; figures in docs/performance.md). Linux only. Without a C
// compiler the build goes on without them and says so: AXIS then contains jobs with the util-linux chain
// (setpriv → unshare → sh), slower but equally safe, and forks them from the Node spawner. A compiler
// that rejects a source fails the build.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
// Output paths as arguments are for the build's own test (test/unit/exec/build-native.test.ts).
const containOut = process.argv[2] ?? join(ROOT, 'dist/native/axis-contain');
const PROGRAMS = [
  { source: 'native/axis-contain.c', out: containOut, instead: 'jobs use the util-linux chain' },
  {
    source: 'native/axis-spawner.c',
    out: process.argv[3] ?? join(dirname(containOut), 'axis-spawner'),
    instead: 'jobs are forked by the Node spawner',
  },
];

// What each program was linked with, for the benches to print (glibc's start-up costs a job more).
const BUILD_INFO = join(dirname(containOut), 'build.json');

const has = (cc) => spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0;

function skip(why) {
  rmSync(BUILD_INFO, { force: true });
  for (const p of PROGRAMS) {
    rmSync(p.out, { force: true }); // never leave a stale program behind
    process.stdout.write(`build: ${why}: ${p.out} not built (${p.instead})\n`);
  }
}

if (process.platform !== 'linux') skip(`containment namespaces need Linux (this is ${process.platform})`);
else if (!has('cc')) skip('no C compiler (`cc`; Debian/Ubuntu: apt-get install gcc libc6-dev)');
else {
  const musl = has('musl-gcc');
  const linked = {};
  for (const p of PROGRAMS) {
    mkdirSync(dirname(p.out), { recursive: true });
    const flags = ['-O2', '-s', '-std=gnu99', '-Wall', '-Wextra', '-o', p.out, join(ROOT, p.source)];
    const builds = (cc, extra) => spawnSync(cc, [...extra, ...flags], { stdio: 'ignore' }).status === 0;
    const withMusl = musl && builds('musl-gcc', ['-static']);
    const done = withMusl || builds('cc', ['-static']);
    // No static C library here: a dynamic binary still does it in one exec (errors shown this time).
    if (!done) execFileSync('cc', flags, { stdio: 'inherit' });
    linked[p.out.split('/').pop()] = withMusl
      ? 'musl, static'
      : done
        ? 'system C library, static'
        : 'dynamic';
  }
  writeFileSync(BUILD_INFO, `${JSON.stringify(linked, null, 2)}\n`);
}
