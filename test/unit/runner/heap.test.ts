import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPACT_HEAP_MIN_JOBS } from '../../../src/runner/heap.js';

const HEAP_JS = fileURLToPath(new URL('../../../dist/runner/heap.js', import.meta.url));

/**
 * A fresh Node process (V8 flags are process-wide) applies the settings for `jobs` jobs, then allocates
 * 200 MB of short-lived objects with a little kept alive; prints whether they applied and the young
 * generation's size in MB.
 */
function youngGenAfterChurn(jobs: number): { applied: boolean; newSpaceMb: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { compactHeap, heapForRun } = await import(${JSON.stringify(HEAP_JS)});
    compactHeap();
    const applied = heapForRun(${jobs});
    const kept = [];
    for (let i = 0; i < 2_000_000; i++) {
      const o = { i, s: 'x'.repeat(40) + i };
      if (i % 1000 === 0) kept.push(o);
    }
    const ns = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(JSON.stringify({ applied, newSpaceMb: ns.space_size / 1048576, kept: kept.length }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out) as { applied: boolean; newSpaceMb: number };
}

describe('compactHeap, then heapForRun once the plan is known', () => {
  it('gives a short run the defaults back: the young generation grows under churn', () => {
    const r = youngGenAfterChurn(COMPACT_HEAP_MIN_JOBS - 1);
    expect(r.applied).toBe(false);
    expect(r.newSpaceMb).toBeGreaterThan(4);
  });

  it('keeps the young generation at its initial size for a run of many jobs', () => {
    const r = youngGenAfterChurn(COMPACT_HEAP_MIN_JOBS);
    expect(r.applied).toBe(true);
    expect(r.newSpaceMb).toBeLessThanOrEqual(2);
  });
});
