import { describe, expect, it } from 'vitest';
import { parse, sample, synthetic } from './helpers.js';

const DONE = 'Done: I created out.txt containing "hello" and listed the directory.';

describe('opencode run --format json', () => {
  it('opencode-run: tool times from the part state, tokens and cost summed over steps', () => {
    const p = parse('opencode', sample('opencode-run.ndjson'), 1);
    expect(p.events).toEqual([
      {
        kind: 'text',
        text: 'I will create the file.',
        messageId: 'msg_22a46f56c0012dLpn54gqj9Sjz',
        ts: 1796005624417,
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id: 'call_fake_2',
        name: 'bash',
        input: { command: 'echo hello > out.txt && ls', description: 'create out.txt' },
        ts: 1796005624446,
        tsSource: 'agent',
      },
      {
        kind: 'tool_result',
        callId: 'call_fake_2',
        output: 'out.txt\n',
        isError: false,
        exitCode: 0,
        ts: 1796005624644,
        tsSource: 'agent',
      },
      {
        kind: 'text',
        text: DONE,
        messageId: 'msg_22a46fb5f0016slaunWekxXx1F',
        ts: 1796005624774,
        tsSource: 'agent',
      },
    ]);
    expect(p.result).toBe(DONE);
    expect(p.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
    expect(p.costUsd).toBe(0);
    expect(p.sessionId).toBe('ses_dd5b912a1ffeXXvuqGcF8r1PIP');
    expect(p.error).toBeUndefined();
  });

  it('opencode-run-http500: APIError with statusCode 500 → api_error', () => {
    const p = parse('opencode', sample('opencode-run-http500.ndjson'));
    expect(p.events).toEqual([
      {
        kind: 'error',
        message: 'fake error',
        errorClass: 'api_error',
        httpStatus: 500,
        ts: 1796005830626,
        tsSource: 'agent',
      },
    ]);
    expect(p.error).toEqual({ class: 'api_error', message: 'fake error', httpStatus: 500 });
    expect(p.result).toBeNull();
    expect(p.sessionId).toBe('ses_dd5b70b6affeUUirhZcN8vF7fs');
  });

  it('401 → auth', () => {
    const p = parse('opencode', synthetic('opencode-auth-error.ndjson'));
    expect(p.error).toEqual({ class: 'auth', message: 'Incorrect API key provided', httpStatus: 401 });
  });

  it('tool errors, non-zero exit, rejected permission, reasoning; cache and reasoning tokens', () => {
    const p = parse('opencode', synthetic('opencode-tool-error.ndjson'));
    expect(p.events).toEqual([
      {
        kind: 'thinking',
        text: 'Need to check the config first.',
        messageId: 'm1',
        ts: 1796000000010,
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id: 'call_r1',
        name: 'read',
        input: { filePath: '/ws/missing.json' },
        ts: 1796000000100,
        tsSource: 'agent',
      },
      {
        kind: 'tool_result',
        callId: 'call_r1',
        output: 'Error: File not found: /ws/missing.json',
        isError: true,
        ts: 1796000000120,
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id: 'call_b1',
        name: 'bash',
        input: { command: 'npm test', description: 'run tests' },
        ts: 1796000000130,
        tsSource: 'agent',
      },
      {
        kind: 'tool_result',
        callId: 'call_b1',
        output: '1 failing\n',
        isError: true,
        exitCode: 1,
        ts: 1796000000390,
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id: 'call_b2',
        name: 'bash',
        input: { command: 'rm -rf /tmp/x', description: 'clean' },
        ts: 1796000000400,
        tsSource: 'agent',
      },
      {
        kind: 'tool_result',
        callId: 'call_b2',
        output: 'The user rejected permission to use this specific tool call.',
        isError: true,
        permissionDenied: true,
        ts: 1796000000410,
        tsSource: 'agent',
      },
      {
        kind: 'text',
        text: 'Tests fail and the config is missing.',
        messageId: 'm2',
        ts: 1796000000750,
        tsSource: 'agent',
      },
    ]);
    // input = non-cached input + cache writes; output = output + reasoning.
    expect(p.usage).toEqual({
      input: 200 + 400 + 100,
      output: 80 + 20 + 50,
      cacheReadInput: 2300,
      cacheWriteInput: 400,
    });
    expect(p.costUsd).toBeCloseTo(0.0043, 10);
    expect(p.result).toBe('Tests fail and the config is missing.');
  });

  it('a run whose last step asked for more tools has no result', () => {
    const lines = synthetic('opencode-tool-error.ndjson').split('\n').slice(0, 6).join('\n');
    expect(parse('opencode', lines).result).toBeNull();
  });
});
