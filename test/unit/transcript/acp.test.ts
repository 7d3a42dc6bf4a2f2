import { describe, expect, it } from 'vitest';
import { createAcpMapper } from '../../../src/transcript/acp.js';
import { parse, shapes, synthetic } from './helpers.js';

describe('ACP mapper', () => {
  const p = parse('acp', synthetic('acp-session.ndjson'), 7);

  it('maps thoughts, text, plan, tool calls (input backfilled) and results', () => {
    expect(shapes(p.events)).toEqual([
      { kind: 'thinking', text: 'Look at the directory first.' },
      { kind: 'text', text: 'Let me list the files.' },
      {
        kind: 'system',
        subtype: 'plan',
        data: {
          entries: [
            { content: 'List files', priority: 'high', status: 'in_progress' },
            { content: 'Create out.txt', priority: 'medium', status: 'pending' },
          ],
        },
      },
      { kind: 'tool_call', id: 'tc-1', name: 'Run ls', input: { command: 'ls' }, toolKind: 'execute' },
      { kind: 'tool_result', callId: 'tc-1', output: 'README.md', isError: false, exitCode: 0 },
      {
        kind: 'tool_call',
        id: 'tc-2',
        name: 'Write out.txt',
        input: { path: '/ws/out.txt', content: 'hello' },
        toolKind: 'edit',
      },
      { kind: 'tool_result', callId: 'tc-2', output: '[diff: /ws/out.txt]', isError: true },
      { kind: 'text', text: 'The write failed; ', messageId: 'm-final' },
      { kind: 'thinking', text: 'explain why' },
      { kind: 'text', text: 'the directory is read-only.', messageId: 'm-final' },
    ]);
    expect(p.events.every((e) => e.ts === 7 && e.tsSource === 'received')).toBe(true);
  });

  it('the result is the whole final message, not only its last segment', () => {
    expect(p.result).toBe('The write failed; the directory is read-only.');
  });

  it('usage comes from the prompt response; usage_update.used is never taken as input', () => {
    expect(p.usage).toEqual({ input: 1100, output: 150, cacheReadInput: 400, cacheWriteInput: 100 });
    expect(p.costUsd).toBe(0.006);
    expect(p.sessionId).toBe('acp-1');
    expect(p.error).toBeUndefined();
  });

  it('live usage stays zero while only usage_update (context size) has arrived', () => {
    const m = createAcpMapper();
    m.update({ sessionUpdate: 'usage_update', used: 48000, size: 200000 });
    expect(m.usage()).toEqual({ input: 0, output: 0, cacheReadInput: 0 });
  });

  it('separate messages after the last tool call are joined by a blank line', () => {
    const m = createAcpMapper();
    m.update({
      sessionUpdate: 'agent_message_chunk',
      messageId: 'a',
      content: { type: 'text', text: 'First.' },
    });
    m.update({
      sessionUpdate: 'agent_message_chunk',
      messageId: 'b',
      content: { type: 'text', text: 'Second.' },
    });
    m.promptResponse({ stopReason: 'end_turn' });
    const out = m.finish();
    expect(out.result).toBe('First.\n\nSecond.');
    expect(out.events.filter((e) => e.kind === 'text')).toHaveLength(2);
  });

  it('Gemini _meta.quota usage, cancelled stop reason', () => {
    const m = createAcpMapper();
    m.update({
      sessionId: 's',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'partial' } },
    });
    m.promptResponse({
      stopReason: 'cancelled',
      _meta: {
        quota: {
          token_count: { input_tokens: 90, output_tokens: 9 },
          model_usage: [{ model: 'gemini-2.5-pro', token_count: {} }],
        },
      },
    });
    const out = m.finish();
    expect(out.usage).toEqual({ input: 90, output: 9, cacheReadInput: 0 });
    expect(out.model).toBe('gemini-2.5-pro');
    expect(out.error).toEqual({ class: 'cancelled', message: 'Agent cancelled the turn' });
    expect(out.result).toBeNull();
  });

  it('max_tokens → limit_exceeded; refusal is a clean end with a system note', () => {
    const a = createAcpMapper();
    a.promptResponse({ stopReason: 'max_tokens' });
    expect(a.finish().error?.class).toBe('limit_exceeded');
    const b = createAcpMapper();
    b.update({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'I cannot help with that.' },
    });
    b.promptResponse({ stopReason: 'refusal' });
    const out = b.finish();
    expect(out.error).toBeUndefined();
    expect(out.result).toBe('I cannot help with that.');
    expect(shapes(out.events)[1]).toEqual({
      kind: 'system',
      subtype: 'stop',
      data: { stopReason: 'refusal' },
    });
  });

  it('a JSON-RPC error for the prompt: Gemini puts the HTTP status in the code', () => {
    const out = parse(
      'acp',
      '{"jsonrpc":"2.0","id":3,"error":{"code":429,"message":"Rate limit exceeded. Try again later."}}',
    );
    expect(out.error).toEqual({
      class: 'rate_limit',
      message: 'Rate limit exceeded. Try again later.',
      httpStatus: 429,
    });
    const internal = parse(
      'acp',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error","data":{"details":"spawn failed"}}}',
    );
    expect(internal.error).toEqual({ class: 'crash', message: 'Internal error: spawn failed' });
  });

  it('a tool_call_update for an unknown call creates the call; a tool_call already complete is answered', () => {
    const m = createAcpMapper();
    m.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'x',
      title: 'Fetch docs',
      kind: 'fetch',
      status: 'completed',
      rawOutput: 'ok',
    });
    m.update({
      sessionUpdate: 'tool_call',
      toolCallId: 'y',
      title: 'Read a.ts',
      kind: 'read',
      status: 'failed',
      rawInput: { path: 'a.ts' },
    });
    m.update({ sessionUpdate: 'tool_call_update', toolCallId: 'y', status: 'completed' });
    expect(shapes(m.finish().events)).toEqual([
      { kind: 'tool_call', id: 'x', name: 'Fetch docs', input: {}, toolKind: 'fetch' },
      { kind: 'tool_result', callId: 'x', output: 'ok', isError: false },
      { kind: 'tool_call', id: 'y', name: 'Read a.ts', input: { path: 'a.ts' }, toolKind: 'read' },
      { kind: 'tool_result', callId: 'y', output: '', isError: true },
    ]);
  });

  it('no prompt response (killed) → no result', () => {
    const m = createAcpMapper();
    m.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'working' } });
    expect(m.finish().result).toBeNull();
  });
});
