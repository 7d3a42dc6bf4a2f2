import { describe, expect, it } from 'vitest';
import {
  compactJsonChunks,
  prettyJsonChunks,
  prettyJsonFile,
  small,
} from '../../../src/report/json-chunks.js';

const text = (chunks: Iterable<Buffer>) => Buffer.concat([...chunks]).toString('utf8');
const long = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));

describe('prettyJsonChunks', () => {
  const values: Array<[string, unknown]> = [
    ['scalars', { a: 1, b: 'x\ny', c: null, d: true, e: undefined, f: () => 1 }],
    ['empty', { a: {}, b: [], c: [[]], d: '' }],
    [
      'a long array of mixed items',
      { events: long(300, (i) => (i % 7 === 0 ? undefined : { i, t: `é→${i}`, n: [i, { k: i }] })) },
    ],
    [
      'long arrays nested deep',
      { a: { b: { c: { d: { e: long(100, (i) => ({ i })) } } } }, top: long(80, (i) => [i, [i]]) },
    ],
    [
      'dates and toJSON',
      { at: new Date(0), x: { toJSON: () => ({ y: [1, 2] }) }, list: long(70, (i) => new Date(i)) },
    ],
    [
      'long arrays of uneven elements, grouped, at every walked depth',
      {
        a: {
          b: {
            audits: long(3000, (i) =>
              i % 500 === 0
                ? { big: 'y'.repeat(300_000), nested: [{ deep: [i, { s: 'q\n"' }] }] }
                : i % 11 === 0
                  ? () => i
                  : { id: i, list: long(i % 5, (k) => ({ k })) },
            ),
          },
        },
        top: long(70, (i) => (i % 2 ? [] : {})),
      },
    ],
    [
      'short arrays near the top, holding long ones and odd elements',
      {
        results: [
          { score: { audits: long(100, (i) => ({ i })) } },
          undefined,
          () => 1,
          new Date(0),
          [],
          [[1]],
        ],
        top: [long(70, (i) => i), Symbol('s'), null],
      },
    ],
    [
      // Pieces just under and over the length encoded on its own (4,096), between small ones.
      'pieces either side of the length encoded on its own',
      Object.fromEntries(
        Array.from({ length: 60 }, (_, i): [string, unknown] => [
          `k${i}`,
          i % 3 === 0 ? i : `${i % 2 ? 'é' : 'a'}${'x'.repeat(4_080 + (i % 9) * 2)}`,
        ]),
      ),
    ],
    ['a top-level short array', ['a', undefined, { x: [] }]],
    ['a top-level long array', long(200, (i) => ({ id: i, s: 'a"b\\c' }))],
    ['a null-prototype object', Object.assign(Object.create(null), { z: long(65, () => null) })],
  ];
  it.each(values)('%s: exactly JSON.stringify(value, null, 2)', (_, v) => {
    expect(text(prettyJsonChunks(v))).toBe(JSON.stringify(v, null, 2));
  });
  it.each(values)('%s: compact, exactly JSON.stringify(value)', (_, v) => {
    expect(text(compactJsonChunks(v))).toBe(JSON.stringify(v));
  });

  // Small values are stringified in one call (no long array, few values and characters); the rest
  // walked. Both sides of each bound give JSON.stringify's text.
  it.each([
    ['4,000 values in short arrays', { a: long(40, (i) => ({ i, l: long(60, (k) => k) })) }],
    ['5,000 values in short arrays', { a: long(50, (i) => ({ i, l: long(60, (k) => k) })) }],
    ['64 K characters of strings', { a: long(8, () => 'x'.repeat(8000)), k: 'é'.repeat(10) }],
    ['one string over 64 K characters', { a: [{ s: 'x'.repeat(70_000) }] }],
    ['an array of 63 and one of 64', { a: long(63, (i) => i), b: { c: long(64, (i) => `${i}`) } }],
    ['long keys', Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}${'k'.repeat(4000)}`, i]))],
  ])('%s: the same text whichever way it is written', (_, v) => {
    expect(text(prettyJsonChunks(v))).toBe(JSON.stringify(v, null, 2));
    expect(text(compactJsonChunks(v))).toBe(JSON.stringify(v));
    // A file's text: one string when small, chunks when not, the same text and its newline either way.
    const file = prettyJsonFile(v);
    expect(typeof file === 'string').toBe(small(v));
    expect(typeof file === 'string' ? file : text(file)).toBe(`${JSON.stringify(v, null, 2)}\n`);
  });

  it.each(values)('%s: as a file, the text and its newline', (_, v) => {
    const file = prettyJsonFile(v);
    expect(typeof file === 'string' ? file : text(file)).toBe(`${JSON.stringify(v, null, 2)}\n`);
  });

  it('yields a long value in chunks of about a megabyte', () => {
    const v = {
      transcript: { events: long(30_000, (i) => ({ kind: 'text', text: `${i} ${'x'.repeat(100)}` })) },
    };
    const chunks = [...prettyJsonChunks(v)];
    expect(chunks.length).toBeGreaterThan(2);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(1.1 * 2 ** 20);
    expect(text(chunks)).toBe(JSON.stringify(v, null, 2));
  });

  it('holds no megabyte buffer for a file of a few hundred KB, and no chunk is a copy of another', () => {
    const v = { events: long(3_000, (i) => ({ kind: 'text', text: `${i} ${'y'.repeat(80)}` })) };
    const chunks = [...prettyJsonChunks(v)];
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    expect(bytes).toBeGreaterThan(250_000);
    expect(bytes).toBeLessThan(2 ** 20);
    // The memory behind the chunks: one doubling buffer each (64 KB, 128 KB, ...), none of a megabyte.
    const buffers = [...new Set(chunks.map((c) => c.buffer))];
    expect(buffers.length).toBe(chunks.length);
    expect(Math.max(...buffers.map((b) => b.byteLength))).toBeLessThan(2 ** 20);
    expect(buffers.reduce((n, b) => n + b.byteLength, 0)).toBeLessThan(3 * bytes);
    expect(text(chunks)).toBe(JSON.stringify(v, null, 2));
  });

  it('encodes UTF-8 exactly, multi-byte characters and escaped lone surrogates included', () => {
    const v = {
      list: long(5000, (i) => ({ s: `${'€😀'.repeat(i % 40)}\ud800${'x'.repeat(i % 300)}` })),
      huge: long(64, (i) => (i === 3 ? '猫'.repeat(400_000) : i)),
    };
    const chunks = [...compactJsonChunks(v)];
    expect(chunks.length).toBeGreaterThan(2);
    expect(Buffer.concat(chunks).equals(Buffer.from(JSON.stringify(v), 'utf8'))).toBe(true);
  });
});

describe('small (which values are stringified in one call)', () => {
  it('takes a short job detail of nested objects, short arrays and text', () => {
    const audit = (i: number) => ({ interactionId: i, rationale: 'exit code 0', scores: [1, 0.5, null] });
    const detail = {
      score: { audits: long(20, audit), dims: { a: { b: { c: { d: 1 } } } } },
      text: 'x'.repeat(1000),
    };
    expect(small(detail)).toBe(true);
    expect(small('short')).toBe(true);
    expect(small(42)).toBe(true);
    expect(small(null)).toBe(true);
  });

  it('leaves long arrays, much text, many values and objects it cannot size to the walk', () => {
    expect(small({ a: { events: long(64, (i) => i) } })).toBe(false);
    expect(small({ a: long(63, (i) => i) })).toBe(true);
    expect(small({ out: 'x'.repeat(1 << 16) })).toBe(false);
    expect(small('x'.repeat((1 << 16) + 1))).toBe(false);
    expect(small({ [`k${'x'.repeat(1 << 16)}`]: 1 })).toBe(false);
    // 40 objects of two 60-element arrays: no long array, but about 4,900 values in all.
    expect(small({ rows: long(40, () => ({ a: long(60, (k) => k), b: long(60, (k) => k) })) })).toBe(false);
    expect(small({ when: new Date(0) })).toBe(false);
    expect(small({ v: { toJSON: () => 'x' } })).toBe(false);
    expect(
      small({
        v: new (class Point {
          x = 1;
        })(),
      }),
    ).toBe(false);
    expect(small({ v: Object.assign(Object.create(null) as object, { a: 1 }) })).toBe(true);
  });

  it('ends on a value that contains itself', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    const ring: unknown[] = [];
    ring.push(ring);
    expect(small(loop)).toBe(false);
    expect(small({ ring })).toBe(false);
  });
});
