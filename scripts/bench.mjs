#!/usr/bin/env node
// `npm run bench`: runs every scripts/bench/*.mjs (each exports `name` and `default async () => rows`)
// and prints their figures. Targets are printed beside the figures; nothing here fails a build.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machineRows } from './bench/lib/machine.mjs';
import { removeBenchRoot } from './bench/lib/measure.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'bench');
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

// Interrupted: the bench root goes too (its projects hold hundreds of MB of reports).
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    removeBenchRoot();
    process.exit(130);
  });

const title = (t) => process.stdout.write(`\n== ${t}\n`);
function print(rows) {
  for (const row of rows) {
    const target = row.target ? `   (target: ${row.target})` : '';
    process.stdout.write(`  ${row.label.padEnd(58)} ${String(row.value).padStart(14)}${target}\n`);
  }
}

// The absolute targets depend on the machine: its CPU speed and what fresh memory costs (lib/machine.mjs).
title('machine (what the absolute targets depend on)');
print(machineRows());

for (const file of files) {
  const mod = await import(pathToFileURL(join(dir, file)).href);
  title(mod.name ?? file);
  try {
    print(await mod.default());
  } catch (err) {
    process.stdout.write(`  failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
// Only now: deleting files between benches slowed the next bench's file creation (lib/measure.mjs).
removeBenchRoot();
