// Every field a scenario file accepts is in docs/scenarios.md's Fields table, every field a variant may
// override is in its list of overrides, and every setting is in docs/configuration.md's settings table:
// a field validation accepts but no page describes is a setting nobody can tell the effect of.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { settingsSchema } from '../../../src/config/schema.js';
import { scenarioSchema, variantSchema } from '../../../src/config/scenario-schema.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const page = (name: string) => readFileSync(`${ROOT}docs/${name}`, 'utf8');

/** The first cells of the markdown table under `heading` (its backticked names). */
function tableFields(markdown: string, heading: string): string[] {
  const from = markdown.indexOf(`\n${heading}\n`);
  expect(from, `heading "${heading}"`).toBeGreaterThanOrEqual(0);
  const rows = markdown.slice(from).split('\n').slice(1);
  const start = rows.findIndex((l) => l.startsWith('|'));
  const table = rows.slice(
    start,
    rows.findIndex((l, i) => i > start && !l.startsWith('|')),
  );
  return table.flatMap((l) => /^\| `([^`]+)`/.exec(l)?.[1] ?? []);
}

describe('docs name every accepted field', () => {
  it('docs/scenarios.md: every scenario field has a row in the Fields table', () => {
    const rows = tableFields(page('scenarios.md'), '## Fields');
    expect(Object.keys(scenarioSchema.shape).filter((k) => !rows.includes(k))).toEqual([]);
  });

  it('docs/scenarios.md: every field a variant may override has a row in the table of overrides', () => {
    const text = page('scenarios.md');
    const span = text.slice(text.indexOf('A variant may set'), text.indexOf('The result then combines'));
    const firstCells = [...span.matchAll(/^\s*\|([^|]*)\|/gm)].map((m) => m[1]!).join(' ');
    const listed = [...firstCells.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.split('/'));
    const fields = Object.keys(variantSchema.shape).filter((k) => k !== 'name');
    expect(fields.filter((k) => !listed.includes(k))).toEqual([]);
  });

  it('docs/configuration.md: every setting has a row in the settings table', () => {
    const rows = tableFields(page('configuration.md'), '### settings');
    expect(Object.keys(settingsSchema.shape).filter((k) => !rows.includes(k))).toEqual([]);
  });
});
