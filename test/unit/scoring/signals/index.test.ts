import { describe, expect, it } from 'vitest';
import { SIGNALS, evaluateSignals, poolsOf } from '../../../../src/scoring/signals/index.js';
import { call, classified, result, text } from '../helpers.js';

describe('signal registry', () => {
  it('has one module per signal with unique kebab-case ids and user-facing text', () => {
    const ids = SIGNALS.map((s) => s.meta.id);
    expect(ids).toEqual(['tool-success', 'speed', 'repeated-call']);
    for (const s of SIGNALS) {
      expect(s.meta.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(s.meta.title.length).toBeGreaterThan(0);
      expect(s.meta.failureTitle.length).toBeGreaterThan(0);
      expect(s.meta.description.length).toBeGreaterThan(20);
    }
  });

  it('puts every interaction in the agent pool as well as its own categories', () => {
    expect(poolsOf({ categories: ['environment', 'service'] })).toEqual(['environment', 'service', 'agent']);
    expect(poolsOf({ categories: ['agent'] })).toEqual(['agent']);
  });
});

describe('evaluateSignals', () => {
  const list = classified([
    text('plan', 0),
    call('a', 'Bash', { command: 'ls' }, 100),
    result('a', 'x', { at: 300, exitCode: 0 }),
    call('b', 'run_shell_command', { command: 'make' }, 400),
    result('b', 'done', { at: 900 }),
  ]);
  const report = evaluateSignals(list);

  it('turns signal values into audits for each dimension pool', () => {
    const forBash = report.audits.filter((a) => a.interactionId === 2);
    expect(forBash).toEqual([
      {
        interactionId: 2,
        category: 'environment',
        success: 1,
        rationale: 'exit code 0',
        source: 'signal',
        unambiguous: true,
      },
      expect.objectContaining({
        interactionId: 2,
        category: 'environment',
        speed: 1,
        source: 'signal',
        unambiguous: true,
      }),
      {
        interactionId: 2,
        category: 'agent',
        success: 1,
        rationale: 'exit code 0',
        source: 'signal',
        unambiguous: true,
      },
      expect.objectContaining({ interactionId: 2, category: 'agent', speed: 1 }),
    ]);
    // reasoning has no measured duration (nothing before it) and no deterministic success
    expect(report.audits.filter((a) => a.interactionId === 1)).toEqual([]);
  });

  it('asks a judge only about what the signals left open', () => {
    expect(report.needsJudgement).toEqual([
      { interactionId: 1, category: 'agent', fields: ['success', 'weight', 'relevance'], hints: [] },
      { interactionId: 2, category: 'agent', fields: ['weight', 'relevance'], hints: [] },
      {
        interactionId: 3,
        category: 'environment',
        fields: ['success'],
        hints: ['success: no error reported, but no exit code either: the output may show a failure'],
      },
      {
        interactionId: 3,
        category: 'agent',
        fields: ['success', 'weight', 'relevance'],
        hints: ['success: no error reported, but no exit code either: the output may show a failure'],
      },
    ]);
  });

  it('returns every signal with its metadata', () => {
    expect(report.results.map((r) => [r.meta.id, r.values.length])).toEqual([
      ['tool-success', 2],
      ['speed', 3],
      ['repeated-call', 0],
    ]);
    expect(report.patterns).toEqual([]);
  });
});
