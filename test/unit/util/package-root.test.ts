import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  distPath,
  FROM_BUNDLE,
  FROM_SOURCE,
  PACKAGE_ROOT,
  selfEntry,
} from '../../../src/util/package-root.js';

describe('package-root', () => {
  it('names the package root, and the sources when running from them', () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string };
    expect(pkg.name).toBe('axis-eval');
    expect(FROM_SOURCE).toBe(true);
    expect(FROM_BUNDLE).toBe(false);
    expect(selfEntry()).toBe(join(PACKAGE_ROOT, 'src/index.ts'));
    expect(existsSync(selfEntry())).toBe(true);
    expect(distPath('native', 'axis-contain')).toBe(join(PACKAGE_ROOT, 'dist/native/axis-contain'));
  });
});
