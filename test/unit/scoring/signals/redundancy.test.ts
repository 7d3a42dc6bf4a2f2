import { describe, expect, it } from 'vitest';
import { identicalRepeats, necessityBound } from '../../../../src/scoring/signals/repeated-call.js';
import type { TranscriptEvent } from '../../../../src/transcript/model.js';
import type { ClassifiedInteraction } from '../../../../src/scoring/types.js';
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

  it('finds what the plain definition finds on generated runs (outcomes, extra outputs, near-equal results)', () => {
    // Small alphabets, so calls repeat and results collide on length, head and tail.
    const long = 'x'.repeat(60);
    const mid = (c: string) => `${'y'.repeat(50)}${c}${'y'.repeat(50)}`; // one length, head and tail
    const outputs = ['ok', 'a.txt', `${long}1`, `${long}2`, `1${long}`, `${long}`, '', mid('a'), mid('b')];
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return list[seed % list.length]!;
    };
    for (let run = 0; run < 200; run++) {
      const events: TranscriptEvent[] = [];
      for (let i = 0; i < 30; i++) {
        const id = `c${i}`;
        events.push(
          call(id, pick(['Bash', 'bash', 'Read', 'Write']), pick([{ command: 'ls' }, { file_path: 'a' }])),
        );
        if (pick([true, true, true, false]))
          events.push(result(id, pick(outputs), { isError: pick([false, true]) }));
        if (pick([false, false, true])) events.push(result(id, pick(outputs)));
      }
      const list = classified(events);
      expect(identicalRepeats(list)).toEqual(plainRepeats(list));
    }
  });
});

/** Each eligible call's earliest earlier eligible call with the same tool, input, outcome and result. */
function plainRepeats(list: readonly ClassifiedInteraction[]): Array<{ id: number; firstId: number }> {
  const eligible = list.filter(
    (ix) =>
      ix.type === 'tool' &&
      ix.tool &&
      ix.tool.name !== '' &&
      ix.toolKind !== 'write' &&
      ix.outcome !== 'no_result',
  );
  const same = (a: ClassifiedInteraction, b: ClassifiedInteraction) =>
    a.tool!.name.toLowerCase() === b.tool!.name.toLowerCase() &&
    JSON.stringify(a.tool!.input) === JSON.stringify(b.tool!.input) &&
    a.outcome === b.outcome &&
    [a.tool!.output ?? '', ...(a.tool!.extraOutputs ?? [])].join('\u0000') ===
      [b.tool!.output ?? '', ...(b.tool!.extraOutputs ?? [])].join('\u0000');
  const out: Array<{ id: number; firstId: number }> = [];
  eligible.forEach((ix, k) => {
    const first = eligible.slice(0, k).find((f) => same(f, ix));
    if (first) out.push({ id: ix.id, firstId: first.id });
  });
  return out;
}
