import { describe, expect, it } from 'vitest';
import { createAxisNdjsonParser } from '../../../src/transcript/axis-ndjson.js';
import { parse, synthetic } from './helpers.js';

describe('AXIS NDJSON for custom command agents', () => {
  it('the documented example', () => {
    const p = parse('ndjson', synthetic('axis-ndjson-example.ndjson'), 42);
    expect(p.events).toEqual([
      { kind: 'text', text: "I'll check the API first.", ts: 1796000000000, tsSource: 'agent' },
      {
        kind: 'thinking',
        text: 'The health endpoint is cheapest.',
        ts: Date.parse('2026-11-30T10:00:00.100Z'),
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id: 'c1',
        name: 'http_get',
        input: { url: 'https://api.example.com/health' },
        ts: 1796000000200,
        tsSource: 'agent',
      },
      {
        kind: 'tool_result',
        callId: 'c1',
        output: '{"ok":true}',
        isError: false,
        httpStatus: 200,
        ts: 1796000000450,
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id: 'c2',
        name: 'shell',
        input: { command: 'npm test' },
        ts: 42,
        tsSource: 'received',
      },
      {
        kind: 'tool_result',
        callId: 'c2',
        output: '1 failing',
        isError: true,
        exitCode: 1,
        ts: 42,
        tsSource: 'received',
      },
      { kind: 'text', text: 'progress: 2 of 2 checks done', ts: 42, tsSource: 'received' },
    ]);
    expect(p.result).toBe('The API is healthy; one test fails.');
    expect(p.usage).toEqual({ input: 1600, output: 120, cacheReadInput: 300 });
    expect(p.costUsd).toBe(0.002);
    expect(p.error).toBeUndefined();
  });

  it('without a result line the text after the last tool call is the answer; plain lines in a row merge', () => {
    const p = parse(
      'ndjson',
      [
        '{"type":"tool_call","name":"ls"}',
        '{"type":"tool_result","output":"a b"}',
        'Found two files:',
        'a and b.',
      ].join('\n'),
    );
    expect(p.events.map((e) => e.kind)).toEqual(['tool_call', 'tool_result', 'text']);
    // tool_result without an id answers the open call; ids are generated when missing.
    expect(p.events[0]).toMatchObject({ id: 'call-1' });
    expect(p.events[1]).toMatchObject({ callId: 'call-1', isError: false });
    expect(p.result).toBe('Found two files:\na and b.');
  });

  it('error events set the run error; an explicit class wins over classification', () => {
    const p = parse(
      'ndjson',
      [
        '{"type":"error","message":"HTTP 503 from upstream","http_status":503}',
        '{"type":"error","message":"quota gone","class":"quota"}',
      ].join('\n'),
    );
    expect(p.events).toEqual([
      { kind: 'error', message: 'HTTP 503 from upstream', errorClass: 'api_error', httpStatus: 503 },
      { kind: 'error', message: 'quota gone', errorClass: 'quota' },
    ]);
    expect(p.error).toEqual({ class: 'quota', message: 'quota gone' });
  });

  it('bad events are kept as unparsed with the reason; seconds timestamps are accepted', () => {
    const p = parse(
      'ndjson',
      [
        '{"type":"tool_call","input":{}}',
        '{"type":"nope"}',
        '{"text":"x"}',
        '{"type":"text","text":"late","ts":1796000000}',
        '{broken',
      ].join('\n'),
    );
    expect(p.events.map((e) => (e.kind === 'system' ? e.data?.reason : e.kind))).toEqual([
      'tool_call needs a string "name"',
      'unknown event type "nope"',
      'missing "type"',
      'text',
      'invalid JSON',
    ]);
    expect(p.events[3]).toMatchObject({ ts: 1796000000000, tsSource: 'agent' });
  });

  it('usage lines add up and live usage follows them', () => {
    const parser = createAxisNdjsonParser();
    parser.push('{"type":"usage","input":10,"output":2}');
    expect(parser.usage()).toEqual({ input: 10, output: 2, cacheReadInput: 0 });
    parser.push('{"type":"usage","input":5,"output":1,"cache_read":7,"cache_write":3}');
    // cache_write is added to input: AXIS input includes the tokens written to a cache.
    expect(parser.usage()).toEqual({ input: 18, output: 3, cacheReadInput: 7, cacheWriteInput: 3 });
  });
});

