import { describe, expect, it } from 'vitest';
import { clip, HistoryBuilder } from '../../../src/sim/codecs/common.js';

/** The definition: whitespace runs collapsed, trimmed, cut to n characters with an ellipsis. */
function reference(s: string, n = 100): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

describe('clip', () => {
  it('equals the whole-text definition on texts of every shape, long ones included', () => {
    let x = 7;
    const rand = (k: number) => {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      return x % k;
    };
    const pieces = ['a', 'word', ' ', '  ', '\n', '\t \n', ' '.repeat(150), 'é', '\u00a0', 'x'.repeat(90)];
    for (let i = 0; i < 3_000; i++) {
      let s = '';
      const parts = rand(120);
      for (let j = 0; j < parts; j++) s += pieces[rand(pieces.length)];
      for (const n of [1, 5, 60, 100]) expect(clip(s, n)).toBe(reference(s, n));
    }
    const edge = `${'b'.repeat(100)} ${' '.repeat(400)}`;
    expect(clip(edge)).toBe(reference(edge));
    const exact = `${' '.repeat(10)}${'c'.repeat(101)}${' '.repeat(400)}`;
    expect(clip(exact)).toBe(reference(exact));
  });

  it('summarizes a request by its last entry, whatever came before', () => {
    const h = new HistoryBuilder();
    expect(h.summary).toBe('');
    h.user(`do it ${'now '.repeat(100)}`);
    h.model('', [{ id: 'c1', name: 'Bash', args: {} }]);
    expect(h.summary).toBe('assistant: Bash');
    h.result({ callId: 'c1', output: 'line one\n\nline two', isError: true });
    expect(h.summary).toBe('tool_result c1 (error): line one line two');
    h.user('');
    expect(h.summary).toBe('tool_result c1 (error): line one line two');
    h.user('next\tstep');
    expect(h.summary).toBe('user: next step');
  });
});
