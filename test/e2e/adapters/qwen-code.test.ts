import { describe, expect, it } from 'vitest';
import { explain, mcpTape, toolCalls, toolResults } from './cli-harness.js';
import { commonAdapterCases, runMcpSpec, runSpec, type AdapterSpec } from './common-cases.js';
import { agentEntry } from './helpers.js';

const T = 120_000;
const agent = agentEntry('qwen-code');
const spec: AdapterSpec = {
  agent,
  testTimeoutMs: T,
  runTimeoutMs: 90_000,
  hangTimeoutMs: 10_000,
  success: {
    titleEnd: 'usage is set',
    toolCalls: [{ name: 'run_shell_command', input: { command: 'echo hello > out.txt && ls' } }],
    toolResults: [{ isError: false }],
    usage: 'input',
  },
  failingToolTitle: 'the exit code (missing from stream-json) comes from the chat record',
  crash: { title: 'a rejected API key is an auth error even though Qwen exits 0', error: { class: 'auth' } },
};
describe('qwen-code adapter with the real CLI', () => {
  commonAdapterCases(spec);

  it(
    'MCP servers from settings.json are used (the neutral MCP tape loads the deferred tool with tool_search first); skills land in ~/.qwen/skills; the model reaches the provider',
    async () => {
      const r = await runMcpSpec(spec, agentEntry('qwen-code', { model: 'qwen3-coder-plus' }), mcpTape);
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

  it(
    'a dropped stream: the partial text Qwen ends with "[API Error: terminated …]" (exit 0) is a run error, not an answer',
    async () => {
      const text = 'Here is a longer answer, long enough that half of the stream carries a part of it.';
      const tape = { name: 'drop', turns: [{ text, fault: { drop: 'mid-stream' as const } }] };
      const r = await runSpec(spec, tape);
      const why = explain(r);
      expect(r.transcript.result, why).toBeNull();
      expect(r.transcript.error?.message, why).toMatch(/^API Error: terminated/);
      const errors = r.transcript.events.filter((e) => e.kind === 'error');
      expect(errors, why).toHaveLength(1);
      const texts = r.transcript.events.filter((e) => e.kind === 'text');
      expect(texts.map((e) => e.text).join(''), why).not.toContain('API Error');
    },
    T,
  );

  it(
    "its own turn limit (--max-session-turns, exit 53) is limit_exceeded, as Claude Code's max-turns is, not a crash",
    async () => {
      const tape = {
        name: 'two turns',
        turns: [{ tools: [{ shell: 'echo one' }] }, { tools: [{ shell: 'echo two' }] }, { text: 'done' }],
      };
      const limited = agentEntry('qwen-code', { flags: { 'max-session-turns': '1' } });
      const r = await runSpec(spec, tape, { agent: limited });
      const why = explain(r);
      expect(r.transcript.exitCode, why).toBe(53);
      expect(r.transcript.error, why).toMatchObject({ class: 'limit_exceeded' });
      expect(r.transcript.error?.message, why).toContain('Reached max session turns');
    },
    T,
  );
});
