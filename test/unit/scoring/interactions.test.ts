import { describe, expect, it } from 'vitest';
import { groupInteractions, groupTranscript, jsonBytes } from '../../../src/scoring/interactions.js';
import type { TranscriptEvent } from '../../../src/transcript/model.js';
import { T0, call, error, result, text, thinking } from './helpers.js';

describe('groupInteractions', () => {
  it('joins consecutive text and thinking into one reasoning interaction', () => {
    const events = [thinking('plan first', 10), text('Listing files é', 20), text('now', 30)];
    const [ix, ...rest] = groupInteractions(events, { startedAt: T0 });
    expect(rest).toHaveLength(0);
    expect(ix).toMatchObject({
      id: 1,
      type: 'reasoning',
      entryIndices: [0, 1, 2],
      startMs: 10,
      outcome: 'ok',
    });
    // 'plan first' 10 B + 'Listing files é' 14 + 2 (é is two bytes) + 'now' 3
    expect(ix!.contextBytes).toBe(10 + 16 + 3);
    expect(ix!.summary).toBe('Listing files é');
    expect(ix!.thinkingOnly).toBe(false);
  });

  it('marks reasoning made only of thinking and summarises the thinking', () => {
    const [ix] = groupInteractions([thinking('', 0), thinking('hmm', 5)]);
    expect(ix!.thinkingOnly).toBe(true);
    expect(ix!.summary).toBe('hmm');
  });

  it('takes the first text with something in it as the summary: blank texts of any whitespace are skipped', () => {
    const blank = ' \n\t\u00a0\u2028\ufeff\u3000';
    const [ix] = groupInteractions([thinking(blank, 0), text(blank, 5), text(' real words ', 9)]);
    expect(ix!.summary).toBe(' real words ');
    expect(ix!.thinkingOnly).toBe(false);
    expect(ix!.entryIndices).toEqual([0, 1, 2]);
    const [only] = groupInteractions([thinking(blank, 0), thinking('x', 1)]);
    expect(only!.summary).toBe('x');
  });

  it('pairs a call with its result by id and measures call → result on the agent clock', () => {
    const events = [call('a', 'Bash', { command: 'ls' }, 100), result('a', 'a.txt\n', { at: 350 })];
    const [ix] = groupInteractions(events, { startedAt: T0 });
    expect(ix).toMatchObject({
      type: 'tool',
      entryIndices: [0, 1],
      startMs: 100,
      durationMs: 350 - 100,
      durationSource: 'agent',
      outcome: 'ok',
    });
    expect(ix!.tool).toMatchObject({ name: 'Bash', callId: 'a', output: 'a.txt\n', pairing: 'id' });
    // '{"command":"ls"}' is 16 bytes, 'a.txt\n' 6
    expect(ix!.contextBytes).toBe(16 + 6);
  });

  it('says when a duration comes from receipt times and leaves it unmeasured without both timestamps', () => {
    const received = groupInteractions([call('a', 'Read', {}, 0, 'received'), result('a', 'x', { at: 40 })]);
    expect(received[0]).toMatchObject({ durationMs: 40, durationSource: 'received' });
    const missing = groupInteractions([call('a', 'Read', {}, 0), result('a', 'x')]);
    expect(missing[0]).toMatchObject({ durationMs: null, durationSource: 'none' });
  });

  it('keeps parallel calls in call order and pairs results by id whatever their order', () => {
    const events = [
      call('a', 'Read', { p: 1 }, 0),
      call('b', 'Read', { p: 2 }, 1),
      result('b', 'B', { at: 5 }),
      result('a', 'A', { at: 9 }),
    ];
    const list = groupInteractions(events);
    expect(list.map((ix) => [ix.id, ix.tool!.output, ix.entryIndices])).toEqual([
      [1, 'A', [0, 3]],
      [2, 'B', [1, 2]],
    ]);
    expect(list.map((ix) => ix.durationMs)).toEqual([9 - 0, 5 - 1]);
  });

  it('falls back to the oldest waiting call for a result without a usable id', () => {
    const events = [
      call('a', 'Read', {}),
      call('b', 'Grep', {}),
      result('', 'first'),
      result('zzz', 'second'),
    ];
    const list = groupInteractions(events);
    expect(list).toHaveLength(2);
    expect(list[0]!.tool).toMatchObject({ output: 'first', pairing: 'order' });
    expect(list[1]!.tool).toMatchObject({ output: 'second', pairing: 'order' });
  });

  it('keeps a result that answers no call as its own unnamed tool interaction', () => {
    const list = groupInteractions([result('ghost', 'boo', { isError: true })]);
    expect(list[0]).toMatchObject({ type: 'tool', outcome: 'error', failure: { kind: 'is_error' } });
    expect(list[0]!.tool).toMatchObject({ name: '', callId: 'ghost', pairing: 'none', output: 'boo' });
  });

  it('merges a second result for the same call into the interaction', () => {
    const list = groupInteractions([
      call('a', 'Bash', {}, 0),
      result('a', 'part1', { at: 10 }),
      result('a', 'part2', { at: 30 }),
    ]);
    expect(list).toHaveLength(1);
    expect(list[0]!.tool).toMatchObject({ output: 'part1', extraOutputs: ['part2'] });
    expect(list[0]!.entryIndices).toEqual([0, 1, 2]);
    expect(list[0]!.durationMs).toBe(30);
    expect(list[0]!.contextBytes).toBe(2 + 5 + 5);
  });

  it('records why a tool failed, most specific evidence first', () => {
    const outcome = (r: Parameters<typeof result>[2]) =>
      groupInteractions([call('a', 'X', {}), result('a', 'o', r)])[0]!;
    expect(outcome({ isError: true }).failure).toEqual({
      kind: 'is_error',
      detail: 'tool reported an error',
    });
    expect(outcome({ exitCode: 2 }).failure).toMatchObject({
      kind: 'exit_code',
      exitCode: 2,
      detail: 'exit code 2',
    });
    expect(outcome({ isError: true, httpStatus: 404 }).failure).toMatchObject({
      kind: 'http_status',
      httpStatus: 404,
    });
    expect(outcome({ isError: true, exitCode: 1, permissionDenied: true }).failure!.kind).toBe(
      'permission_denied',
    );
    expect(outcome({ exitCode: 0, httpStatus: 200 })).toMatchObject({ outcome: 'ok' });
    expect(outcome({ exitCode: 0 }).failure).toBeUndefined();
  });

  it('marks a call whose result never came as no_result', () => {
    const [ix] = groupInteractions([call('a', 'Bash', { command: 'sleep 999' })]);
    expect(ix).toMatchObject({ outcome: 'no_result', durationSource: 'none' });
    expect(ix!.tool!.output).toBeNull();
  });

  it('turns error events into agent error interactions', () => {
    const [ix] = groupInteractions([
      error('Rate limited, retrying', { errorClass: 'rate_limit', httpStatus: 429 }),
    ]);
    expect(ix).toMatchObject({
      type: 'error',
      outcome: 'error',
      summary: 'Rate limited, retrying',
      failure: {
        kind: 'agent_error',
        errorClass: 'rate_limit',
        httpStatus: 429,
        detail: 'rate_limit, HTTP 429',
      },
    });
  });

  it('ends reasoning at user and system events, which are not interactions themselves', () => {
    const events: TranscriptEvent[] = [
      { kind: 'system', subtype: 'init' },
      text('a'),
      { kind: 'user', text: 'more please' },
      text('b'),
    ];
    const list = groupInteractions(events);
    expect(list.map((ix) => [ix.type, ix.entryIndices])).toEqual([
      ['reasoning', [1]],
      ['reasoning', [3]],
    ]);
  });

  it('measures reasoning as the model turn: from the previous event to the last text', () => {
    const events = [
      call('a', 'Read', {}, 0),
      result('a', 'x', { at: 1000 }),
      text('so', 3000),
      text('then', 3500),
    ];
    const list = groupInteractions(events, { startedAt: T0 });
    expect(list[1]).toMatchObject({ startMs: 3000, durationMs: 3500 - 1000, durationSource: 'agent' });
    // Nothing timestamped before the first reasoning: not measured rather than guessed.
    const first = groupInteractions([text('hi', 10), text('there', 20)]);
    expect(first[0]).toMatchObject({ durationMs: null, durationSource: 'none' });
  });

  it('measures start times from the run start, else the first timestamp, else null', () => {
    expect(groupInteractions([text('x', 500)], { startedAt: T0 })[0]!.startMs).toBe(500);
    expect(groupInteractions([{ kind: 'user', text: 'go', ts: T0 + 200 }, text('x', 500)])[0]!.startMs).toBe(
      300,
    );
    expect(groupInteractions([text('x')])[0]!.startMs).toBeNull();
  });

  it('groups a whole Transcript from its startedAt', () => {
    const list = groupTranscript({ startedAt: T0 - 1000, endedAt: T0 + 5000, events: [text('x', 0)] });
    expect(list[0]!.startMs).toBe(1000);
  });

  it('drops a duration across the two clocks when a time falls outside the run window', () => {
    // Claude stamps results with its own time but not calls: AXIS receipt time and agent time mix.
    const events = [call('a', 'Bash', {}, 100, 'received'), result('a', 'x', { at: 400 })];
    expect(groupTranscript({ startedAt: T0, endedAt: T0 + 1000, events })[0]).toMatchObject({
      durationMs: 300,
      durationSource: 'received',
    });
    // The same transcript re-parsed a day later: receipt times no longer match the agent's clock.
    const replayed = [call('a', 'Bash', {}, 86_400_000, 'received'), result('a', 'x', { at: 400 })];
    expect(groupTranscript({ startedAt: T0, endedAt: T0 + 1000, events: replayed })[0]).toMatchObject({
      durationMs: null,
      durationSource: 'none',
    });
    // One clock throughout: kept even outside the window (the agent's clock may simply be offset).
    const offset = [call('a', 'Bash', {}, -50_000), result('a', 'x', { at: -49_000 })];
    expect(groupTranscript({ startedAt: T0, endedAt: T0 + 1000, events: offset })[0]).toMatchObject({
      durationMs: 1000,
      durationSource: 'agent',
    });
  });

  it('counts JSON input bytes without serialising, escapes aside', () => {
    const input = {
      command: 'ls -la',
      n: 12,
      ok: true,
      none: null,
      list: ['a', 1],
      nested: { é: 'ü' },
      skip: undefined,
    };
    expect(jsonBytes(input)).toBe(Buffer.byteLength(JSON.stringify(input)));
    expect(jsonBytes(undefined)).toBe(0);
    expect(jsonBytes('ab')).toBe(4);
    expect(jsonBytes([])).toBe(2);
    // a newline counts as one byte, not the two of its JSON escape
    expect(jsonBytes({ a: 'x\ny' })).toBe(Buffer.byteLength(JSON.stringify({ a: 'x\ny' })) - 1);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(Number.isFinite(jsonBytes(cyclic))).toBe(true);
  });
});
