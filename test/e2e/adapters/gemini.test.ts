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
import { agentEntry } from './helpers.js';

const T = 120_000;
const agent = agentEntry('gemini', { model: 'gemini-2.5-flash' });

describe('gemini adapter with the real CLI', () => {
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
      expect(
        r.requests.every((q) => q.model === undefined || q.model === 'gemini-2.5-flash'),
        why,
      ).toBe(true);
      expect(r.leftovers).toEqual([]);
    },
    T,
  );

  it(
    'failing tool: the exit code (missing from stream-json) comes from the session record',
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
    'crash: a rejected API key ends the run with error class auth',
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
      expect(r.transcript.result, why).toBeNull();
    },
    T,
  );

  it(
    'hang: a model that never answers ends in a timeout and the process group is gone',
    async () => {
      const r = await runCliCase({ agent, tape: hangTape, prompt: PROMPT, timeoutMs: 8_000, maxRetries: 1 });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'timeout' });
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );

  it(
    'MCP servers from settings.json are used; skills land in ~/.gemini/skills; no -m means the documented default',
    async () => {
      const r = await runCliCase({
        agent: agentEntry('gemini'),
        tape: mcpTape,
        prompt: PROMPT,
        timeoutMs: 90_000,
        maxRetries: 1,
        mcpServers: MCP_SERVERS,
        skills: SKILLS,
        listHome: true,
      });
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
