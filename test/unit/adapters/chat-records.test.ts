import { describe, expect, it } from 'vitest';
import { applyShellExitCodes, sessionToolOutputs } from '../../../src/adapters/chat-records.js';
import type { ParsedStream } from '../../../src/transcript/model.js';

const geminiLine = JSON.stringify({
  type: 'gemini',
  toolCalls: [
    {
      id: 'sh_1',
      result: [
        {
          functionResponse: {
            id: 'sh_1',
            name: 'run_shell_command',
            response: { output: 'Output: nope\nExit Code: 2\nProcess Group PGID: 1' },
          },
        },
      ],
    },
  ],
});
const qwenLine = JSON.stringify({
  message: {
    parts: [
      {
        functionResponse: {
          id: 'sh_2',
          response: { output: 'Command: true\nOutput: (empty)\nExit Code: 0\nSignal: 0' },
        },
      },
    ],
  },
});

describe('chat records', () => {
  it('collects function-response texts by call id from JSONL (Gemini and Qwen shapes)', () => {
    const out = sessionToolOutputs(`${geminiLine}\n{"$set":{}}\n${qwenLine}\n{"partial`);
    expect(out.get('sh_1')).toContain('Exit Code: 2');
    expect(out.get('sh_2')).toContain('Exit Code: 0');
  });

  it('fills exit codes of shell results only, marking non-zero ones as errors', () => {
    const parsed: ParsedStream = {
      result: null,
      usage: { input: 0, output: 0, cacheReadInput: 0 },
      events: [
        { kind: 'tool_call', id: 'sh_1', name: 'run_shell_command', input: {} },
        { kind: 'tool_result', callId: 'sh_1', output: 'nope', isError: false },
        { kind: 'tool_call', id: 'sh_2', name: 'run_shell_command', input: {} },
        { kind: 'tool_result', callId: 'sh_2', output: '', isError: false },
        { kind: 'tool_call', id: 'rf', name: 'read_file', input: {} },
        { kind: 'tool_result', callId: 'rf', output: 'Exit Code: 9', isError: false },
      ],
    };
    const outputs = sessionToolOutputs(`${geminiLine}\n${qwenLine}`);
    outputs.set('rf', 'Exit Code: 9');
    const results = applyShellExitCodes(parsed, outputs).events.filter((e) => e.kind === 'tool_result');
    expect(results).toMatchObject([
      { callId: 'sh_1', isError: true, exitCode: 2 },
      { callId: 'sh_2', isError: false, exitCode: 0 },
      { callId: 'rf', isError: false },
    ]);
    expect(results[2]).not.toHaveProperty('exitCode');
  });

  it('of two records of one call keeps the one that says least: a non-zero code, then none, then 0', () => {
    const rec = (id: string, output: string) =>
      JSON.stringify({ functionResponse: { id, response: { output } } });
    const out = sessionToolOutputs(
      [
        rec('a', 'Exit Code: 1'),
        rec('a', 'Exit Code: 0'),
        rec('b', 'Exit Code: 0'),
        rec('b', 'Output: killed'),
        rec('b', 'Exit Code: 0'),
        rec('c', 'Exit Code: 0'),
        rec('c', 'Exit Code: 0\nSignal: 0'),
      ].join('\n'),
    );
    expect(out.get('a')).toBe('Exit Code: 1');
    expect(out.get('b')).toBe('Output: killed');
    expect(out.get('c')).toBe('Exit Code: 0');
  });
});
