import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { jsonSchemas } from '../../../src/config/schema.js';

const root = join(import.meta.dirname, '../../..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

describe('shipped JSON Schemas', () => {
  const fresh = jsonSchemas();

  test('schema/*.json on disk equal freshly generated ones (run `npm run build` to refresh)', () => {
    expect(read('schema/axis.config.schema.json')).toBe(`${JSON.stringify(fresh.config, null, 2)}\n`);
    expect(read('schema/scenario.schema.json')).toBe(`${JSON.stringify(fresh.scenario, null, 2)}\n`);
  });

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const config = ajv.compile(fresh.config);
  const scenario = ajv.compile(fresh.scenario);

  test('the quick-start example validates against them', () => {
    expect(
      config(JSON.parse(read('examples/quickstart/axis.config.json'))),
      JSON.stringify(config.errors),
    ).toBe(true);
    for (const f of ['files/write-and-edit', 'service/http-status', 'errors/failing-tool']) {
      const data: unknown = JSON.parse(read(`examples/quickstart/scenarios/${f}.json`));
      expect(scenario(data), `${f}: ${JSON.stringify(scenario.errors)}`).toBe(true);
    }
  });

  test('editors flag unknown keys and wrong types too', () => {
    expect(config({ agents: ['claude-code'], setings: {} })).toBe(false);
    expect(config({ agents: ['claude-code'], settings: { concurrency: 0 } })).toBe(false);
    expect(scenario({ name: 'x', prompt: 'p', judge: [{ check: 'a', wieght: 1 }] })).toBe(false);
    expect(scenario({ name: 'x', prompt: 'p', checks: [{ file: 'a', exists: true }] })).toBe(true);
  });
});
