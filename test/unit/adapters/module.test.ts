import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModuleAdapter } from '../../../src/adapters/module.js';
import { getAdapter, loadAdapters } from '../../../src/adapters/registry.js';
import { ConfigError } from '../../../src/util/errors.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

function write(name: string, text: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

async function loadError(file: string, name = 'mine'): Promise<ConfigError> {
  try {
    await loadModuleAdapter(file, name);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected the load to fail');
}

describe('loadModuleAdapter', () => {
  it('loads a TypeScript default export and fills optional fields', async () => {
    const file = write('a.ts', `const x: number = 1;\nexport default { run: async () => ({ x }) };\n`);
    const a = await loadModuleAdapter(file, 'mine');
    expect(a).toMatchObject({ name: 'mine', acceptsModel: true, acceptsFlags: true, providerEnv: [] });
    expect(typeof a.run).toBe('function');
  });

  it('accepts a named "adapter" export and CommonJS module.exports', async () => {
    const named = write('n.mjs', `export const adapter = { name: 'n', acceptsModel: false, run() {} };\n`);
    expect(await loadModuleAdapter(named, 'n')).toMatchObject({ name: 'n', acceptsModel: false });
    const cjs = write('c.cjs', `module.exports = { run() {} };\n`);
    expect((await loadModuleAdapter(cjs, 'c')).name).toBe('c');
  });

  it('names the file and what is missing when there is no usable export', async () => {
    const file = write('none.ts', `export const helper = 1;\n`);
    const err = await loadError(file);
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain(file);
    expect(err.message).toContain('adapters.mine');
    expect(err.message).toContain('expected a default export or a named "adapter" export');
    expect(err.message).toContain('"helper"');
  });

  it('reports every invalid field of the export', async () => {
    const file = write(
      'bad.ts',
      `export default { name: 3, acceptsModel: 'yes', providerEnv: 'X', auth: { envVars: ['A'] } };\n`,
    );
    const err = await loadError(file);
    expect(err.issues.map((i) => i.message)).toEqual([
      '"run" must be a function run(ctx) → Promise<Transcript>, found nothing',
      '"name" must be a string, found number 3',
      '"acceptsModel" must be true or false, found string "yes"',
      '"providerEnv" must be an array of variable names, found string "X"',
      '"auth.hint" must be a string, found nothing',
    ]);
  });

  it('reports a module that fails to load (syntax error, throw, missing file) without a stack', async () => {
    const syntax = await loadError(write('syntax.ts', `export default {{;\n`));
    expect(syntax.message).toContain('cannot load adapter module');
    const throws = await loadError(write('throws.mjs', `throw new Error('boom at load');\n`));
    expect(throws.message).toContain('boom at load');
    expect(throws.message).not.toMatch(/\n\s+at /);
    const missing = await loadError(join(tempDir(), 'missing.ts'));
    expect(missing.message).toContain('cannot load adapter module');
  });
});

describe('getAdapter with module adapters', () => {
  it('loads a module once per file and rejects unknown names', async () => {
    const file = write(
      'once.mjs',
      `globalThis.__axisLoads = (globalThis.__axisLoads ?? 0) + 1;\nexport default { run() {} };\n`,
    );
    const source = { configDir: '/', config: { adapters: { once: file } } };
    const a = await getAdapter('once', source);
    const b = await getAdapter('ONCE', source);
    expect(a).toBe(b);
    expect((globalThis as { __axisLoads?: number }).__axisLoads).toBe(1);
    await expect(getAdapter('nope', source)).rejects.toThrow(/Unknown agent adapter "nope".*custom: once/);
  });
});

describe('loadAdapters', () => {
  it('names every module that does not load, in one ConfigError, and loads each adapter once', async () => {
    const good = write('good.mjs', `export default { run() {} };\n`);
    const syntax = write('broken.ts', `export default {{;\n`);
    const empty = write('empty.mjs', `export const nothing = 1;\n`);
    const source = { configDir: '/', config: { adapters: { good, broken: syntax, empty } } };
    const err = await loadAdapters(['broken', 'good', 'Empty', 'empty'], source).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues;
    expect(issues.map((i) => i.file)).toEqual([syntax, empty]);
    expect((err as ConfigError).message).toContain('Invalid configuration (2 problems)');
    const loaded = await loadAdapters(['good', 'GOOD', 'command'], source);
    expect([...loaded.keys()]).toEqual(['good', 'command']);
  });
});
