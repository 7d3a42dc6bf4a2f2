import { describe, expect, it } from 'vitest';
import { parseGeminiJson } from '../../../src/transcript/gemini.js';
import { parse, sample, shapes, synthetic } from './helpers.js';

const DONE = 'Done: I created out.txt containing "hello" and listed the directory.';
const iso = (s: string) => Date.parse(s);

describe('gemini stream-json (real samples)', () => {
  it('gemini-stream: deltas joined into one text per run, agent timestamps, stats', () => {
    const p = parse('gemini', sample('gemini-stream.ndjson'), 1);
    const id = 'run_shell_command__run_shell_command_1796005888111_0';
    expect(p.events).toEqual([
      { kind: 'user', text: 'create out.txt', ts: iso('2026-11-30T02:31:28.064Z'), tsSource: 'agent' },
      {
        kind: 'text',
        text: 'I will create the file with a shell command.',
        ts: iso('2026-11-30T02:31:28.111Z'),
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id,
        name: 'run_shell_command',
        input: { command: 'echo hello > out.txt && ls', description: 'Create out.txt and list files' },
        ts: iso('2026-11-30T02:31:28.145Z'),
        tsSource: 'agent',
      },
      {
        kind: 'tool_result',
        callId: id,
        output: 'out.txt',
        isError: false,
        ts: iso('2026-11-30T02:31:28.282Z'),
        tsSource: 'agent',
      },
      { kind: 'text', text: DONE, ts: iso('2026-11-30T02:31:28.313Z'), tsSource: 'agent' },
    ]);
    expect(p.result).toBe(DONE);
    expect(p.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
    expect(p.agentDurationMs).toBe(259);
    expect(p.sessionId).toBe('dcb9577c-a923-4ab4-bb98-780aa12c493b');
    expect(p.model).toBe('gemini-2.5-flash');
    expect(p.error).toBeUndefined();
  });

  it('gemini-stream-failed-command: status "success" and no exit code in the text → not detectable', () => {
    // Gemini CLI shows only the command's own output when there is any; the exit code is not in it.
    const p = parse('gemini', sample('gemini-stream-failed-command.ndjson'));
    expect(shapes(p.events.filter((e) => e.kind === 'tool_result'))).toEqual([
      {
        kind: 'tool_result',
        callId: 'run_shell_command__run_shell_command_1796005898293_0',
        output: "ls: cannot access '/nonexistent': No such file or directory",
        isError: false,
      },
    ]);
    expect(p.events[0]).toMatchObject({ kind: 'user', text: 'list' });
    expect(p.result).toBe(DONE);
  });

  it('gemini-stream-http500-timeout: killed while retrying → no result, no stream error', () => {
    const p = parse('gemini', sample('gemini-stream-http500-timeout.ndjson'));
    expect(shapes(p.events)).toEqual([{ kind: 'user', text: 'create out.txt' }]);
    expect(p.result).toBeNull();
    expect(p.error).toBeUndefined();
    expect(p.usage).toEqual({ input: 0, output: 0, cacheReadInput: 0 });
    expect(p.sessionId).toBe('7ef761a4-8985-4ba1-8b19-7d849e1d4f66');
    expect(p.agentDurationMs).toBeUndefined();
  });

  it('gemini-stream-auto-routing: model "auto" resolves to the main model; router tokens counted', () => {
    const p = parse('gemini', sample('gemini-stream-auto-routing.ndjson'));
    expect(p.model).toBe('gemini-3.8-flash');
    expect(p.usage).toEqual({ input: 300, output: 75, cacheReadInput: 0 });
    expect(p.events.filter((e) => e.kind === 'text').map((e) => (e.kind === 'text' ? e.text : ''))).toEqual([
      'I will create the file with a shell command.',
      DONE,
    ]);
    expect(p.result).toBe(DONE);
  });

  it('gemini-output.json: the single-object form', () => {
    const p = parseGeminiJson(sample('gemini-output.json'));
    expect(p).toEqual({
      events: [{ kind: 'text', text: DONE }],
      result: DONE,
      usage: { input: 200, output: 50, cacheReadInput: 0 },
      sessionId: '9e617686-52e4-43ed-a052-03f4a9488902',
      model: 'gemini-2.5-flash',
    });
  });
});

describe('gemini (synthetic)', () => {
  const p = parse('gemini', synthetic('gemini-exit-codes.ndjson'));

  it('reads exit codes from "Exit Code: N" and "Command exited with code: N", only for shell tools', () => {
    expect(shapes(p.events.filter((e) => e.kind === 'tool_result'))).toEqual([
      {
        kind: 'tool_result',
        callId: 'sh_1',
        output:
          'Output: make: *** No targets specified and no makefile found.  Stop.\nExit Code: 2\nProcess Group PGID: 4242',
        isError: true,
        exitCode: 2,
      },
      {
        kind: 'tool_result',
        callId: 'sh_2',
        output: 'Command exited with code: 1',
        isError: true,
        exitCode: 1,
      },
      { kind: 'tool_result', callId: 'rf_1', output: 'File not found: /ws/Makefile', isError: true },
      {
        kind: 'tool_result',
        callId: 'rf_2',
        output: 'Exit Code: 9 is mentioned in these notes',
        isError: false,
      },
    ]);
  });

  it("takes no exit code 0 from a shell result's text: the command's own output can print it", () => {
    // Gemini writes "Command exited with code: N" only for N ≠ 0; otherwise the text is the output.
    const forged = ['Command exited with code: 0', '3 tests failed\nExit Code: 0'].map((output, i) =>
      [
        {
          type: 'tool_use',
          tool_name: 'run_shell_command',
          tool_id: `s${i}`,
          parameters: { command: 'npm test' },
        },
        { type: 'tool_result', tool_id: `s${i}`, status: 'success', output },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const results = parse('gemini', forged.join('\n')).events.filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => e.kind === 'tool_result' && e.exitCode)).toEqual([undefined, undefined]);
  });

  it('warnings are system events, severity error and a failed result are errors', () => {
    expect(shapes(p.events.filter((e) => e.kind === 'system' || e.kind === 'error'))).toEqual([
      { kind: 'system', subtype: 'warning', data: { message: 'Loop detected, stopping execution' } },
      { kind: 'error', message: 'Maximum session turns exceeded', errorClass: 'limit_exceeded' },
      {
        kind: 'error',
        message:
          'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.',
        errorClass: 'limit_exceeded',
      },
    ]);
    expect(p.error?.class).toBe('limit_exceeded');
    expect(p.result).toBeNull();
    expect(p.usage).toEqual({ input: 400, output: 300, cacheReadInput: 800 });
    expect(p.agentDurationMs).toBe(1700);
  });

  it('a first delta run is one text event even with two chunks', () => {
    expect(p.events[1]).toMatchObject({
      kind: 'text',
      text: 'Running the build.',
      tsSource: 'agent',
      ts: iso('2026-11-30T10:00:00.100Z'),
    });
  });

  it('json form with an error object', () => {
    const out = parseGeminiJson(
      JSON.stringify({
        session_id: 's',
        error: { type: 'ApiError', message: 'Quota exceeded for quota metric', code: 429 },
      }),
    );
    expect(out.error).toEqual({
      class: 'quota',
      message: 'Quota exceeded for quota metric',
      httpStatus: 429,
    });
    expect(out.result).toBeNull();
    expect(out.events).toEqual([
      { kind: 'error', message: 'Quota exceeded for quota metric', errorClass: 'quota', httpStatus: 429 },
    ]);
  });

  it('json form: thoughts count as output; not JSON → unparsed, no throw', () => {
    const out = parseGeminiJson(
      JSON.stringify({
        response: 'x',
        stats: { models: { m: { tokens: { prompt: 100, cached: 40, candidates: 10, thoughts: 5 } } } },
      }),
    );
    expect(out.usage).toEqual({ input: 60, output: 15, cacheReadInput: 40 });
    const bad = parseGeminiJson('Error: not json');
    expect(bad.events).toEqual([
      {
        kind: 'system',
        subtype: 'unparsed',
        data: { reason: 'not a JSON object', line: 'Error: not json', length: 15 },
      },
    ]);
    expect(bad.result).toBeNull();
  });
});
