import { describe, expect, it } from 'vitest';
import { explain, mcpTape, toolCalls, toolResults } from './cli-harness.js';
import { commonAdapterCases, runMcpSpec, type AdapterSpec } from './common-cases.js';
import { agentEntry } from './helpers.js';

const T = 120_000;
const agent = agentEntry('opencode');
const spec: AdapterSpec = {
  agent,
  testTimeoutMs: T,
  runTimeoutMs: 90_000,
  hangTimeoutMs: 10_000,
  success: {
    titleEnd: 'usage is set',
    toolCalls: [{ name: 'bash', input: { command: 'echo hello > out.txt && ls' } }],
    toolResults: [{ isError: false }],
    usage: 'input',
  },
  crash: { error: { class: 'auth' } },
};

describe('opencode adapter with the real CLI', () => {
  commonAdapterCases(spec);

  it(
    'MCP servers from settings.json are used; skills land in the XDG config dir; the model reaches the provider',
    async () => {
      const r = await runMcpSpec(spec, agentEntry('opencode', { model: 'gpt-4.1-mini' }), mcpTape);
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(toolCalls(r.transcript)[0]?.name, why).toContain('echo');
      expect(toolResults(r.transcript)[0]?.output, why).toContain('echo: ping [from-env]');
      expect(r.homeFiles, why).toEqual(
        expect.arrayContaining([
          '.config/opencode/opencode.json',
          '.config/opencode/skills/axis-demo/SKILL.md',
        ]),
      );
      expect(
        r.requests.filter((q) => q.model).map((q) => q.model),
        why,
      ).toContain('gpt-4.1-mini');
    },
    T,
  );
});
