import { describe, expect, it } from 'vitest';
import {
  costAmountText,
  costGapText,
  costTotal,
  costTotalText,
  judgeCostText,
} from '../../../src/report/cost-total.js';

describe('costTotal', () => {
  it('every run with a cost: the plain sum', () => {
    const t = costTotal([{ costUsd: 0.25 }, { costUsd: 0.5 }, { costUsd: 0 }]);
    expect(t).toEqual({ usd: 0.75, runs: 3, withoutCost: 0, simulated: false });
    expect(costTotalText(t)).toBe('$0.7500');
    expect(costGapText(t)).toBe('');
  });

  it('some runs without a cost: a lower bound that says how many it leaves out', () => {
    const t = costTotal([
      { costUsd: 1.23 },
      {},
      { costUsd: null },
      { costUsd: 0.5 },
      { costUsd: Number.NaN },
    ]);
    expect(t).toEqual({ usd: 1.73, runs: 5, withoutCost: 3, simulated: false });
    expect(costAmountText(t)).toBe('≥ $1.7300');
    expect(costGapText(t)).toBe('3 of 5 runs without a cost');
    expect(costTotalText(t)).toBe('≥ $1.7300 (3 of 5 runs without a cost)');
  });

  it('no run with a cost: a dash, not $0', () => {
    const t = costTotal([{}, { costUsd: null }]);
    expect(t).toEqual({ usd: null, runs: 2, withoutCost: 2, simulated: false });
    expect(costTotalText(t)).toBe('—');
    expect(costTotalText(costTotal([]))).toBe('—');
  });

  it('simulated runs have no cost to miss: "simulated" when all are', () => {
    const t = costTotal([{ simulated: true }, { simulated: true, costUsd: null }]);
    expect(t).toEqual({ usd: null, runs: 2, withoutCost: 0, simulated: true });
    expect(costTotalText(t)).toBe('simulated');
    const mixed = costTotal([{ simulated: true }, { costUsd: 0.1 }]);
    expect(costTotalText(mixed)).toBe('$0.1000');
  });
});

describe('judgeCostText', () => {
  it('the judges cost in the same words: partial when some judged runs have none', () => {
    expect(judgeCostText({ runs: 3, costUsd: 0.03 })).toBe('$0.0300');
    expect(judgeCostText({ runs: 3, costUsd: 0.03, runsWithoutCost: 0 })).toBe('$0.0300');
    expect(judgeCostText({ runs: 3, costUsd: 0.03, runsWithoutCost: 2 })).toBe(
      '≥ $0.0300 (2 of 3 runs without a cost)',
    );
  });

  it('no judged run with a cost (a simulator judge, an agent judge that reports none): nothing', () => {
    expect(judgeCostText({ runs: 3 })).toBe('');
    expect(judgeCostText({ runs: 3, runsWithoutCost: 3 })).toBe('');
  });

  it('a run answered from the cache asked nothing billed: not a run without a cost', () => {
    const t = costTotal([{ costUsd: 0.01 }, { free: true }]);
    expect(t).toEqual({ usd: 0.01, runs: 2, withoutCost: 0, simulated: false });
  });
});
