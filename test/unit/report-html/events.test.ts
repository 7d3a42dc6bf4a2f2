import { describe, expect, it } from 'vitest';
import { cutLevel, mapEvents, shorten } from '../../../src/report/html/events.js';
import type { TranscriptEvent } from '../../../src/transcript/model.js';

const LIMITS = { runTextChars: 1_000, maxTextChars: 10_000, minTextChars: 50 };
const result = (output: string, i = 0): TranscriptEvent => ({
  kind: 'tool_result',
  callId: `c${i}`,
  output,
  isError: false,
});

describe('cutLevel', () => {
  it('is unlimited when everything fits', () => {
    expect(cutLevel([100, 200], 300)).toBe(Infinity);
    expect(cutLevel([], 0)).toBe(Infinity);
  });

  it('cuts only the longest texts, all to the same length', () => {
    // 100 and 200 stay whole; the two long ones share the remaining 700.
    expect(cutLevel([100, 200, 5_000, 900], 1_000)).toBe(350);
    expect(cutLevel([400, 400, 400], 900)).toBe(300);
    expect(cutLevel([10, 10], 0)).toBe(0);
  });
});

describe('mapEvents', () => {
  it('keeps short outputs whole and shortens the long one to fit the run budget', () => {
    const events = [result('short', 0), result('x'.repeat(5_000), 1), result('y'.repeat(200), 2)];
    const out = mapEvents(events, undefined, LIMITS);
    expect(out[0]!.output).toBe('short');
    expect(out[2]!.output).toBe('y'.repeat(200));
    expect(out[1]!.truncated).toBe(5_000 - 795);
    expect(out[1]!.output).toMatch(/^x{557}\n… \[4,205 characters not shown/);
  });

  it('never shortens below the floor, however long the run', () => {
    const events = Array.from({ length: 100 }, (_, i) => result('z'.repeat(300), i));
    const out = mapEvents(events, undefined, { ...LIMITS, minTextChars: 120 });
    expect(out.every((e) => e.truncated === 180)).toBe(true);
  });

  it('maps every kind and measures time from the run start', () => {
    const t0 = 1_000_000;
    const events: TranscriptEvent[] = [
      { kind: 'user', text: 'go', ts: t0 + 5 },
      { kind: 'thinking', text: 'hmm', ts: t0 + 10 },
      { kind: 'tool_call', id: 'c1', name: 'Bash', input: { command: 'ls' }, ts: t0 + 20 },
      { kind: 'tool_result', callId: 'c1', output: 'a\n', isError: true, exitCode: 2, ts: t0 + 30 },
      { kind: 'error', message: 'boom', errorClass: 'rate_limit' },
      { kind: 'system', subtype: 'init', data: { model: 'm' } },
    ];
    expect(mapEvents(events, t0, LIMITS)).toEqual([
      { kind: 'user', t: 5, text: 'go' },
      { kind: 'thinking', t: 10, text: 'hmm' },
      { kind: 'tool_call', t: 20, name: 'Bash', callId: 'c1', input: '{"command":"ls"}' },
      { kind: 'tool_result', t: 30, callId: 'c1', output: 'a\n', isError: true, exitCode: 2 },
      { kind: 'error', text: '[rate_limit] boom' },
      { kind: 'system', text: 'init {"model":"m"}' },
    ]);
  });

  it('pretty-prints long tool inputs', () => {
    const input = { file_path: 'src/a.ts', old_string: 'x'.repeat(80), new_string: 'y' };
    expect(
      mapEvents([{ kind: 'tool_call', id: 'c', name: 'Edit', input }], undefined, LIMITS)[0]!.input,
    ).toBe(JSON.stringify(input, null, 2));
  });
});

describe('shorten', () => {
  it('keeps 70% head and 30% tail around a marker', () => {
    expect(shorten('abcdefghij', 4)).toEqual({
      text: "abc\n… [6 characters not shown: the full text is in the run's detail JSON] …\nj",
      cut: 6,
    });
  });

  it('cuts at line breaks near the limits', () => {
    const text = `${'a'.repeat(60)}\n${'b'.repeat(60)}\n${'c'.repeat(60)}\n${'d'.repeat(60)}`;
    const { text: out, cut } = shorten(text, 100);
    expect(out).toBe(
      `${'a'.repeat(60)}\n… [${text.length - 61 - 30} characters not shown: the full text is in the run's detail JSON] …\n${'d'.repeat(30)}`,
    );
    expect(cut).toBe(text.length - 91);
  });
});
