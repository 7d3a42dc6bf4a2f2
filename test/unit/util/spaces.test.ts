import { describe, expect, it } from 'vitest';
import { collapseSpaces } from '../../../src/util/spaces.js';
import { randomText, seeded } from '../../helpers/random.js';

/** The plain definition it must equal. */
const plain = (s: string): string => s.replace(/\s+/g, ' ');

// Every character `\s` matches in JavaScript, and some that it does not.
const SPACES = [
  ' ',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];
const OTHERS = ['a', 'Z', '0', '-', '…', '\u200b', '\u0085', '\u180e', '\u0000', '😀'];

describe('collapseSpaces', () => {
  it('is s.replace(/\\s+/g, " ") on 20,000 generated strings', () => {
    const next = seeded(7);
    const pieces = [...SPACES, ...SPACES, ...OTHERS, ...OTHERS, ...OTHERS];
    for (let n = 0; n < 20_000; n++) {
      const s = randomText(next, pieces, 40);
      expect(collapseSpaces(s), JSON.stringify(s)).toBe(plain(s));
    }
  });

  it('returns ordinary text with single spaces as it is, and collapses the rest', () => {
    const words = 'Create the posts in the CMS and run the tests';
    expect(collapseSpaces(words)).toBe(words);
    expect(collapseSpaces('')).toBe('');
    expect(collapseSpaces(' a  b\tc\n\nd ')).toBe(' a b c d ');
    expect(collapseSpaces('a\u00a0b\u3000\u3000c')).toBe('a b c');
  });
});
