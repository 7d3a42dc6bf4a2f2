import { describe, expect, it } from 'vitest';
import { parse, sample, shapes } from './helpers.js';

const DONE = 'Done: I created out.txt containing "hello" and listed the directory.';

describe('qwen stream-json (Claude-compatible)', () => {
  it('qwen-stream: one block per message, usage summed over messages, no cost', () => {
    const p = parse('qwen', sample('qwen-stream.ndjson'));
    expect(p.events[0]).toMatchObject({
      kind: 'system',
      subtype: 'init',
      data: { model: 'fake-model', permission_mode: 'yolo', qwen_code_version: '0.15.10' },
    });
    expect(shapes(p.events.slice(1))).toEqual([
      { kind: 'text', text: 'I will create the file.', messageId: '658918ee-5339-4307-aeac-639b52f1ee80' },
      {
        kind: 'tool_call',
        id: 'call_fake_1',
        name: 'run_shell_command',
        input: { command: 'echo hello > out.txt && ls', description: 'create out.txt' },
        messageId: '5173fcb3-625c-4fcd-b1d3-58feee83b0b4',
      },
      { kind: 'tool_result', callId: 'call_fake_1', output: 'out.txt', isError: false },
      { kind: 'text', text: DONE, messageId: 'b3aa04be-2a88-4ac9-83f2-88739d99d027' },
    ]);
    expect(p.result).toBe(DONE);
    expect(p.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
    expect(p.costUsd).toBeUndefined();
    expect(p.agentDurationMs).toBe(4462);
    expect(p.model).toBe('fake-model');
    expect(p.sessionId).toBe('e6ab27fe-2b59-46f6-9abc-7814bca8424c');
    expect(p.error).toBeUndefined();
  });

  it('qwen-stream-http500: exit-0 "[API Error: 500 …]" result is an api_error, not an answer', () => {
    const p = parse('qwen', sample('qwen-stream-http500.ndjson'));
    expect(shapes(p.events.slice(1))).toEqual([
      { kind: 'error', message: 'API Error: 500 fake error', errorClass: 'api_error', httpStatus: 500 },
    ]);
    expect(p.result).toBeNull();
    expect(p.error).toEqual({ class: 'api_error', message: 'API Error: 500 fake error', httpStatus: 500 });
    expect(p.agentDurationMs).toBe(92034);
  });

  it('the Claude flavor keeps such a text as the answer (the quirk is Qwen-only)', () => {
    const p = parse('claude', sample('qwen-stream-http500.ndjson'));
    expect(p.error).toBeUndefined();
    expect(p.result).toBe('[API Error: 500 fake error]');
  });

  it('401 in the API error text → auth', () => {
    const line = JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: '[API Error: 401 Incorrect API key provided]',
    });
    expect(parse('qwen', line).error).toEqual({
      class: 'auth',
      message: 'API Error: 401 Incorrect API key provided',
      httpStatus: 401,
    });
  });

  it('reads "Exit Code: N" from shell output', () => {
    const line = JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'c1',
            is_error: false,
            content:
              'Command: ls /x\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 2\nSignal: 0',
          },
        ],
      },
    });
    expect(parse('qwen', line).events[0]).toMatchObject({ kind: 'tool_result', exitCode: 2, isError: true });
  });

  it("takes no exit code 0 from a result's text: a failing command's own output can print it", () => {
    const line = JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', is_error: false, content: '5 failed\nExit Code: 0' },
        ],
      },
    });
    expect(parse('qwen', line).events[0]).not.toHaveProperty('exitCode');
  });
});
