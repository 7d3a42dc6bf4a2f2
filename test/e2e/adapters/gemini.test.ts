import { describe, expect, it } from 'vitest';
import {
  explain,
  FINAL,
  mcpTape,
  PROMPT,
  runCliCase,
  successTape,
  toolCalls,
  toolResults,
} from './cli-harness.js';
import { commonAdapterCases, runMcpSpec, type AdapterSpec } from './common-cases.js';
import { agentEntry } from './helpers.js';

const T = 120_000;
const agent = agentEntry('gemini', { model: 'gemini-2.5-flash' });
const spec: AdapterSpec = {
  agent,
  testTimeoutMs: T,
  runTimeoutMs: 90_000,
  hangTimeoutMs: 8_000,
  success: {
    titleEnd: 'usage is set',
    toolCalls: [{ name: 'run_shell_command', input: { command: 'echo hello > out.txt && ls' } }],
    toolResults: [{ isError: false }],
    usage: 'input',
    check: (r, why) => {
      expect(
        r.requests.every((q) => q.model === undefined || q.model === 'gemini-2.5-flash'),
        why,
      ).toBe(true);
    },
  },
  failingToolTitle: 'the exit code (missing from stream-json) comes from the session record',
  crash: { error: { class: 'auth' }, nullResult: true },
};

describe('gemini adapter with the real CLI', () => {
  commonAdapterCases(spec);

  it(
    'MCP servers from settings.json are used; skills land in ~/.gemini/skills; no -m means the documented default',
    async () => {
      const r = await runMcpSpec(spec, agentEntry('gemini'), mcpTape);
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(toolCalls(r.transcript)[0]?.name, why).toContain('echo');
      expect(toolResults(r.transcript)[0]?.output, why).toContain('echo: ping [from-env]');
      expect(r.homeFiles, why).toEqual(
        expect.arrayContaining(['.gemini/settings.json', '.gemini/skills/axis-demo/SKILL.md']),
      );
      // An explicit model: no routing call before the first turn.
      expect(
        r.requests.filter((q) => q.model !== undefined).map((q) => q.model),
        why,
      ).toEqual(expect.arrayContaining(['gemini-2.5-pro']));
      expect(
        r.requests.some((q) => q.answer.kind === 'side'),
        why,
      ).toBe(false);
    },
    T,
  );

  it(
    'the acp adapter drives `gemini --acp` against the simulator',
    async () => {
      const settings = {
        security: { auth: { selectedType: 'gemini-api-key' } },
        telemetry: { enabled: false },
        privacy: { usageStatisticsEnabled: false },
      };
      const r = await runCliCase({
        agent: agentEntry('acp', {
          name: 'gemini-acp',
          command: '$gemini',
          args: ['--acp', '--skip-trust', '-m', 'gemini-2.5-flash'],
        }),
        tape: successTape,
        prompt: PROMPT,
        timeoutMs: 90_000,
        homeFiles: { '.gemini/settings.json': JSON.stringify(settings) },
      });
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(r.files['out.txt'], why).toBe('hello\n');
      expect(toolCalls(r.transcript).length, why).toBeGreaterThan(0);
      expect(toolResults(r.transcript)[0], why).toMatchObject({ isError: false });
      expect(r.transcript.result, why).toBe(FINAL);
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );
});
