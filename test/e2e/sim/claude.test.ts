import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultArgs, explain, MODE, runAgent, simSuiteHooks, STALE_TOOLS } from './harness.js';
import {
  failingTape,
  fileToolsTape,
  FINAL_TEXT,
  mappedToolNames,
  PROMPT,
  resultLine,
  served,
  streamJsonBlocks,
  writeFileTape,
} from './tapes.js';

const T = 90_000;

describe(`Claude Code against the simulator (${MODE()})`, () => {
  simSuiteHooks('claude');

  it(
    'two turns: a shell command writes a file, then final text; tool names match the pinned version',
    async () => {
      const r = await runAgent({ cli: 'claude', tape: writeFileTape(), prompt: PROMPT, maxRetries: 1 });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(readFileSync(join(r.workspace, 'out.txt'), 'utf8'), why).toBe('hello\n');
      const [use] = streamJsonBlocks(r.lines, 'assistant', 'tool_use');
      expect(use, why).toMatchObject({ name: 'Bash', input: { command: 'echo hello > out.txt && ls' } });
      const [result] = streamJsonBlocks(r.lines, 'user', 'tool_result');
      expect(result, why).toMatchObject({ tool_use_id: use?.id, is_error: false, content: 'out.txt' });
      expect(resultLine(r.lines), why).toMatchObject({
        subtype: 'success',
        is_error: false,
        result: FINAL_TEXT,
      });
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1']);
      const offered = r.requests.find((q) => q.answer.kind === 'turn')?.tools;
      expect(offered, STALE_TOOLS).toEqual(expect.arrayContaining(mappedToolNames('claude')));
    },
    T,
  );

  it(
    'write_file, edit_file and read_file become Write, Edit and Read and really change the workspace',
    async () => {
      const r = await runAgent({ cli: 'claude', tape: fileToolsTape, prompt: PROMPT, maxRetries: 1 });
      const why = explain(r);
      expect(readFileSync(join(r.workspace, 'notes/todo.txt'), 'utf8'), why).toBe('beta\n');
      expect(
        streamJsonBlocks(r.lines, 'assistant', 'tool_use').map((b) => b.name),
        why,
      ).toEqual(['Write', 'Edit', 'Read']);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 4']);
    },
    T,
  );

  it(
    'a failing command: the CLI reports exit code 3 and the tape takes its exit_nonzero branch',
    async () => {
      const r = await runAgent({ cli: 'claude', tape: failingTape(), prompt: PROMPT, maxRetries: 1 });
      const why = explain(r);
      const [result] = streamJsonBlocks(r.lines, 'user', 'tool_result');
      expect(result, why).toMatchObject({ is_error: true, content: expect.stringMatching(/^Exit code 3\n/) });
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 2']);
      expect(resultLine(r.lines)?.result, why).toBe('The command failed.');
    },
    T,
  );

  it(
    'HTTP 500 forever: CLAUDE_CODE_MAX_RETRIES=1 caps it at two requests, then an API error result',
    async () => {
      const r = await runAgent({
        cli: 'claude',
        tape: writeFileTape({ status: 500 }),
        prompt: PROMPT,
        maxRetries: 1,
        timeoutMs: 45_000,
      });
      const why = explain(r);
      expect(r.timedOut, why).toBe(false);
      expect(r.exitCode, why).toBe(1);
      expect(served(r.requests), why).toEqual(['turn 0 (status 500)', 'turn 0 (status 500)']);
      expect(resultLine(r.lines), why).toMatchObject({ is_error: true, api_error_status: 500 });
      expect(existsSync(join(r.workspace, 'out.txt'))).toBe(false);
    },
    T,
  );

  it(
    'a dropped stream: Claude Code reports the cut connection as an API error',
    async () => {
      const r = await runAgent({
        cli: 'claude',
        tape: writeFileTape({ drop: 'mid-stream', times: 1 }),
        prompt: PROMPT,
        maxRetries: 1,
      });
      const why = explain(r);
      expect(r.exitCode, why).toBe(1);
      expect(served(r.requests), why).toEqual(['turn 0 (drop mid-stream)']);
      expect(resultLine(r.lines), why).toMatchObject({
        is_error: true,
        result: expect.stringContaining('Connection closed mid-response'),
      });
    },
    T,
  );

  it(
    'a neutral tool the CLI does not offer (Write disallowed) fails the turn loudly',
    async () => {
      const tape = {
        turns: [{ tools: [{ write_file: { path: 'a.txt', content: 'x' } }] }, { text: 'never' }],
      };
      const r = await runAgent({
        cli: 'claude',
        tape,
        args: [...defaultArgs('claude', PROMPT), '--disallowedTools', 'Write'],
        maxRetries: 1,
      });
      const why = explain(r);
      const event = r.events.find((e) => e.type === 'tool_not_offered');
      expect(event?.data, why).toMatchObject({ wanted: ['Write', 'write_file', 'write', 'mcp__acp__Write'] });
      expect((event?.data?.offered as string[]) ?? [], why).not.toContain('Write');
      expect(resultLine(r.lines), why).toMatchObject({
        is_error: true,
        api_error_status: 400,
        result: expect.stringContaining('needs one of Write'),
      });
      expect(existsSync(join(r.workspace, 'a.txt'))).toBe(false);
    },
    T,
  );
});
