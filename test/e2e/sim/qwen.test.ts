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
  streamJsonBlocks,
  writeFileTape,
} from './tapes.js';

const T = 90_000;

describe(`Qwen Code against the simulator (${MODE()})`, () => {
  simSuiteHooks('qwen');

  it(
    'two turns: run_shell_command writes a file, then final text; tool names match the pinned version',
    async () => {
      const r = await runAgent({ cli: 'qwen', tape: writeFileTape(), prompt: PROMPT, maxRetries: 0 });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(readFileSync(join(r.workspace, 'out.txt'), 'utf8'), why).toBe('hello\n');
      const [use] = streamJsonBlocks(r.lines, 'assistant', 'tool_use');
      expect(use, why).toMatchObject({
        name: 'run_shell_command',
        input: { command: 'echo hello > out.txt && ls' },
      });
      expect(streamJsonBlocks(r.lines, 'user', 'tool_result')[0], why).toMatchObject({
        tool_use_id: use?.id,
        is_error: false,
        content: 'out.txt',
      });
      expect(resultLine(r.lines), why).toMatchObject({
        subtype: 'success',
        is_error: false,
        result: FINAL_TEXT,
      });
      // Qwen opens with an assistant message of its own; it must not advance the tape.
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1']);
      expect(r.requests[0]?.tools, STALE_TOOLS).toEqual(expect.arrayContaining(mappedToolNames('qwen')));
    },
    T,
  );

  it(
    'write_file, edit_file and read_file become write_file, edit and read_file and really change the workspace',
    async () => {
      const r = await runAgent({ cli: 'qwen', tape: fileToolsTape, prompt: PROMPT, maxRetries: 0 });
      const why = explain(r);
      expect(readFileSync(join(r.workspace, 'notes/todo.txt'), 'utf8'), why).toBe('beta\n');
      expect(
        streamJsonBlocks(r.lines, 'assistant', 'tool_use').map((b) => b.name),
        why,
      ).toEqual(['write_file', 'edit', 'read_file']);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 4']);
    },
    T,
  );

  it(
    'a failing command: the CLI reports the error output, the model sees Exit Code 3, the tape takes its branch',
    async () => {
      const r = await runAgent({ cli: 'qwen', tape: failingTape(), prompt: PROMPT, maxRetries: 0 });
      const why = explain(r);
      expect(streamJsonBlocks(r.lines, 'user', 'tool_result')[0], why).toMatchObject({
        content: expect.stringContaining('No such file or directory'),
      });
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 2']);
      expect(resultLine(r.lines)?.result, why).toBe('The command failed.');
    },
    T,
  );

  it(
    'HTTP 500 twice: Qwen retries with its own backoff (no setting caps it) and then completes',
    async () => {
      const r = await runAgent({
        cli: 'qwen',
        tape: writeFileTape({ status: 500, times: 2 }),
        prompt: PROMPT,
        maxRetries: 0,
        timeoutMs: 45_000,
      });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(served(r.requests), why).toEqual([
        'turn 0 (status 500)',
        'turn 0 (status 500)',
        'turn 0',
        'turn 1',
      ]);
      expect(existsSync(join(r.workspace, 'out.txt')), why).toBe(true);
    },
    T,
  );

  it(
    'HTTP 500 forever: bounded by the wall clock, the whole process group is killed',
    async () => {
      const r = await runAgent({
        cli: 'qwen',
        tape: writeFileTape({ status: 500 }),
        prompt: PROMPT,
        maxRetries: 0,
        // Killed 6 s after the first failed request, however long start-up took on a loaded machine.
        killAfterFirstRequestMs: 6_000,
        relaunch: true, // the group killed holds the launcher and the CLI it started
      });
      const why = explain(r);
      expect(r.timedOut, why).toBe(true);
      expect(r.signal, why).toBe('SIGKILL');
      // How many retries fit in the window depends on machine load; that it retries is shown by the "twice" test.
      expect(r.requests.length, why).toBeGreaterThanOrEqual(1);
      expect(new Set(served(r.requests)), why).toEqual(new Set(['turn 0 (status 500)']));
    },
    T,
  );

  it(
    'a dropped stream: Qwen exits 0 but its result carries the API error text',
    async () => {
      const r = await runAgent({
        cli: 'qwen',
        tape: writeFileTape({ drop: 'mid-stream', times: 1 }),
        prompt: PROMPT,
        maxRetries: 0,
      });
      const why = explain(r);
      expect(served(r.requests), why).toEqual(['turn 0 (drop mid-stream)']);
      expect(resultLine(r.lines)?.result, why).toMatch(/\[API Error: terminated/);
      expect(existsSync(join(r.workspace, 'out.txt'))).toBe(false);
    },
    T,
  );

  it(
    'a tool Qwen does not offer (an MCP tool) fails the turn loudly',
    async () => {
      const r = await runAgent({ cli: 'qwen', tape: missingToolTape, prompt: PROMPT, maxRetries: 0 });
      const why = explain(r);
      expect(r.events.find((e) => e.type === 'tool_not_offered')?.data, why).toMatchObject({
        wanted: expect.arrayContaining(['mcp__axisdocs__search']),
      });
      expect(resultLine(r.lines)?.result, why).toContain('needs one of mcp__axisdocs__search');
    },
    T,
  );
});
