#!/usr/bin/env node
// `npm run bench`: runs every scripts/bench/*.mjs (each exports `name` and `default async () => rows`),
// each in a Node process of its own (lib/run-one.mjs), and prints their figures. Targets are printed
// beside the figures; nothing here fails a build.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineProfile, machineRows } from './bench/lib/machine.mjs';
import { removeBenchRoot, root } from './bench/lib/measure.mjs';
import { print, title } from './bench/lib/print.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'bench');
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

// Interrupted: the running bench is stopped and the bench root goes too (its projects hold hundreds of
// MB of reports).
let running;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    running?.kill(signal);
    removeBenchRoot();
    process.exit(130);
  });

// The absolute targets depend on the machine: its CPU speed and what fresh memory costs (lib/machine.mjs).
title('machine (what the absolute targets depend on)');
print(machineRows());

// One root for every bench's files, removed only at the end (lib/measure.mjs says why), and the machine
// profile measured once: both handed to each bench's process.
const env = {
  ...process.env,
  AXIS_BENCH_ROOT: root(),
  AXIS_BENCH_MACHINE: JSON.stringify(machineProfile()),
};
const runOne = join(dir, 'lib', 'run-one.mjs');
// Not spawnSync: a Ctrl-C must reach the handlers above while a bench runs.
const runBench = (file) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [runOne, join(dir, file)], { stdio: 'inherit', env });
    running = child;
    child.on('error', (err) => resolve(err.message));
    child.on('exit', (code, signal) => resolve(code === 0 ? null : signal ? `killed by ${signal}` : code));
  });
for (const file of files) {
  const failure = await runBench(file);
  if (failure === null) continue;
  // A bench that threw has printed why itself (exit 1); anything else is said here.
  if (failure !== 1) process.stdout.write(`  failed: ${file}: ${failure}\n`);
  process.exitCode = 1;
}
// Only now: deleting files between benches slowed the next bench's file creation (lib/measure.mjs).
removeBenchRoot();
