import { describe, expect, it } from 'vitest';
import {
  authFaultTape,
  explain,
  failingToolTape,
  FINAL,
  hangTape,
  MCP_SERVERS,
  mcpTape,
  PROMPT,
  runCliCase,
  SKILLS,
  successTape,
  toolCalls,
  toolResults,
} from './cli-harness.js';
import type { Tape } from '../../../src/sim/index.js';
import { agentEntry } from './helpers.js';

const T = 120_000;
const agent = agentEntry('qwen-code');
/** Qwen Code hides MCP tools behind tool_search: the model loads the tool first, then calls it. */
const qwenMcpTape: Tape = {
  name: 'mcp via tool_search',
  turns: [
    { tools: [{ raw: { name: 'tool_search', args: { query: 'select:mcp__docs__echo' } } }] },
    ...mcpTape.turns,
  ],
};

describe('qwen-code adapter with the real CLI', () => {
  it(
    'success: the file is written, the tool call and result are in the transcript, usage is set',
    async () => {
      const r = await runCliCase({
        agent,
        tape: successTape,
        prompt: PROMPT,
        timeoutMs: 90_000,
        maxRetries: 1,
      });
      const t = r.transcript;
      const why = explain(r);
      expect(t.error, why).toBeUndefined();
      expect(t.exitCode, why).toBe(0);
      expect(r.files['out.txt'], why).toBe('hello\n');
      expect(toolCalls(t), why).toMatchObject([
        { name: 'run_shell_command', input: { command: 'echo hello > out.txt && ls' } },
      ]);
      expect(toolResults(t), why).toMatchObject([{ isError: false }]);
      expect(t.result, why).toBe(FINAL);
      expect(t.usage.input, why).toBeGreaterThan(0);
      expect(r.leftovers).toEqual([]);
    },
    T,
  );

  it(
    'failing tool: the exit code (missing from stream-json) comes from the chat record',
    async () => {
      const r = await runCliCase({
        agent,
        tape: failingToolTape,
        prompt: PROMPT,
        timeoutMs: 90_000,
        maxRetries: 1,
      });
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(toolResults(r.transcript), why).toMatchObject([{ isError: true, exitCode: 2 }]);
    },
    T,
  );

  it(
    'crash: a rejected API key is an auth error even though Qwen exits 0',
    async () => {
      const r = await runCliCase({
        agent,
        tape: authFaultTape,
        prompt: PROMPT,
        timeoutMs: 90_000,
        maxRetries: 1,
      });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'auth' });
    },
    T,
  );

  it(
    'hang: a model that never answers ends in a timeout and the process group is gone',
    async () => {
      const r = await runCliCase({ agent, tape: hangTape, prompt: PROMPT, timeoutMs: 10_000, maxRetries: 1 });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'timeout' });
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );

  it(
    'MCP servers from settings.json are used; skills land in ~/.qwen/skills; the model reaches the provider',
    async () => {
      const r = await runCliCase({
        agent: agentEntry('qwen-code', { model: 'qwen3-coder-plus' }),
        tape: qwenMcpTape,
        prompt: PROMPT,
        timeoutMs: 90_000,
        maxRetries: 1,
        mcpServers: MCP_SERVERS,
        skills: SKILLS,
        listHome: true,
      });
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(
        toolCalls(r.transcript).map((c) => c.name),
        why,
      ).toEqual(['tool_search', 'mcp__docs__echo']);
      expect(toolResults(r.transcript)[1]?.output, why).toContain('echo: ping [from-env]');
      expect(r.homeFiles, why).toEqual(
        expect.arrayContaining(['.qwen/settings.json', '.qwen/skills/axis-demo/SKILL.md']),
      );
      expect(
        r.requests.filter((q) => q.model).map((q) => q.model),
        why,
      ).toContain('qwen3-coder-plus');
    },
    T,
  );
});
