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
const agent = agentEntry('opencode');

describe('opencode adapter with the real CLI', () => {
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
        { name: 'bash', input: { command: 'echo hello > out.txt && ls' } },
      ]);
      expect(toolResults(t), why).toMatchObject([{ isError: false }]);
      expect(t.result, why).toBe(FINAL);
      expect(t.usage.input, why).toBeGreaterThan(0);
      expect(r.leftovers).toEqual([]);
    },
    T,
  );

  it(
    'failing tool: the non-zero exit shows as isError with its exit code',
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
    'MCP servers from settings.json are used; skills land in the XDG config dir; the model reaches the provider',
    async () => {
      const r = await runCliCase({
        agent: agentEntry('opencode', { model: 'gpt-4.1-mini' }),
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
