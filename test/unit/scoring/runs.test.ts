/**
 * Repeated runs, counted one way: run states, pair status, reliability = completed ÷ (runs − unscored),
 * cancelled runs left out, and the representative run (ties go to the lower composite).
 */
import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../../../src/transcript/model.js';
import { representative, spread } from '../../../src/report/scores.js';
import {
  pairCountsText,
  pairRunsText,
  pairStatus,
  reliability,
  reliabilityOfSummary,
  reliabilityPair,
  reliabilityPercent,
  reliabilityText,
  runState,
} from '../../../src/scoring/runs.js';
import { summarizeScores } from '../../../src/scoring/summary.js';
import type { ScoreStatus } from '../../../src/scoring/types.js';

type Kind = number | 'crash' | 'unscored' | 'cancelled' | 'timeout';
/** A run as the scoring stage leaves it: a number is a scored composite. */
function runs(...kinds: Kind[]) {
  return kinds.map((k, i) => {
    const status: JobStatus =
      k === 'crash' ? 'failed' : k === 'cancelled' ? 'cancelled' : k === 'timeout' ? 'timeout' : 'completed';
    const scoreStatus: ScoreStatus | undefined =
      typeof k === 'number'
        ? 'scored'
        : k === 'unscored'
          ? 'unscored'
          : k === 'cancelled'
            ? undefined
            : 'failed';
    return {
      run: i + 1,
      status,
      scoreStatus,
      axisScore: typeof k === 'number' ? k : k === 'unscored' || k === 'cancelled' ? null : 0,
      ...(scoreStatus
        ? {
            score: {
              status: scoreStatus,
              axisScore: typeof k === 'number' ? k : scoreStatus === 'failed' ? 0 : null,
            },
          }
        : {}),
    };
  });
}

describe('run states and reliability', () => {
  it('classifies each run once', () => {
    expect(runState({ status: 'completed', scoreStatus: 'scored' })).toBe('completed');
    expect(runState({ status: 'completed' })).toBe('completed'); // --no-score
    expect(runState({ status: 'completed', scoreStatus: 'unscored' })).toBe('unscored');
    expect(runState({ status: 'failed', scoreStatus: 'failed' })).toBe('crashed');
    expect(runState({ status: 'timeout' })).toBe('crashed');
    expect(runState({ status: 'limit_exceeded' })).toBe('crashed');
    expect(runState({ status: 'cancelled' })).toBe('cancelled');
  });

  it('runs 5: 3 scored, 1 unscored, 1 crashed → 0.75, not 0.8', () => {
    const r = reliability(runs(80, 90, 'unscored', 'crash', 85));
    expect(r).toEqual({
      runs: 5,
      completed: 3,
      crashed: 1,
      unscored: 1,
      cancelled: 0,
      counted: 4,
      value: 0.75,
    });
    expect(reliabilityText(r)).toBe('reliability 75% (3/4 runs completed; 1 unscored not counted)');
  });

  it('runs 5: 4 scored, 1 crashed → 0.8', () => {
    expect(reliability(runs(80, 'crash', 85, 90, 70)).value).toBe(0.8);
  });

  it('runs 3: one crash, one unscored → 0.5; two unscored → 1; all unscored → null', () => {
    expect(reliability(runs(80, 'crash', 'unscored')).value).toBe(0.5);
    expect(reliability(runs(80, 'unscored', 'unscored')).value).toBe(1);
    const none = reliability(runs('unscored', 'unscored', 'unscored'));
    expect(none.value).toBeNull();
    expect(reliabilityText(none)).toBe('reliability – (no run counted; 3 unscored not counted)');
  });

  it('cancelled runs are their own state: not failed, not counted against reliability', () => {
    const r = reliability(runs(80, 'cancelled', 'cancelled'));
    expect(r).toMatchObject({ completed: 1, crashed: 0, cancelled: 2, counted: 1, value: 1 });
    expect(reliabilityText(r)).toBe('reliability 100% (1/1 runs completed; 2 cancelled not counted)');
    expect(pairStatus(runs('cancelled', 'cancelled', 'cancelled'))).toBe('cancelled');
    expect(reliability(runs('cancelled')).value).toBeNull();
  });

  it('a pair fails only when no run completes', () => {
    expect(pairStatus(runs(100, 'crash', 'crash', 'crash', 'crash'))).toBe('completed');
    expect(pairStatus(runs('unscored', 'crash', 'crash'))).toBe('completed');
    expect(pairStatus(runs('crash', 'timeout', 'crash'))).toBe('failed');
    expect(pairStatus(runs('timeout', 'crash', 'crash'))).toBe('timeout');
    // A crash among cancelled runs is still a failure: something did fail.
    expect(pairStatus(runs('cancelled', 'crash', 'cancelled'))).toBe('failed');
    expect(pairStatus(runs('crash'))).toBe('failed');
  });
});

