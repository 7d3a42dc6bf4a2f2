// One bench in a Node process of its own (bench.mjs starts one per scripts/bench/*.mjs): its figures
// then never depend on which benches ran before it. In one shared process the scoring core's heap
// held every earlier bench's leftovers (288 MB peak RSS against 151 MB alone), and its garbage
// collections and child spawns slowed with them (docs/performance.md, "One process per bench").
// Usage: node run-one.mjs <bench file>; exits 1 when the bench fails.
import { pathToFileURL } from 'node:url';
import { print, title } from './print.mjs';

const file = process.argv[2];
const mod = await import(pathToFileURL(file).href);
title(mod.name ?? file);
try {
  print(await mod.default());
} catch (err) {
  process.stdout.write(`  failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
