import { describe, expect, it } from 'vitest';
import { bracketsOver, nestedDeeperThan } from '../../../src/util/depth.js';

/** The plain definition: levels of objects and arrays, the value itself level 1 (0 for a primitive). */
function depthOf(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** A seeded generator of nested objects and arrays with primitives among them. */
function generate(seed: number, count: number): unknown[] {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const build = (left: number): unknown => {
    const r = rand();
    if (left === 0 || r < 0.2) return r < 0.1 ? null : Math.floor(r * 100);
    const n = Math.floor(rand() * 4);
    const kids = Array.from({ length: n }, () => build(left - 1));
    if (rand() < 0.5) return kids;
    return Object.fromEntries(kids.map((k, i) => [`k${i}`, k]));
  };
  return Array.from({ length: count }, () => build(Math.floor(rand() * 12)));
}

describe('nestedDeeperThan', () => {
  it('agrees with the plain definition on 500 generated values at every limit around their depth', () => {
    for (const value of generate(7, 500)) {
      const depth = depthOf(value);
      for (const max of [0, 1, depth - 1, depth, depth + 1].filter((m) => m >= 0))
        expect(nestedDeeperThan(value, max), `depth ${depth}, max ${max}`).toBe(depth > max);
    }
  });

  it('walks 100,000 levels without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(nestedDeeperThan(deep, 256)).toBe(true);
    expect(nestedDeeperThan(deep, 100_000)).toBe(false);
  });
});

describe('bracketsOver', () => {
  it('is true whenever the JSON text of a value is nested deeper than the limit', () => {
    for (const value of generate(11, 300)) {
      const depth = depthOf(value);
      if (depth > 3) expect(bracketsOver(JSON.stringify(value), 3)).toBe(true);
    }
  });
});
