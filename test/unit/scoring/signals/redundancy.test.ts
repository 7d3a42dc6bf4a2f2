import { describe, expect, it } from 'vitest';
import { identicalRepeats, necessityBound } from '../../../../src/scoring/signals/repeated-call.js';
import { call, classified, result, text } from '../helpers.js';

describe('deterministic redundancy', () => {
  it('counts identical calls (same tool, input and result) beyond the first, whatever came in between', () => {
    const events = [];
    for (let i = 0; i < 20; i++)
      events.push(call(`l${i}`, 'Bash', { command: 'ls' }), result(`l${i}`, 'a.txt', { exitCode: 0 }));
    for (let i = 0; i < 20; i++)
      events.push(call(`r${i}`, 'Read', { file_path: 'a.txt' }), result(`r${i}`, 'hello'));
    events.push(text('Done.'));
    const list = classified(events);
    const repeats = identicalRepeats(list);
    expect(repeats).toHaveLength(38);
    expect(repeats[0]).toEqual({ id: 2, firstId: 1 });
    expect(repeats.at(-1)).toEqual({ id: 40, firstId: 21 });
    const bound = necessityBound(list)!;
    expect(bound.bound).toBeCloseTo(3 / 41, 12);
    expect(bound.rationale).toBe(
      '38 of 41 interactions repeat an earlier call exactly (#1 repeated 19 times with the same result; #21 repeated 19 times with the same result): at most 3/41 were needed',
    );
  });

  it('does not count a call whose result changed, a write, or a call without a result', () => {
    const list = classified([
      call('a', 'Bash', { command: 'npm test' }),
      result('a', '1 failing', { exitCode: 1 }),
      call('b', 'Edit', { file_path: 'x' }),
      result('b', 'ok'),
      call('c', 'Bash', { command: 'npm test' }),
      result('c', 'all passing', { exitCode: 0 }),
      call('d', 'Edit', { file_path: 'x' }),
      result('d', 'ok'),
      call('e', 'Bash', { command: 'sleep 9' }),
      call('f', 'Bash', { command: 'sleep 9' }),
    ]);
    expect(identicalRepeats(list)).toEqual([]);
    expect(necessityBound(list)).toBeNull();
  });
});
