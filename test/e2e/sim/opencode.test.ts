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

type ToolPart = {
  tool: string;
  state: { status: string; input: Record<string, unknown>; output: string; metadata?: { exit?: number } };
};
const toolParts = (r: RunResult): ToolPart[] =>
  r.lines.filter((l) => l.type === 'tool_use').map((l) => l.part as ToolPart);
const texts = (r: RunResult): string[] =>
  r.lines.filter((l) => l.type === 'text').map((l) => (l.part as { text: string }).text);

describe(`opencode against the simulator (${MODE()})`, () => {
  simSuiteHooks('opencode');

  it(
    'two turns: bash writes a file, then final text; the title call is a side call; tool names match',
    async () => {
      const r = await runAgent({ cli: 'opencode', tape: writeFileTape(), prompt: PROMPT });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(readFileSync(join(r.workspace, 'out.txt'), 'utf8'), why).toBe('hello\n');
      expect(toolParts(r)[0], why).toMatchObject({
        tool: 'bash',
        state: {
          status: 'completed',
          input: { command: 'echo hello > out.txt && ls' },
          output: 'out.txt\n',
          metadata: { exit: 0 },
        },
      });
      expect(texts(r).at(-1), why).toBe(FINAL_TEXT);
      expect(r.requests.filter((q) => q.answer.kind === 'side').length, why).toBeGreaterThanOrEqual(1);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1']);
      const agentRequest = r.requests.find((q) => q.answer.kind === 'turn');
      expect(agentRequest?.tools, STALE_TOOLS).toEqual(expect.arrayContaining(mappedToolNames('opencode')));
    },
    T,
  );

  it(
    'write_file, edit_file and read_file become write, edit and read and really change the workspace',
    async () => {
      const r = await runAgent({ cli: 'opencode', tape: fileToolsTape, prompt: PROMPT });
      const why = explain(r);
      expect(readFileSync(join(r.workspace, 'notes/todo.txt'), 'utf8'), why).toBe('beta\n');
      expect(
        toolParts(r).map((p) => p.tool),
        why,
      ).toEqual(['write', 'edit', 'read']);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 1', 'turn 2', 'turn 4']);
    },
    T,
  );

  it(
    'a failing command: metadata.exit is 3 (the model only sees the output, so the tape branches on it)',
    async () => {
      const r = await runAgent({
        cli: 'opencode',
        tape: failingTape({ result_contains: 'No such file or directory' }),
        prompt: PROMPT,
      });
      const why = explain(r);
      expect(toolParts(r)[0]?.state.metadata?.exit, why).toBe(3);
      expect(served(r.requests), why).toEqual(['turn 0', 'turn 2']);
      expect(texts(r).at(-1), why).toBe('The command failed.');
    },
    T,
  );

  it(
    'HTTP 500 once: opencode retries and completes',
    async () => {
      const r = await runAgent({
        cli: 'opencode',
        tape: writeFileTape({ status: 500, times: 1 }),
        prompt: PROMPT,
        timeoutMs: 45_000,
      });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(served(r.requests), why).toEqual(['turn 0 (status 500)', 'turn 0', 'turn 1']);
      expect(existsSync(join(r.workspace, 'out.txt')), why).toBe(true);
    },
    T,
  );

  it(
    'HTTP 500 forever: no retry setting exists, so the wall clock bounds it and the process group is killed',
    async () => {
      const r = await runAgent({
        cli: 'opencode',
        tape: writeFileTape({ status: 500 }),
        prompt: PROMPT,
        // Killed 6 s after the first failed request, however long start-up took on a loaded machine.
        killAfterFirstRequestMs: 6_000,
      });
      const why = explain(r);
      expect(r.timedOut, why).toBe(true);
      expect(r.signal, why).toBe('SIGKILL');
      // How many retries fit in the window depends on machine load; that it retries is shown by the "once" test.
      expect(served(r.requests).length, why).toBeGreaterThanOrEqual(1);
      expect(new Set(served(r.requests)), why).toEqual(new Set(['turn 0 (status 500)']));
    },
    T,
  );

  it(
    'a dropped stream: opencode retries and completes (the partial turn does not advance the tape)',
    async () => {
      const r = await runAgent({
        cli: 'opencode',
        tape: writeFileTape({ drop: 'mid-stream', times: 1 }),
        prompt: PROMPT,
      });
      const why = explain(r);
      expect(r.exitCode, why).toBe(0);
      expect(existsSync(join(r.workspace, 'out.txt')), why).toBe(true);
      expect(served(r.requests), why).toEqual(['turn 0 (drop mid-stream)', 'turn 0', 'turn 1']);
    },
    T,
  );

  it(
    'a tool opencode does not offer (an MCP tool) fails the turn loudly',
    async () => {
      const r = await runAgent({ cli: 'opencode', tape: missingToolTape, prompt: PROMPT });
      const why = explain(r);
      expect(r.exitCode, why).toBe(1);
      expect(r.events.find((e) => e.type === 'tool_not_offered')?.data, why).toMatchObject({
        wanted: expect.arrayContaining(['axisdocs_search']),
      });
      expect(
        r.lines.find((l) => l.type === 'error'),
        why,
      ).toBeDefined();
    },
    T,
  );
});
