/**
 * The vitest projects (vitest.config.ts): every test file belongs to exactly one, and each entry of the
 * isolated unit list still names a file, so a renamed file cannot fall silently into the shared project.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import config, { ISOLATED_UNIT } from '../../../vitest.config.js';

const ROOT = join(import.meta.dirname, '../../..');
const files = (patterns: string[], ignore: string[] = []) => globSync(patterns, { cwd: ROOT, ignore }).sort();

describe('vitest projects', () => {
  it('no helper module registers a hook when imported (in the shared project it would run for one file only)', () => {
    const helpers = files(['test/**/*.ts'], ['test/**/*.test.ts', 'test/setup.ts', 'test/fixtures/**']);
    const hooked = helpers.filter((f) =>
      /^(?:afterAll|afterEach|beforeAll|beforeEach)\(/m.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    // e2e helpers run in fresh processes only; a unit helper must leave hooks to test/setup.ts or its files.
    expect(hooked.filter((f) => !f.startsWith('test/e2e/'))).toEqual([]);
  });

  const projects = (config.test?.projects ?? []) as {
    test: { name: string; include: string[]; exclude?: string[] };
  }[];

  it('each isolated unit entry matches at least one test file', () => {
    for (const pattern of ISOLATED_UNIT) expect(files([pattern]), pattern).not.toEqual([]);
  });

  it('puts every test file in exactly one project; only the unit one shares a module graph', () => {
    const all = files(['test/**/*.test.ts']);
    const seen = new Map<string, string[]>();
    for (const p of projects)
      for (const f of files(p.test.include, p.test.exclude))
        seen.set(f, [...(seen.get(f) ?? []), p.test.name]);
    expect(all.filter((f) => seen.get(f)?.length !== 1)).toEqual([]);
    expect(seen.get('test/e2e/run/cli.test.ts')).toEqual(['isolated']);
    expect(seen.get('test/unit/exec/spawner.test.ts')).toEqual(['isolated']);
    expect(seen.get('test/unit/util/fold.test.ts')).toEqual(['unit']);
    expect(projects.map((p) => [p.test.name, (p.test as { isolate?: boolean }).isolate])).toEqual([
      ['isolated', undefined],
      ['unit', false],
    ]);
  });
});
