#!/usr/bin/env node
// `npm run bench`: runs every scripts/bench/*.mjs (each exports `name` and `default async () => rows`)
// and prints their figures. Targets are printed beside the figures; nothing here fails a build.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

for (const file of files) {
  const mod = await import(pathToFileURL(join(dir, file)).href);
  const title = mod.name ?? file;
  process.stdout.write(`\n== ${title}\n`);
  try {
    const rows = await mod.default();
    for (const row of rows) {
      const target = row.target ? `   (target: ${row.target})` : '';
      process.stdout.write(`  ${row.label.padEnd(58)} ${String(row.value).padStart(14)}${target}\n`);
    }
  } catch (err) {
    process.stdout.write(`  failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
// Only now: deleting files between benches slowed the next bench's file creation (lib/measure.mjs).
removeBenchRoot();
