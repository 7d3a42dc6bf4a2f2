import { describe, expect, it } from 'vitest';
import { escapeRegExp } from '../../../src/util/regexp.js';

describe('escapeRegExp', () => {
  const specials = '.*+?^${}()|[]\\/';

  it('matches each special character, and every text made of them, exactly', () => {
    for (const s of [...specials, specials, `a${specials}b`, 'Workspace Directories:**', '<cwd>', '']) {
      const re = new RegExp(`^${escapeRegExp(s)}$`);
      expect(re.test(s), s).toBe(true);
    }
  });

  it('does not match what the unescaped pattern would', () => {
    expect(new RegExp(escapeRegExp('a.c')).test('abc')).toBe(false);
    expect(new RegExp(`^${escapeRegExp('a*')}$`).test('aaa')).toBe(false);
    expect(new RegExp(`^${escapeRegExp('(x|y)')}$`).test('x')).toBe(false);
    expect(new RegExp(`^${escapeRegExp('[ab]')}$`).test('a')).toBe(false);
  });

  it('leaves plain text as it is', () => {
    expect(escapeRegExp('Primary working directory: ')).toBe('Primary working directory: ');
  });
});
