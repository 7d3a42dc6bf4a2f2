import { describe, expect, it } from 'vitest';
import { explain, mcpTape, PROMPT, successTape, toolCalls, toolResults } from './cli-harness.js';
import { commonAdapterCases, runMcpSpec, runSpec, type AdapterSpec } from './common-cases.js';
import { agentEntry } from './helpers.js';

const T = 90_000;
const agent = agentEntry('claude-code');
const spec: AdapterSpec = {
  agent,
  testTimeoutMs: T,
  runTimeoutMs: 60_000,
  hangTimeoutMs: 3_000,
  success: {
    titleEnd: 'usage and cost are set',
    toolCalls: [{ name: 'Bash', input: { command: 'echo hello > out.txt && ls' } }],
    toolResults: [{ isError: false, output: 'out.txt' }],
    usage: 'total',
    check: (r, why) => {
      expect(r.usageUpdates, why).toBeGreaterThan(0);
      expect(r.transcript.costUsd, why).toBeGreaterThan(0);
    },
  },
  crash: { error: { class: 'auth' }, nonZeroExit: true },
  hang: { nullResult: true },
};

describe('claude-code adapter with the real CLI', () => {
  commonAdapterCases(spec);
});

describe('claude-code adapter: MCP, skills, large prompts', () => {
  it(
    'declared MCP servers are used (and only those); skills are installed in the config dir',
    async () => {
      const r = await runMcpSpec(spec, agent, mcpTape);
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(toolCalls(r.transcript), why).toMatchObject([
        { name: 'mcp__docs__echo', input: { text: 'ping' } },
      ]);
      expect(toolResults(r.transcript), why).toMatchObject([
        { isError: false, output: 'echo: ping [from-env]' },
      ]);
      expect(r.homeFiles, why).toEqual(
        expect.arrayContaining([
          '.claude/mcp.json',
          '.claude/skills/axis-demo/SKILL.md',
          '.claude/skills/axis-demo/helper.txt',
        ]),
      );
      expect(
        r.homeFiles.some((f) => f.includes('axis-demo/.git') || f.includes('axis-demo/node_modules')),
        why,
      ).toBe(false);
    },
    T,
  );

  it(
    'a prompt far above the 128 KiB argv limit reaches the model through stdin',
    async () => {
      const prompt = `${PROMPT}\n${'context line\n'.repeat(20_000)}`;
      const r = await runSpec(spec, successTape, { prompt });
      const why = explain(r);
      expect(prompt.length).toBeGreaterThan(200 * 1024);
      expect(r.transcript.error, why).toBeUndefined();
      expect(r.files['out.txt'], why).toBe('hello\n');
    },
    T,
  );

  it(
    'model and flags reach the CLI; dangerously-skip-permissions can be turned off',
    async () => {
      const r = await runSpec(spec, successTape, {
        agent: agentEntry('claude-code', {
          model: 'claude-sonnet-4-5',
          flags: { 'dangerously-skip-permissions': false, 'disallowed-tools': 'Bash' },
        }),
      });
      const why = explain(r);
      const modelCalls = r.requests.filter((q) => q.model !== undefined);
      expect(
        modelCalls.map((q) => q.model),
        why,
      ).toContain('claude-sonnet-4-5');
      // Bash is disallowed: it is not offered, so the shell step cannot run and no file appears.
      expect(
        modelCalls.some((q) => q.tools.includes('Bash')),
        why,
      ).toBe(false);
      expect(r.files['out.txt'], why).toBeUndefined();
    },
    T,
  );
});
