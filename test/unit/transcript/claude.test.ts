import { describe, expect, it } from 'vitest';
import { createClaudeParser } from '../../../src/transcript/claude.js';
import { parse, sample, shapes, synthetic, usageTrace } from './helpers.js';

const DONE = 'Done: I created out.txt containing "hello" and listed the directory.';
const BASH_CALL = {
  kind: 'tool_call',
  id: 'toolu_fake_1',
  name: 'Bash',
  input: { command: 'echo hello > out.txt && ls', description: 'Create out.txt and list files' },
  messageId: 'msg_fake_1',
};

describe('claude stream-json (real samples)', () => {
  it('claude-stream: merges the blocks of one message and keeps every block in order', () => {
    const p = parse('claude', sample('claude-stream.ndjson'), 1000);
    expect(p.events[0]).toMatchObject({
      kind: 'system',
      subtype: 'init',
      data: {
        model: 'claude-opus-4-8[1m]',
        cwd: '/home/user/runs/claude-final/ws',
        claude_code_version: '2.1.197',
      },
    });
    expect(shapes(p.events.slice(1))).toEqual([
      { kind: 'text', text: 'I will create the file with Bash.', messageId: 'msg_fake_1' },
      BASH_CALL,
      { kind: 'tool_result', callId: 'toolu_fake_1', output: 'out.txt', isError: false },
      { kind: 'text', text: DONE, messageId: 'msg_fake_2' },
    ]);
    expect(p.result).toBe(DONE);
    expect(p.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
    expect(p.costUsd).toBeCloseTo(0.00225, 10);
    expect(p.agentDurationMs).toBe(377);
    expect(p.sessionId).toBe('67501eea-3b6b-441d-9ee1-e28acdaceeac');
    expect(p.model).toBe('claude-opus-4-8[1m]');
    expect(p.error).toBeUndefined();
  });

  it('uses the agent timestamp on user lines and the receive time elsewhere', () => {
    const p = parse('claude', sample('claude-stream.ndjson'), 1000);
    const result = p.events.find((e) => e.kind === 'tool_result');
    expect(result).toMatchObject({ ts: Date.parse('2026-11-30T02:31:18.087Z'), tsSource: 'agent' });
    const text = p.events.find((e) => e.kind === 'text');
    expect(text).toMatchObject({ ts: 1000, tsSource: 'received' });
  });

  it('claude-stream-partial: stream_event lines feed usage only, never duplicate events', () => {
    const p = parse('claude', sample('claude-stream-partial.ndjson'));
    expect(shapes(p.events.slice(1))).toEqual([
      { kind: 'text', text: 'I will create the file with Bash.', messageId: 'msg_fake_1' },
      BASH_CALL,
      { kind: 'tool_result', callId: 'toolu_fake_1', output: 'out.txt', isError: false },
      { kind: 'text', text: DONE, messageId: 'msg_fake_2' },
    ]);
    expect(p.model).toBe('claude-sonnet-4-5');
    expect(p.costUsd).toBeCloseTo(0.00135, 10);
    expect(p.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
  });

  it('claude-stream-partial: live usage grows with message_delta and never goes down', () => {
    const trace = usageTrace(createClaudeParser(), sample('claude-stream-partial.ndjson'));
    for (let i = 1; i < trace.length; i++) {
      const [a, b] = [trace[i - 1]!, trace[i]!];
      expect(b.input).toBeGreaterThanOrEqual(a.input);
      expect(b.output).toBeGreaterThanOrEqual(a.output);
    }
    // After the first message_delta (output_tokens 25) and before the result line.
    expect(trace.some((u) => u.output === 25 && u.input === 100)).toBe(true);
    expect(trace[trace.length - 1]).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
  });

  it('claude-stream-failed-command: is_error result with the exit code read from "Exit code 2"', () => {
    const p = parse('claude', sample('claude-stream-failed-command.ndjson'));
    expect(shapes(p.events.filter((e) => e.kind === 'tool_call' || e.kind === 'tool_result'))).toEqual([
      {
        kind: 'tool_call',
        id: 'toolu_fake_1',
        name: 'Bash',
        input: { command: 'ls /nonexistent', description: 'Create out.txt and list files' },
        messageId: 'msg_fake_1',
      },
      {
        kind: 'tool_result',
        callId: 'toolu_fake_1',
        output: "Exit code 2\nls: cannot access '/nonexistent': No such file or directory",
        isError: true,
        exitCode: 2,
      },
    ]);
    expect(p.result).toBe(DONE);
    expect(p.error).toBeUndefined();
  });

  it('claude-stream-permission-denied: the call in permission_denials is marked denied', () => {
    const p = parse('claude', sample('claude-stream-permission-denied.ndjson'));
    const result = p.events.find((e) => e.kind === 'tool_result');
    expect(result).toMatchObject({
      kind: 'tool_result',
      callId: 'toolu_fake_1',
      isError: true,
      permissionDenied: true,
    });
    expect(result && 'output' in result && result.output).toContain('was blocked');
    expect(result && 'exitCode' in result).toBe(false);
    expect(p.result).toBe(DONE);
    expect(p.error).toBeUndefined();
  });

  it('claude-stream-http500: synthetic error message and is_error result become an api_error', () => {
    const p = parse('claude', sample('claude-stream-http500.ndjson'));
    const message =
      'API Error: 500 fake error. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:8787).';
    expect(shapes(p.events.slice(1))).toEqual([
      {
        kind: 'system',
        subtype: 'api_retry',
        data: { attempt: 1, maxRetries: 1, error: 'server_error', httpStatus: 500 },
      },
      { kind: 'error', message, errorClass: 'api_error', httpStatus: 500 },
    ]);
    expect(p.result).toBeNull();
    expect(p.error).toEqual({ class: 'api_error', message, httpStatus: 500 });
    expect(p.usage).toEqual({ input: 0, output: 0, cacheReadInput: 0 });
    expect(p.costUsd).toBe(0);
    expect(p.agentDurationMs).toBe(778);
    // "<synthetic>" is not a model name.
    expect(p.model).toBe('claude-opus-4-8[1m]');
  });
});

describe('claude stream-json (synthetic)', () => {
  it('keeps thinking, text and parallel tool calls of one message; pairs both results', () => {
    const p = parse('claude', synthetic('claude-parallel-thinking.ndjson'));
    expect(shapes(p.events.slice(1))).toEqual([
      { kind: 'thinking', text: 'Two independent checks; run them in parallel.', messageId: 'msg_1' },
      { kind: 'text', text: 'Checking both.', messageId: 'msg_1' },
      { kind: 'tool_call', id: 'toolu_a', name: 'Bash', input: { command: 'npm test' }, messageId: 'msg_1' },
      {
        kind: 'tool_call',
        id: 'toolu_b',
        name: 'WebFetch',
        input: { url: 'https://example.com/api', prompt: 'status' },
        messageId: 'msg_1',
      },
      {
        kind: 'system',
        subtype: 'unparsed',
        data: { reason: 'not a JSON object', line: 'npm warn this line is not JSON', length: 30 },
      },
      {
        kind: 'tool_result',
        callId: 'toolu_a',
        output: 'Exit code 1\n1 failing test',
        isError: true,
        exitCode: 1,
      },
      { kind: 'tool_result', callId: 'toolu_b', output: '{"status":"ok"}', isError: false },
      { kind: 'thinking', text: '[redacted thinking]', messageId: 'msg_2' },
      { kind: 'text', text: 'One test fails; the API is up.', messageId: 'msg_2' },
    ]);
    expect(p.result).toBe('One test fails; the API is up.');
  });

  it('sums modelUsage over every model; cache writes count as input', () => {
    const p = parse('claude', synthetic('claude-parallel-thinking.ndjson'));
    expect(p.usage).toEqual({ input: 30 + 300 + 50, output: 80, cacheReadInput: 2300, cacheWriteInput: 300 });
    expect(p.costUsd).toBe(0.0125);
  });

  it('live usage counts each message once however many block lines it has', () => {
    const parser = createClaudeParser();
    const lines = synthetic('claude-parallel-thinking.ndjson').split('\n');
    for (const line of lines.slice(0, 11)) parser.push(line);
    // msg_1: input 10 + cache write 300, output max(5, 40); msg_2: input 20, output max(1, 30).
    expect(parser.usage()).toEqual({ input: 330, output: 70, cacheReadInput: 2300, cacheWriteInput: 300 });
  });

  it('rate limit: assistant "rate_limit" error and 429 result → rate_limit', () => {
    const p = parse('claude', synthetic('claude-rate-limit.ndjson'));
    expect(p.error).toEqual({
      class: 'rate_limit',
      message: 'API Error: Request rejected (429) · rate limited',
      httpStatus: 429,
    });
    const errors = p.events.filter((e) => e.kind === 'error');
    expect(shapes(errors)).toEqual([
      {
        kind: 'error',
        message: 'API Error: Request rejected (429) · rate limited',
        errorClass: 'rate_limit',
        httpStatus: 429,
      },
    ]);
    expect(p.result).toBeNull();
  });

  it('error_max_turns → limit_exceeded; a "haven\'t granted" result is a permission refusal', () => {
    const p = parse('claude', synthetic('claude-max-turns.ndjson'));
    expect(p.error).toEqual({ class: 'limit_exceeded', message: 'Reached maximum number of turns (1)' });
    expect(p.result).toBeNull();
    expect(p.events.find((e) => e.kind === 'tool_result')).toMatchObject({
      isError: true,
      permissionDenied: true,
    });
    expect(p.events[p.events.length - 1]).toMatchObject({
      kind: 'error',
      errorClass: 'limit_exceeded',
      message: 'Reached maximum number of turns (1)',
    });
  });

  it('a stream cut before the result line keeps events and live usage, with no result', () => {
    const text = sample('claude-stream.ndjson').split('\n').slice(0, 4).join('\n');
    const p = parse('claude', text);
    expect(p.events.map((e) => e.kind)).toEqual(['system', 'text', 'tool_call', 'tool_result']);
    expect(p.result).toBeNull();
    expect(p.usage).toEqual({ input: 100, output: 1, cacheReadInput: 0 });
    expect(p.costUsd).toBeUndefined();
  });

  it('tool_use_result string is the output when the content is empty', () => {
    const line = JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: '', is_error: true }],
      },
      tool_use_result: 'Error: Exit code 3\nboom',
    });
    const p = parse('claude', line);
    expect(shapes(p.events)).toEqual([
      { kind: 'tool_result', callId: 't1', output: 'Error: Exit code 3\nboom', isError: true },
    ]);
  });

  it('"Permission denied" from the shell itself is not a permission refusal', () => {
    const line = JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: 'Exit code 126\nbash: ./x: Permission denied',
            is_error: true,
          },
        ],
      },
    });
    const [ev] = parse('claude', line).events;
    expect(ev).toMatchObject({ isError: true, exitCode: 126 });
    expect(ev && 'permissionDenied' in ev).toBe(false);
  });
});

describe('claude init line: MCP servers that did not start', () => {
  const init = (servers: { name: string; status: string }[]) =>
    JSON.stringify({ type: 'system', subtype: 'init', session_id: 's', mcp_servers: servers });

  it('names one server, or several, as the run error (setup_failed)', () => {
    expect(parse('claude', init([{ name: 'docs', status: 'failed' }])).error).toEqual({
      class: 'setup_failed',
      message: 'MCP server "docs" did not start (Claude Code reports: failed); the agent ran without it',
    });
    const two = init([
      { name: 'docs', status: 'failed' },
      { name: 'api', status: 'connected' },
      { name: 'auth', status: 'needs-auth' },
    ]);
    expect(parse('claude', two).error?.message).toBe(
      'MCP servers "docs", "auth" did not start (Claude Code reports: failed, needs-auth); the agent ran without them',
    );
    expect(parse('claude', init([{ name: 'api', status: 'connected' }])).error).toBeUndefined();
  });
});
