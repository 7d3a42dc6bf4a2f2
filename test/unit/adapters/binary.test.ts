import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { missingBinaryMessage, packageBinDirs, resolveBinary } from '../../../src/adapters/binary.js';
import { ROOT } from '../../e2e/adapters/helpers.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

function exe(dir: string, name: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, '#!/bin/sh\n');
  chmodSync(p, mode);
  return p;
}

describe('resolveBinary', () => {
  it('searches PATH first, then the fallback directories, skipping non-executables', () => {
    const root = tempDir();
    exe(join(root, 'a'), 'tool', 0o644);
    const inB = exe(join(root, 'b'), 'tool');
    const fallback = exe(join(root, 'fb'), 'other');
    const path = [join(root, 'a'), join(root, 'b')].join(':');
    expect(resolveBinary('tool', { path, fallbackDirs: [join(root, 'fb')] })).toBe(inB);
    expect(resolveBinary('other', { path, fallbackDirs: [join(root, 'fb')] })).toBe(fallback);
    expect(resolveBinary('missing', { path, fallbackDirs: [] })).toBeUndefined();
  });

  it('skips PATH entries that do not exist, are files, or hold a directory of that name', () => {
    const root = tempDir();
    const notDir = exe(root, 'plain-file');
    mkdirSync(join(root, 'd', 'tool'), { recursive: true }); // a directory named like the tool
    const found = exe(join(root, 'last'), 'tool');
    const path = [join(root, 'nowhere'), notDir, join(root, 'd'), join(root, 'last')].join(':');
    expect(resolveBinary('tool', { path, fallbackDirs: [] })).toBe(found);
    expect(
      resolveBinary('tool', { path: [join(root, 'nowhere'), notDir].join(':'), fallbackDirs: [] }),
    ).toBeUndefined();
  });

  it('resolves a path with a slash against the given base', () => {
    const root = tempDir();
    const script = exe(join(root, 'agents'), 'run.sh');
    expect(resolveBinary('./agents/run.sh', { cwd: root })).toBe(script);
    expect(resolveBinary('agents/run.sh', { cwd: root })).toBe(script);
    expect(resolveBinary(script)).toBe(script);
    expect(resolveBinary('./agents/none.sh', { cwd: root })).toBeUndefined();
  });

  it("finds the agent CLIs in this package's node_modules/.bin with an empty PATH", () => {
    expect(packageBinDirs()).toContain(join(ROOT, 'node_modules/.bin'));
    expect(resolveBinary('claude', { path: '' })).toBe(join(ROOT, 'node_modules/.bin/claude'));
  });

  it('names the binary and the package to install', () => {
    expect(missingBinaryMessage('codex', 'codex', '@openai/codex')).toBe(
      'Cannot start codex: "codex" was not found on PATH or in node_modules/.bin. Install it with: npm install -D @openai/codex',
    );
    expect(missingBinaryMessage('command agent "x"', './x.sh')).toContain(
      '"./x.sh" does not exist or is not executable',
    );
  });
});
