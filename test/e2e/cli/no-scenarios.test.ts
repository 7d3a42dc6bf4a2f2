/**
 * A config whose sources hold no scenario at all (an empty folder, or scenarios written in YAML, which AXIS
 * does not read): validate said "valid, but no job matches the filters" with no filter given, and run said
 * every scenario was "skipped or excluded by the filters". Both now say no scenario was found, where, and
 * which files count; each YAML file is named on its own (yaml-scenarios.test.ts) (exit 2).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

afterAll(removeTempDirs);
beforeAll(buildDist);

const EXPECTED =
  'axis.config.json: scenarios: expected at least one scenario, found none in ./scenarios ' +
  '(scenario files end in .json, .js, .mjs, .cjs, .ts, .mts or .cts; YAML, JSONC and JSON5 are not read)';

function project(files: Record<string, string>): string {
  const dir = tempDir('axis-noscen-');
  mkdirSync(join(dir, 'scenarios'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'scenarios', name), text);
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents: [TOY_AGENT] }),
  );
  return dir;
}

it('scenarios written in YAML: validate and run name each file not read, not the filters (exit 2)', async () => {
  const dir = project({ 'hello.yaml': 'name: Hello\nprompt: p\n', 'b.yml': 'name: B\n' });
  for (const args of [['validate'], ['run']]) {
    const r = await axis(args, dir);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain('Invalid configuration (2 problems):\n');
    expect(r.stderr).toContain('  scenarios/b.yml: expected a scenario file (.json, .js, .mjs, .cjs, .ts');
    expect(r.stderr).toContain('  scenarios/hello.yaml: expected a scenario file (.json, .js, .mjs, .cjs');
    expect(r.stderr).not.toContain('filters');
  }
}, 60_000);

it('an empty scenarios folder: the same, without a list', async () => {
  const dir = project({});
  const r = await axis(['validate'], dir);
  expect(r.code, r.stdout).toBe(2);
  expect(r.stderr).toContain(`${EXPECTED}\n`);
}, 60_000);