describe('representative run', () => {
  it('runs 3: 100, crash, 33 → the tie between 100 and 33 goes to the lower composite', () => {
    const r = runs(100, 'crash', 33);
    expect(representative(r).run).toBe(3);
    expect(spread(r)).toMatchObject({ scored: 2, failed: 1, median: 66.5, reliability: 0.667 });
  });

  it('runs 5: a crash or an unscored run leaves an even count; the lower of the middle two wins', () => {
    // 4 scored: 60, 70, 80, 90 → median 75; 70 (run 3) and 80 (run 5) tie → 70
    expect(representative(runs(90, 'crash', 70, 60, 80)).run).toBe(3);
    // 4 scored: 60, 70, 80, 90 → median 75; 70 and 80 tie → 70 (run 3)
    expect(representative(runs(90, 'unscored', 70, 60, 80)).run).toBe(3);
  });

  it('odd scored counts take the median run; equal composites go to the earlier run', () => {
    expect(representative(runs(80, 95, 86)).run).toBe(3);
    expect(representative(runs(80, 80, 90)).run).toBe(1);
    expect(representative(runs(70, 'crash', 70, 'crash', 'crash')).run).toBe(1);
  });

  it('without a scored run: the first completed run, else the first', () => {
    expect(representative(runs('crash', 'unscored', 'crash')).run).toBe(2);
    expect(representative(runs('crash', 'cancelled')).run).toBe(1);
  });

  it('spread counts crashed, unscored and cancelled runs apart', () => {
    expect(spread(runs(80, 'cancelled', 'unscored', 'crash', 90))).toEqual({
      runs: 5,
      scored: 2,
      unscored: 1,
      failed: 1,
      cancelled: 1,
      median: 85,
      min: 80,
      max: 90,
      sigma: 7.1,
      reliability: 0.667,
    });
  });
});

describe('texts shared by the terminal, `axis reports` and report.html', () => {
  it('pairRunsText', () => {
    const r = runs(80, 'crash', 90, 'unscored', 70);
    expect(pairRunsText({ runs: r, representativeRun: 1, spread: spread(r) })).toBe(
      '5 runs (3 scored): median 80, range 70–90, σ 10 · reliability 75% (3/4 runs completed; 1 unscored not counted) · representative run 1',
    );
  });

  it('a reliability short of every run never reads 100% or 1: the summary of a big suite with one crash', () => {
    // 200 pairs × 1 run, one crashed: 199/200 = 0.995, which rounds to 100% and 0.9995 to 1.000.
    const big = reliability([...runs(...Array<number>(199).fill(90)), ...runs('crash')]);
    expect(big.value).toBeLessThan(1);
    expect(reliabilityText(big)).toBe('reliability 99% (199/200 runs completed)');
    const bigger = reliability([...runs(...Array<number>(1999).fill(90)), ...runs('crash')]);
    expect(bigger.value).toBe(0.999);
    expect(reliabilityText(bigger)).toBe('reliability 99% (1999/2000 runs completed)');
    // The summary read back from report.json says the same.
    const s = summarizeScores([], [...runs(...Array<number>(199).fill(90)), ...runs('crash')]);
    expect(reliabilityText(reliabilityOfSummary(s))).toBe('reliability 99% (199/200 runs completed)');
    // Every run completed: 100%; one in three: 33%, as before.
    expect(reliabilityText(reliability(runs(90, 90)))).toBe('reliability 100% (2/2 runs completed)');
    expect(reliabilityPercent(0.995)).toBe('99%');
    expect(reliabilityPercent(1)).toBe('100%');
  });

  it('a reliability is rounded down to a whole percent, never up: 2/3 reads 66%', () => {
    expect(reliabilityText(reliability(runs(90, 90, 'crash')))).toBe('reliability 66% (2/3 runs completed)');
    expect(reliabilityPercent(2 / 3)).toBe('66%');
    expect(reliabilityPercent(0.667)).toBe('66%'); // as report.json stores 2/3
    expect(reliabilityPercent(0.999)).toBe('99%');
    expect(reliabilityPercent(0)).toBe('0%');
    // Shares whose binary value lies just under a whole percent are not pushed one lower.
    for (let k = 0; k <= 100; k++) expect(reliabilityPercent(k / 100)).toBe(`${k}%`);
    expect(reliabilityPercent(0.29)).toBe('29%');
    expect(reliabilityPercent(0.57)).toBe('57%');
  });

  it('two reliabilities compared never print the same: more places only when needed', () => {
    expect(reliabilityPair(2 / 3, 1)).toEqual(['66%', '100%']);
    expect(reliabilityPair(0.665, 0.668)).toEqual(['66.5%', '66.8%']);
    expect(reliabilityPair(0.6651, 0.6652)).toEqual(['66.51%', '66.52%']);
    expect(reliabilityPair(0.999, 0.9995)).toEqual(['99.90%', '99.95%']);
    expect(reliabilityPair(0.9995, 1)).toEqual(['99%', '100%']);
  });

  it('pairCountsText', () => {
    expect(pairCountsText({ total: 1, completed: 1, failed: 0, runsTotal: 1, runsFailed: 0 })).toBe(
      '1 pair: 1 completed, 0 failed',
    );
    expect(
      pairCountsText({
        total: 3,
        completed: 1,
        failed: 1,
        cancelled: 1,
        runsTotal: 9,
        runsFailed: 4,
        runsCancelled: 3,
        skipped: 2,
      }),
    ).toBe('3 pairs: 1 completed, 1 failed, 1 cancelled, 2 skipped (9 runs, 4 failed, 3 cancelled)');
  });
});
