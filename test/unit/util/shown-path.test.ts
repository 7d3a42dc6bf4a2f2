import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownPath } from '../../../src/util/shown-path.js';

describe('shownPath', () => {
  it('is relative to the cwd under it, and as given elsewhere or at the cwd itself', () => {
    const cwd = resolve('/tmp/project');
    expect(shownPath(join(cwd, '.axis/reports/x/junit.xml'), cwd)).toBe(
      join('.axis', 'reports', 'x', 'junit.xml'),
    );
    expect(shownPath(resolve('/tmp/other/file.json'), cwd)).toBe(resolve('/tmp/other/file.json'));
    expect(shownPath(cwd, cwd)).toBe(cwd);
    expect(shownPath(join(process.cwd(), 'a.txt'))).toBe('a.txt');
  });
});
