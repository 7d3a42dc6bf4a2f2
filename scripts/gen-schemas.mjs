#!/usr/bin/env node
// Writes the JSON Schemas shipped in schema/ from the zod schemas in src/config/schema.ts and
// src/report/schema.ts (run after tsc; `npm run build` does both). test/unit/config/json-schema.test.ts and
// test/unit/report/schema.test.ts fail when the files are stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { jsonSchemas } = await import('../dist/config/schema.js');
const { reportJsonSchemas } = await import('../dist/report/schema.js');
const schemas = jsonSchemas();
const reports = reportJsonSchemas();
const outDir = join(root, 'schema');
mkdirSync(outDir, { recursive: true });
for (const [name, schema] of [
  ['axis.config.schema.json', schemas.config],
  ['scenario.schema.json', schemas.scenario],
  ['report.schema.json', reports.report],
  ['report-run.schema.json', reports.run],
]) {
  writeFileSync(join(outDir, name), `${JSON.stringify(schema, null, 2)}\n`);
}
