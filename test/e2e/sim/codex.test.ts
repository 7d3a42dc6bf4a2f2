import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explain, MODE, runAgent, type RunResult, simSuiteHooks, STALE_TOOLS } from './harness.js';
import {
  failingTape,
  fileToolsTape,
  FINAL_TEXT,
  mappedToolNames,
  missingToolTape,
  PROMPT,
  served,
  writeFileTape,
} from './tapes.js';

const T = 90_000;

type Item = {
  type: string;
  command?: string;
  aggregated_output?: string;
  exit_code?: number | null;
  status?: string;
  text?: string;
};
const completed = (r: RunResult): Item[] =>
  r.lines.filter((l) => l.type === 'item.completed').map((l) => l.item as Item);

describe(`Codex against the simulator (${MODE()})`, () => {
  simSuiteHooks('codex');

  it(
    'two turns: exec_command writes a file, then final text; tool names match the pinned version',
    async () => {
      const r = await runAgent({ cli: 'codex', tape: writeFileTape(), prompt: PROMPT, maxRetries: 1 });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(readFileSync(join(r.workspace, 'out.txt'), 'utf8'), why).toBe('hello\n');
      const cmd = completed(r).find((i) => i.type === 'command_execution');
      expect(cmd, why).toMatchObject({
        command: expect.stringContaining('echo hello > out.txt && ls'),
        aggregated_output: 'out.txt\n',
        exit_code: 0,
        status: 'completed',
      });
      expect(
        completed(r)
          .filter((i) => i.type === 'agent_message')
          .at(-1)?.text,
        why,
      ).toBe(FINAL_TEXT);
      expect(
        r.lines.some((l) => l.type === 'turn.completed'),
        why,
      ).toBe(true);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1']);
      expect(r.requests[0]?.tools, STALE_TOOLS).toEqual(expect.arrayContaining(mappedToolNames('codex')));
    },
    T,
  );

  it(
    'write_file, edit_file and read_file become shell commands through exec_command and really change the workspace',
    async () => {
      const r = await runAgent({ cli: 'codex', tape: fileToolsTape, prompt: PROMPT, maxRetries: 1 });
      const why = explain(r);
      expect(readFileSync(join(r.workspace, 'notes/todo.txt'), 'utf8'), why).toBe('beta\n');
      expect(
        completed(r)
          .filter((i) => i.type === 'command_execution')
          .map((i) => i.exit_code),
        why,
      ).toEqual([0, 0, 0]);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 4']);
    },
    T,
  );

  it(
    'a failing command: exit_code 3, status failed, and the tape takes its exit_nonzero branch',
    async () => {
      const r = await runAgent({ cli: 'codex', tape: failingTape(), prompt: PROMPT, maxRetries: 1 });
      const why = explain(r);
      expect(
        completed(r).find((i) => i.type === 'command_execution'),
        why,
      ).toMatchObject({ exit_code: 3, status: 'failed' });
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 2']);
      expect(
        completed(r)
          .filter((i) => i.type === 'agent_message')
          .at(-1)?.text,
        why,
      ).toBe('The command failed.');
    },
    T,
  );

  it(
    'HTTP 500 forever: request_max_retries/stream_max_retries = 1 cap it, then turn.failed',
    async () => {
      const r = await runAgent({
        cli: 'codex',
        tape: writeFileTape({ status: 500 }),
        prompt: PROMPT,
        maxRetries: 1,
        timeoutMs: 45_000,
      });
      const why = explain(r);
      expect(r.timedOut, why).toBe(false);
      expect(r.exitCode, why).toBe(1);
      expect(
        r.lines.some((l) => l.type === 'turn.failed'),
        why,
      ).toBe(true);
      // One retry per request times one stream retry: four attempts, every one a 500.
      expect(served(r.requests), why).toEqual(Array(4).fill('turn 0 (status 500)'));
    },
    T,
  );

  it(
    'a dropped stream: Codex reconnects and completes the task',
    async () => {
      const r = await runAgent({
        cli: 'codex',
        tape: writeFileTape({ drop: 'mid-stream', times: 1 }),
        prompt: PROMPT,
        maxRetries: 1,
      });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(existsSync(join(r.workspace, 'out.txt')), why).toBe(true);
      expect(served(r.requests), why).toEqual(['turn 0 (drop mid-stream)', 'turn 0', 'turn 1']);
    },
    T,
  );

  it(
    'a tool Codex does not offer (an MCP tool) fails the turn loudly',
    async () => {
      const r = await runAgent({ cli: 'codex', tape: missingToolTape, prompt: PROMPT, maxRetries: 1 });
      const why = explain(r);
      expect(r.exitCode, why).toBe(1);
      expect(r.events.find((e) => e.type === 'tool_not_offered')?.data, why).toMatchObject({
        wanted: expect.arrayContaining(['mcp__axisdocs__search']),
        offered: expect.arrayContaining(['exec_command']),
      });
      expect(r.stdout, why).toContain('needs one of mcp__axisdocs__search');
    },
    T,
  );
});
