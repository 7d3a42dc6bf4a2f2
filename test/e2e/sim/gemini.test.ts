import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explain, MODE, runAgent, simSuiteHooks, STALE_TOOLS } from './harness.js';
import {
  failingTape,
  fileToolsTape,
  FINAL_TEXT,
  mappedToolNames,
  missingToolTape,
  PROMPT,
  resultLine,
  served,
  writeFileTape,
} from './tapes.js';

const T = 90_000;

describe(`Gemini CLI against the simulator (${MODE()})`, () => {
  simSuiteHooks('gemini');

  it(
    'two turns: run_shell_command writes a file, then final text; tool names match the pinned version',
    async () => {
      const r = await runAgent({ cli: 'gemini', tape: writeFileTape(), prompt: PROMPT, maxRetries: 0 });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(readFileSync(join(r.workspace, 'out.txt'), 'utf8'), why).toBe('hello\n');
      const use = r.lines.find((l) => l.type === 'tool_use');
      expect(use, why).toMatchObject({
        tool_name: 'run_shell_command',
        parameters: { command: 'echo hello > out.txt && ls' },
      });
      expect(
        r.lines.find((l) => l.type === 'tool_result'),
        why,
      ).toMatchObject({ tool_id: use?.tool_id, status: 'success', output: 'out.txt' });
      const text = r.lines
        .filter((l) => l.type === 'message' && l.role === 'assistant')
        .map((l) => l.content)
        .join('');
      expect(text.endsWith(FINAL_TEXT), why).toBe(true);
      expect(resultLine(r.lines), why).toMatchObject({ status: 'success' });
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1']);
      expect(r.requests[0]?.tools, STALE_TOOLS).toEqual(expect.arrayContaining(mappedToolNames('gemini')));
    },
    T,
  );

  it(
    'write_file, edit_file and read_file become write_file, replace and read_file and really change the workspace',
    async () => {
      const r = await runAgent({ cli: 'gemini', tape: fileToolsTape, prompt: PROMPT, maxRetries: 0 });
      const why = explain(r);
      expect(readFileSync(join(r.workspace, 'notes/todo.txt'), 'utf8'), why).toBe('beta\n');
      expect(
        r.lines.filter((l) => l.type === 'tool_use').map((l) => l.tool_name),
        why,
      ).toEqual(['write_file', 'replace', 'read_file']);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 4']);
    },
    T,
  );

  it(
    'without -m the model router call is answered as a side call and the tape still starts at turn 0',
    async () => {
      const args = ['-p', PROMPT, '--output-format', 'stream-json', '--yolo'];
      const r = await runAgent({ cli: 'gemini', tape: writeFileTape(), args, maxRetries: 0 });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(r.requests[0], why).toMatchObject({
        path: expect.stringContaining(':generateContent'),
        answer: { kind: 'side', side: 'json_schema' },
      });
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1']);
      expect(existsSync(join(r.workspace, 'out.txt')), why).toBe(true);
      expect(r.stderr, why).not.toContain('ZodError');
    },
    T,
  );

  it(
    'a failing command: the output reaches the CLI, the model sees Exit Code 3, the tape takes its branch',
    async () => {
      const r = await runAgent({ cli: 'gemini', tape: failingTape(), prompt: PROMPT, maxRetries: 0 });
      const why = explain(r);
      // Gemini marks shell results "success" whatever the exit code; the code is only in the text sent to the model.
      expect(
        r.lines.find((l) => l.type === 'tool_result'),
        why,
      ).toMatchObject({ output: expect.stringContaining('No such file or directory') });
      // Turn 2 is served only when the result the CLI sent back states a non-zero exit code.
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 2']);
      expect(resultLine(r.lines), why).toMatchObject({ status: 'success' });
    },
    T,
  );

  it(
    'HTTP 500 forever: general.maxAttempts = 1 stops after one request with an error result',
    async () => {
      const r = await runAgent({
        cli: 'gemini',
        tape: writeFileTape({ status: 500 }),
        prompt: PROMPT,
        maxRetries: 0,
        timeoutMs: 45_000,
      });
      const why = explain(r);
      expect(r.timedOut, why).toBe(false);
      expect(r.exitCode, why).not.toBe(0);
      expect(served(r.requests), why).toEqual(['turn 0 (status 500)']);
      expect(existsSync(join(r.workspace, 'out.txt'))).toBe(false);
    },
    T,
  );

  it(
    'a dropped stream: Gemini CLI ends with an error result',
    async () => {
      const r = await runAgent({
        cli: 'gemini',
        tape: writeFileTape({ drop: 'mid-stream', times: 1 }),
        prompt: PROMPT,
        maxRetries: 0,
      });
      const why = explain(r);
      expect(r.exitCode, why).not.toBe(0);
      expect(served(r.requests), why).toEqual(['turn 0 (drop mid-stream)']);
      expect(resultLine(r.lines), why).toMatchObject({
        status: 'error',
        error: { message: expect.stringContaining('terminated') },
      });
    },
    T,
  );

  it(
    'without --yolo no shell tool is offered, so a shell turn fails loudly',
    async () => {
      const args = [
        '-p',
        PROMPT,
        '--output-format',
        'stream-json',
        '--approval-mode',
        'default',
        '-m',
        'gemini-2.5-flash',
      ];
      const r = await runAgent({ cli: 'gemini', tape: writeFileTape(), args, maxRetries: 0 });
      const why = explain(r);
      const event = r.events.find((e) => e.type === 'tool_not_offered');
      expect(event?.data, why).toMatchObject({ wanted: expect.arrayContaining(['run_shell_command']) });
      expect(event?.data?.offered as string[], why).not.toContain('run_shell_command');
      expect(r.exitCode, why).not.toBe(0);
      expect(existsSync(join(r.workspace, 'out.txt'))).toBe(false);
    },
    T,
  );

  it(
    'an MCP tool it does not have also fails loudly',
    async () => {
      const r = await runAgent({ cli: 'gemini', tape: missingToolTape, prompt: PROMPT, maxRetries: 0 });
      expect(r.events.find((e) => e.type === 'tool_not_offered')?.data, explain(r)).toMatchObject({
        wanted: expect.arrayContaining(['mcp_axisdocs_search']),
      });
    },
    T,
  );
});
