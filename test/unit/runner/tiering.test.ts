import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lateTierUp } from '../../../src/runner/tiering.js';

const TIERING_JS = fileURLToPath(new URL('../../../dist/runner/tiering.js', import.meta.url));

/**
 * A fresh Node process (V8 flags are process-wide) that calls lateTierUp (or not), then calls a small
 * function `calls` times; returns how many times V8 marked it for optimization (--trace-opt).
 */
function marksAfter(calls: number, late: boolean, nodeArgs: string[] = []): number {
  const script = `
    const { lateTierUp } = await import(${JSON.stringify(TIERING_JS)});
    const applied = ${late} ? lateTierUp() : false;
    function axisHot(a, b) { return (a * 31 + b) % 1009; }
    let t = 0;
    for (let k = 0; k < ${calls}; k++) t = axisHot(t, k);
    console.log(JSON.stringify({ applied, t }));`;
  const out = execFileSync(
    process.execPath,
    [...nodeArgs, '--trace-opt', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  // --trace-opt lines may follow it (a compile that finishes on its thread after the loop).
  const line = out.split('\n').find((l) => l.startsWith('{"applied"'));
  const result = JSON.parse(line!) as { applied: boolean };
  expect(result.applied).toBe(late && nodeArgs.length === 0);
  return out.split('\n').filter((l) => /marking .*axisHot/.test(l)).length;
}

describe('lateTierUp', () => {
  it('leaves a function that V8 would optimize by default unoptimized for longer', () => {
    // The control: with V8's own budget the same 30,000 calls get the function marked.
    expect(marksAfter(30_000, false)).toBeGreaterThan(0);
    expect(marksAfter(30_000, true)).toBe(0);
  });

  it('still optimizes code that keeps running', () => {
    expect(marksAfter(300_000, true)).toBeGreaterThan(0);
  });

  it('leaves a budget Node was started with alone', () => {
    expect(marksAfter(30_000, true, ['--interrupt-budget=67584'])).toBeGreaterThan(0);
    expect(lateTierUp(['--interrupt-budget=1000'], '')).toBe(false);
    expect(lateTierUp([], '--max-old-space-size=100 --interrupt_budget=1000')).toBe(false);
  });
});
