/** Closing the bidi controls untrusted text leaves open (src/report/html/bidi.ts). */
import { describe, expect, it } from 'vitest';
import { closeBidi, closeBidiDeep } from '../../../src/report/html/bidi.js';

const RLO = '\u202e';
const LRI = '\u2066';
const PDF = '\u202c';
const PDI = '\u2069';

describe('closeBidi', () => {
  it('closes what a text opens, innermost first, and leaves closed text alone', () => {
    expect(closeBidi(`a${RLO}b`)).toBe(`a${RLO}b${PDF}`);
    expect(closeBidi(`${RLO}x${LRI}y`)).toBe(`${RLO}x${LRI}y${PDI}${PDF}`);
    expect(closeBidi(`${RLO}x${PDF}`)).toBe(`${RLO}x${PDF}`);
    // A PDI closes the embeddings opened inside its isolate too.
    expect(closeBidi(`${LRI}${RLO}x${PDI}`)).toBe(`${LRI}${RLO}x${PDI}`);
    expect(closeBidi('plain … text')).toBe('plain … text');
  });
});

describe('closeBidiDeep', () => {
  it('closes every string in nested objects and arrays, in place', () => {
    const data = { a: `x${RLO}`, list: ['ok', { deep: [`${LRI}y`] }], n: 3, nil: null };
    const out = closeBidiDeep(data);
    expect(out).toBe(data);
    expect(data).toEqual({ a: `x${RLO}${PDF}`, list: ['ok', { deep: [`${LRI}y${PDI}`] }], n: 3, nil: null });
  });

  it('writes nothing back where nothing changes, so data without bidi controls may be frozen', () => {
    // A write of the same value into a frozen object throws in strict mode: closing stores only changes.
    const inner = Object.freeze({ text: 'plain', more: Object.freeze(['a', 'b…']) });
    const data = Object.freeze({ runs: Object.freeze([inner]), id: 'r1' });
    expect(() => closeBidiDeep(data)).not.toThrow();
    expect(data.runs[0]!.more[1]).toBe('b…');
  });
});
