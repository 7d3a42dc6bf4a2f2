/**
 * `expectValidReport(reportDir)`: checks a report the tests wrote against the published schemas —
 * report.json and every per-run detail file it lists — with both the zod schemas and their JSON
 * Schema form (what schema/report.schema.json and schema/report-run.schema.json ship).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import type { z } from 'zod';
import {
  reportJsonSchemas,
  reportManifestSchema,
  runDetailSchema,
  type ReportManifestFile,
} from '../../src/report/schema.js';

let compiled: { report: ValidateFunction; run: ValidateFunction } | undefined;

function validators() {
  if (!compiled) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const schemas = reportJsonSchemas();
    compiled = { report: ajv.compile(schemas.report), run: ajv.compile(schemas.run) };
  }
  return compiled;
}

function zodProblems(result: z.ZodSafeParseResult<unknown>): string[] {
  if (result.success) return [];
  return result.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

function ajvProblems(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? [])
    .slice(0, 10)
    .map((e) => `${e.instancePath || '(root)'}: ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

function check(file: string, data: unknown, schema: z.ZodType, validate: ValidateFunction): void {
  const problems = [...zodProblems(schema.safeParse(data))];
  if (!validate(data)) problems.push(...ajvProblems(validate.errors).map((p) => `JSON Schema ${p}`));
  const why =
    `${file} does not match src/report/schema.ts (update the schema with the writer, then \`npm run build\`):\n` +
    problems.map((p) => `  ${p}`).join('\n');
  expect(problems.length, why).toBe(0);
}

/** Validates `<reportDir>/report.json` and each run's detail file; returns the parsed manifest. */
export function expectValidReport(reportDir: string): ReportManifestFile {
  const v = validators();
  const path = join(reportDir, 'report.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as ReportManifestFile;
  check(path, manifest, reportManifestSchema, v.report);
  for (const entry of manifest.results)
    for (const run of entry.runs) {
      const rel = run.files?.detail;
      if (!rel) continue;
      const file = join(reportDir, ...rel.split('/'));
      expect(existsSync(file), `${rel} is listed in report.json but missing`).toBe(true);
      check(file, JSON.parse(readFileSync(file, 'utf8')), runDetailSchema, v.run);
    }
  return manifest;
}
