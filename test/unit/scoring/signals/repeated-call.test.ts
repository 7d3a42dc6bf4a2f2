import { describe, expect, it } from 'vitest';
import { repeatedCall } from '../../../../src/scoring/signals/repeated-call.js';
import { call, classified, result, text } from '../helpers.js';

describe('repeated-call', () => {
  it('reports a failed call retried unchanged', () => {
    const list = classified([
      call('a', 'Bash', { command: 'npm run build' }),
      result('a', 'error', { exitCode: 1 }),
      text('let me retry'),
      call('b', 'Bash', { command: 'npm run build' }),
      result('b', 'error', { exitCode: 1 }),
    ]);
    const out = repeatedCall.evaluate(list);
    expect(out.values).toEqual([]);
    expect(out.patterns).toEqual([
      {
        kind: 'retry',
        description: 'Bash(command: npm run build) failed and was retried unchanged once, still failing',
        interactionIds: [1, 3],
        severity: 'high',
        source: 'signal',
      },
    ]);
  });

  it('reports a read repeated with nothing in between that could change it', () => {
    const list = classified([
      call('a', 'Read', { file_path: 'a.ts' }),
      result('a', 'x'),
      call('b', 'Grep', { pattern: 'y' }),
      result('b', 'z'),
      call('c', 'Read', { file_path: 'a.ts' }),
      result('c', 'x'),
      call('d', 'Read', { file_path: 'a.ts' }),
      result('d', 'x'),
    ]);
    expect(repeatedCall.evaluate(list).patterns).toEqual([
      expect.objectContaining({ kind: 'redundancy', interactionIds: [1, 3, 4], severity: 'medium' }),
    ]);
  });

  it('does not flag a repeat after something changed the state (re-running tests after an edit)', () => {
    const list = classified([
      call('a', 'Bash', { command: 'npm test' }),
      result('a', 'ok', { exitCode: 0 }),
      call('b', 'Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }),
      result('b', 'ok'),
      call('c', 'Bash', { command: 'npm test' }),
      result('c', 'ok', { exitCode: 0 }),
    ]);
    expect(repeatedCall.evaluate(list).patterns).toEqual([]);
  });

  it('treats different inputs as different calls', () => {
    const list = classified([
      call('a', 'Read', { file_path: 'a' }),
      result('a', ''),
      call('b', 'Read', { file_path: 'b' }),
      result('b', ''),
    ]);
    expect(repeatedCall.evaluate(list).patterns).toEqual([]);
  });
});
