import { describe, expect, it } from 'vitest';
import { abortError, assemble, outcomeError, stderrSummary } from '../../../src/adapters/base.js';
import type { AgentProcessResult } from '../../../src/exec/process.js';
import type { ParsedStream } from '../../../src/transcript/model.js';
import { agent, ctx } from './helpers.js';

const proc = (p: Partial<AgentProcessResult> = {}): AgentProcessResult => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  stdoutBytes: 0,
  stdoutTruncated: false,
  truncatedLines: 0,
  stderrTail: '',
  stderrTruncated: false,
  durationMs: 1234,
  ...p,
});
const parsed = (p: Partial<ParsedStream> = {}): ParsedStream => ({
  events: [],
  result: null,
  usage: { input: 0, output: 0, cacheReadInput: 0 },
  ...p,
});

describe('outcomeError', () => {
  it('orders spawn failure, timeout, abort, stream error, then a non-zero exit without a result', () => {
    const streamErr = { class: 'auth' as const, message: 'bad key' };
    expect(outcomeError('x', proc({ spawnError: 'Cannot start "x"', timedOut: true }), parsed())).toEqual({
      class: 'crash',
      message: 'Cannot start "x"',
    });
    expect(
      outcomeError('x', proc({ timedOut: true, durationMs: 65_400 }), parsed({ error: streamErr })),
    ).toEqual({
      class: 'timeout',
      message: 'Agent timed out after 65s',
    });
    expect(
      outcomeError('x', proc({ aborted: true, abortReason: 'Ctrl-C' }), parsed({ error: streamErr })),
    ).toEqual({
      class: 'cancelled',
      message: 'Ctrl-C',
    });
    expect(outcomeError('x', proc({ exitCode: 1 }), parsed({ error: streamErr }))).toBe(streamErr);
    expect(outcomeError('x', proc({ exitCode: 2, stderrTail: 'noise\nfatal: boom\n' }), parsed())).toEqual({
      class: 'crash',
      message: 'x exited with code 2: noise | fatal: boom',
    });
    expect(outcomeError('x', proc({ exitCode: null, signal: 'SIGSEGV' }), parsed())).toMatchObject({
      message: 'x was killed by SIGSEGV',
    });
    expect(outcomeError('x', proc({ exitCode: 1 }), parsed({ result: 'answer' }))).toBeUndefined();
  });

  it('takes the class an abort reason carries', () => {
    expect(abortError({ errorClass: 'limit_exceeded', message: 'tokens' }, 'tokens')).toEqual({
      class: 'limit_exceeded',
      message: 'tokens',
    });
    expect(abortError({ errorClass: 'nonsense' }, 'x').class).toBe('cancelled');
  });
});

describe('stderrSummary', () => {
  it('keeps the last lines that fit', () => {
    expect(stderrSummary('a\n\nb\nc\n', 5)).toBe('b | c');
    expect(stderrSummary('x'.repeat(50), 10)).toBe('x'.repeat(10));
    expect(stderrSummary('')).toBe('');
  });
});

describe('assemble', () => {
  it('adds the prompt as the first user event and an error event for process failures; drops the result', () => {
    const t = assemble(
      ctx(agent('claude-code', { name: 'claude-code|sonnet' }), { prompt: 'hi' }),
      parsed({ result: 'partial', events: [{ kind: 'text', text: 'x' }] }),
      proc({ timedOut: true, exitCode: null, signal: 'SIGTERM' }),
      1000,
      { class: 'timeout', message: 'Agent timed out after 1s' },
    );
    expect(t.agent).toBe('claude-code|sonnet');
    expect(t.events.map((e) => e.kind)).toEqual(['user', 'text', 'error']);
    expect(t.result).toBeNull();
    expect(t.error).toEqual({ class: 'timeout', message: 'Agent timed out after 1s' });
    expect(t).toMatchObject({ exitCode: null, signal: 'SIGTERM', startedAt: 1000, durationMs: 1234 });
  });

  it('keeps the result and adds no duplicate error event for a stream error', () => {
    const error = { class: 'api_error' as const, message: 'overloaded' };
    const events = [
      { kind: 'user' as const, text: 'hi' },
      { kind: 'error' as const, message: 'overloaded' },
    ];
    const t = assemble(
      ctx(agent('codex')),
      parsed({ result: 'r', error, events }),
      proc({ exitCode: 1 }),
      0,
      error,
    );
    expect(t.events).toHaveLength(2);
    expect(t.result).toBe('r');
  });
});
