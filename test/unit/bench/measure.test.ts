// The bench's own arithmetic: the scoring target's figure is a small difference of two marginal costs,
// so how it pairs runs decides whether drift between passes shows up in it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

type Run = Record<string, number>;
type Runs = Record<string, Run[]>;
interface Measure {
  addedPerJob(runs: Runs, field: string, scored: string, plain: string, jobs: number, o?: object): number;
  addedPerPass(runs: Runs, field: string, scored: string, plain: string, jobs: number): number[];
  interleave(tasks: Record<string, () => Promise<unknown>>, passes: number, o?: object): Promise<Runs>;
}
const measure = (await import(
  pathToFileURL(join(import.meta.dirname, '../../../scripts/bench/lib/measure.mjs')).href
)) as Measure;

/** Runs of 1 and 101 jobs, scored adding `added` ms per job, each pass slower by `drift[p]` ms per job. */
function passes(added: number, drift: number[]): Record<'plain1' | 'scored1' | 'plain' | 'scored', Run[]> {
  const at = (perJob: number, p: number, jobs: number) => ({ ms: 300 + (perJob + drift[p]!) * (jobs - 1) });
  return {
    plain1: drift.map((_, p) => at(8, p, 1)),
    scored1: drift.map((_, p) => at(8 + added, p, 1)),
    plain: drift.map((_, p) => at(8, p, 101)),
    scored: drift.map((_, p) => at(8 + added, p, 101)),
  };
}

describe('addedPerJob', () => {
  it('pairs the runs of each pass: drift between passes does not reach the figure', () => {
    // Passes slower by 0, 0.4 and 0.6 ms per job; the scored runs' own noise +0.3, −0.3 and 0.
    const runs = passes(1.5, [0, 0.4, 0.6]);
    runs.scored = [0.3, -0.3, 0].map((e, p) => ({ ms: runs.scored[p]!.ms! + e * 100 }));
    // Medians: the scored runs' is pass 0 (9.8 per job), the plain runs' pass 1 (8.4): 1.4.
    expect(measure.addedPerJob(runs, 'ms', 'scored', 'plain', 101, { paired: false })).toBeCloseTo(1.4);
    // Within each pass: 1.8, 1.2, 1.5 (what the bench prints, in order); their median is what scoring adds.
    const each = measure.addedPerPass(runs, 'ms', 'scored', 'plain', 101);
    expect(each.map((v) => Number(v.toFixed(6)))).toEqual([1.8, 1.2, 1.5]);
    expect(measure.addedPerJob(runs, 'ms', 'scored', 'plain', 101)).toBeCloseTo(1.5);
  });

  it('recovers what scoring adds when every pass drifts alike', () => {
    const runs = passes(1.5, [0, 0.5, -0.3, 0.2, 0.1]);
    expect(measure.addedPerJob(runs, 'ms', 'scored', 'plain', 101)).toBeCloseTo(1.5);
    expect(measure.addedPerJob(runs, 'ms', 'scored', 'plain', 101, { paired: false })).toBeCloseTo(1.5);
  });

  it('takes the median over the passes: one disturbed pass does not move it', () => {
    const runs = passes(1.5, [0, 0, 0]);
    runs.scored[1] = { ms: runs.scored[1]!.ms! + 500 };
    expect(measure.addedPerJob(runs, 'ms', 'scored', 'plain', 101)).toBeCloseTo(1.5);
  });
});

describe('interleave', () => {
  it('runs every task once per pass, reversing every second pass when asked', async () => {
    const order: string[] = [];
    const task = (k: string) => async () => (order.push(k), k);
    const runs = await measure.interleave({ a: task('a'), b: task('b'), c: task('c') }, 3, {
      alternate: true,
    });
    expect(order.join('')).toBe('abccbaabc');
    expect(runs.a).toEqual(['a', 'a', 'a']);
    order.length = 0;
    await measure.interleave({ a: task('a'), b: task('b') }, 2);
    expect(order.join('')).toBe('abab');
  });
});
