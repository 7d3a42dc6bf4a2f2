import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = (f: string) => fileURLToPath(new URL(`../../../dist/${f}`, import.meta.url));

/** A fresh Node process (V8 flags are process-wide) runs `calls`; prints the log setV8Flag keeps. */
function logAfter(calls: string): unknown {
  const script = `
    const { compactHeap, heapForRun } = await import(${JSON.stringify(dist('runner/heap.js'))});
    const { lateTierUp } = await import(${JSON.stringify(dist('runner/tiering.js'))});
    const { v8FlagLog } = await import(${JSON.stringify(dist('util/v8-flags.js'))});
    ${calls}
    console.log(JSON.stringify(v8FlagLog()));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  );
}

describe('setV8Flag keeps, for the code cache, what the CLI changed from start-up', () => {
  it('a run of many jobs: compact heap and the late tier-up both stay changed', () => {
    expect(logAfter('compactHeap(); lateTierUp(); heapForRun(500);')).toEqual({
      startup: { 'semi-space-growth-factor': '2', 'heap-growing-percent': '0', 'interrupt-budget': '67584' },
      now: { 'semi-space-growth-factor': '1', 'heap-growing-percent': '50', 'interrupt-budget': '600000' },
    });
  });

  it('a short run: the heap flags back at their start-up values count as unchanged', () => {
    expect(logAfter('compactHeap(); lateTierUp(); heapForRun(1);')).toEqual({
      startup: { 'semi-space-growth-factor': '2', 'heap-growing-percent': '0', 'interrupt-budget': '67584' },
      now: { 'interrupt-budget': '600000' },
    });
  });

  it('nothing changed, nothing logged', () => {
    expect(logAfter('')).toBeNull();
  });
});

describe('a flag Node was started with is the user setting, left as given', () => {
  it('is found in NODE_OPTIONS or the arguments, either spelling, either form', async () => {
    const { givenAtStartup } = await import('../../../src/util/v8-flags.js');
    expect(givenAtStartup('heap-growing-percent', [], '--heap_growing_percent=30')).toBe(true);
    expect(givenAtStartup('heap-growing-percent', ['--heap-growing-percent', '30'], '')).toBe(true);
    expect(givenAtStartup('interrupt-budget', [], '--max-old-space-size=100 --interrupt-budget=9')).toBe(
      true,
    );
    expect(givenAtStartup('heap-growing-percent', [], '--heap-growing-percentage=3')).toBe(false);
    expect(givenAtStartup('heap-growing-percent', ['--x-heap-growing-percent=3'], '')).toBe(false);
    expect(givenAtStartup('semi-space-growth-factor', [], '')).toBe(false);
  });

  it("compactHeap and heapForRun leave a heap flag from Node's arguments alone and log only the others", () => {
    const script = `
      const { compactHeap, heapForRun } = await import(${JSON.stringify(dist('runner/heap.js'))});
      const { v8FlagLog } = await import(${JSON.stringify(dist('util/v8-flags.js'))});
      compactHeap(); heapForRun(500);
      console.log(JSON.stringify(v8FlagLog()));`;
    // V8 refuses these flags in NODE_OPTIONS: `node --heap-growing-percent=30 …` is how one is given.
    const out = execFileSync(
      process.execPath,
      ['--heap-growing-percent=30', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({
      startup: { 'semi-space-growth-factor': '2' },
      now: { 'semi-space-growth-factor': '1' },
    });
  });
});
