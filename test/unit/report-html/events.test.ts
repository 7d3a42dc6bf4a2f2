import { describe, expect, it } from 'vitest';
import { cutLevel, mapEvents, shorten, shortenRedacted } from '../../../src/report/html/events.js';
import { redact } from '../../../src/scoring/index.js';
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

  it('keeps an input of up to 100 characters of JSON on one line, whatever its keys and values', () => {
    const shown = (input: unknown) =>
      mapEvents([{ kind: 'tool_call', id: 'c', name: 'T', input }], undefined, LIMITS)[0]!.input;
    // {"command":"…"}: 14 characters around the value.
    const exactly = { command: 'x'.repeat(86) };
    expect(JSON.stringify(exactly)).toHaveLength(100);
    expect(shown(exactly)).toBe(JSON.stringify(exactly));
    const over = { command: 'x'.repeat(87) };
    expect(shown(over)).toBe(JSON.stringify(over, null, 2));
    // Keys JSON leaves out (undefined values) and values with toJSON are measured as JSON has them.
    const leftOut = { ['k'.repeat(150)]: undefined, a: 1 };
    expect(shown(leftOut)).toBe('{"a":1}');
    const withToJson = { when: { toJSON: () => 'd', ['long'.repeat(40)]: 'x'.repeat(200) } };
    expect(shown(withToJson)).toBe('{"when":"d"}');
    // Escapes count: 60 newlines are 120 characters of JSON.
    const escaped = ['\n'.repeat(60)];
    expect(shown(escaped)).toBe(JSON.stringify(escaped, null, 2));
    const nested = [[['y'.repeat(30)], { b: 'z'.repeat(80) }]];
    expect(shown(nested)).toBe(JSON.stringify(nested, null, 2));
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

describe('shortenRedacted', () => {
  /** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
  const rng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = ['alpha', 'beta', 'gamma', 'delta\n', 'x', '  ', 'lorem', 'ipsum\n\n', '{"k": 1}', 'é'];
  const prose = (r: () => number, n: number) => {
    let out = '';
    while (out.length < n) out += `${words[Math.floor(r() * words.length)]} `;
    return out.slice(0, n);
  };
  const token = (r: () => number, n: number) =>
    Array.from(
      { length: n },
      () => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789'[Math.floor(r() * 46)],
    ).join('');

  it('is shorten(redact(text)) for texts without credentials', () => {
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      const s = prose(r, 500 + Math.floor(r() * 20_000));
      const keep = 50 + Math.floor(r() * 600);
      expect(shortenRedacted(s, keep)).toEqual(shorten(redact(s), keep));
    }
  });

  it('masks a credential across either cut, however long, as redacting the whole text does', () => {
    const r = rng(11);
    const shapes = [
      (t: string) => `Authorization: Bearer ${t}`,
      (t: string) => `sk-${t}`,
      (t: string) => `ghp_${t}`,
      (t: string) => `"api_key": "${t}"`,
      (t: string) => `AKIA${t.toUpperCase()}`,
    ];
    for (let i = 0; i < 300; i++) {
      const keep = 100 + Math.floor(r() * 400);
      const value = token(r, 12 + Math.floor(r() * 3_000));
      const secret = shapes[i % shapes.length]!(value);
      const length = 5_000 + Math.floor(r() * 5_000);
      // The secret starts anywhere: before, across or after the head's cut, or across the tail's start.
      const at = Math.floor(r() * (length - 10));
      const s = `${prose(r, at)}${secret}${prose(r, length)}`.slice(0, Math.max(length, at + secret.length));
      const out = shortenRedacted(s, keep).text;
      const whole = shorten(redact(s), keep).text;
      // No 8 characters of the value are shown that the whole-text redaction would not show.
      for (let k = 0; k + 8 <= value.length; k += 4) {
        const piece = (secret.startsWith('AKIA') ? value.toUpperCase() : value).slice(k, k + 8);
        if (out.includes(piece)) expect(whole).toContain(piece);
      }
    }
  });

  it('masks a key whose first characters end the kept head, as redacting the whole text does', () => {
    // keep 100: the head is 70 characters; "sk-" at 64-66 leaves three of the key's characters in it.
    const s = `${'a '.repeat(32)}sk-XYZ${'k'.repeat(40)} ${'b '.repeat(3_000)}`;
    const out = shortenRedacted(s, 100).text;
    expect(out.startsWith(`${'a '.repeat(32)}[redac`)).toBe(true);
    expect(out).not.toContain('XYZ');
  });

  it('counts the characters of the text as the agent printed it', () => {
    const s = `${'a'.repeat(3_000)}${'b'.repeat(3_000)}`;
    const short = shortenRedacted(s, 100);
    expect(short.cut).toBe(6_000 - 70 - 30);
    expect(short.text.startsWith('a'.repeat(70))).toBe(true);
    expect(short.text.endsWith('b'.repeat(30))).toBe(true);
  });

  it('scans back over a text that is one long run of token characters without losing the tail', () => {
    const s = `sk-${'q'.repeat(100_000)}`;
    const out = shortenRedacted(s, 200);
    expect(out.text).not.toContain('q'.repeat(8));
    expect(out.text).toContain('[redacted]');
  });
});