describe('absurd usage figures', () => {
  it('add up to at most Number.MAX_SAFE_INTEGER, never Infinity (which a report stores as null)', () => {
    const parser = createAxisNdjsonParser();
    const huge =
      '{"type":"usage","input":1e308,"output":1e308,"cache_read":1e308,"cache_write":1e308,"cost_usd":1e308}';
    parser.push(huge);
    parser.push(huge);
    const out = parser.finish();
    const max = Number.MAX_SAFE_INTEGER;
    expect(out.usage).toEqual({ input: max, output: max, cacheReadInput: max, cacheWriteInput: max });
    expect(parser.usage()).toEqual(out.usage);
    expect(out.costUsd).toBe(max);
    expect(JSON.parse(JSON.stringify(out))).toMatchObject({ usage: out.usage, costUsd: max });
  });
});

describe('text mode', () => {
  it('all stdout is the answer', () => {
    const p = parse('text', 'hello\n\nworld\n', 3);
    expect(p.events).toEqual([{ kind: 'text', text: 'hello\n\nworld', ts: 3, tsSource: 'received' }]);
    expect(p.result).toBe('hello\n\nworld');
    expect(p.usage).toEqual({ input: 0, output: 0, cacheReadInput: 0 });
  });

  it('empty output → no answer', () => {
    const p = parse('text', '  \n');
    expect(p.events).toEqual([]);
    expect(p.result).toBeNull();
  });
});

describe('costs a report can store', () => {
  // A negative or unbounded cost made report.json unreadable (`costUsd: expected a finite number ≥ 0`).
  it('takes no negative cost, and never sums one past MAX_SAFE_INTEGER, in any parser', () => {
    const claude = (c: number) =>
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'ok',
        total_cost_usd: c,
      });
    const opencode = (c: number) =>
      JSON.stringify({
        type: 'step_finish',
        timestamp: 1,
        part: { type: 'step-finish', reason: 'stop', cost: c, tokens: {} },
      });
    const cases: Array<[string, string]> = [
      ['ndjson', '{"type":"usage","cost_usd":0.5}\n{"type":"usage","cost_usd":-5}'],
      ['claude', claude(-5)],
      ['opencode', [opencode(1e308), opencode(1e308), opencode(-5)].join('\n')],
    ];
    for (const [format, text] of cases) {
      const c = parse(format, text).costUsd;
      if (c !== undefined) {
        expect(c, format).toBeGreaterThanOrEqual(0);
        expect(c, format).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
      }
    }
    expect(parse('ndjson', cases[0]![1]).costUsd).toBe(0.5);
  });
});

describe('codes a report can store', () => {
  // A fractional exit code or HTTP status was kept; the per-run file's schema (an integer) then refused
  // the run file AXIS wrote itself, in `axis reports merge`.
  it('takes exit codes and HTTP statuses only when they are integers', () => {
    const p = parse(
      'ndjson',
      [
        '{"type":"tool_call","id":"c1","name":"shell","input":{}}',
        '{"type":"tool_result","id":"c1","output":"","exit_code":0.5,"http_status":200.5}',
        '{"type":"error","message":"boom","http_status":429.5}',
      ].join('\n'),
    );
    const codes = p.events.flatMap((e) =>
      e.kind === 'tool_result' ? [e.exitCode, e.httpStatus] : e.kind === 'error' ? [e.httpStatus] : [],
    );
    expect(codes).toEqual([undefined, undefined, undefined]);
    expect(p.error?.httpStatus).toBeUndefined();
  });
});
