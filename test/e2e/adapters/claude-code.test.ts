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
  SKILLS,
  runCliCase,
  successTape,
  toolCalls,
  toolResults,
} from './cli-harness.js';
import { agentEntry } from './helpers.js';

const T = 90_000;
const agent = agentEntry('claude-code');

describe('claude-code adapter with the real CLI', () => {
  it(
    'success: the file is written, the tool call and result are in the transcript, usage and cost are set',
    async () => {
      const r = await runCliCase({
        agent,
        tape: successTape,
        prompt: PROMPT,
        timeoutMs: 60_000,
        maxRetries: 1,
      });
      const t = r.transcript;
      const why = explain(r);
      expect(t.error, why).toBeUndefined();
      expect(t.exitCode, why).toBe(0);
      expect(r.files['out.txt'], why).toBe('hello\n');
      expect(toolCalls(t), why).toMatchObject([
        { name: 'Bash', input: { command: 'echo hello > out.txt && ls' } },
      ]);
      expect(toolResults(t), why).toMatchObject([{ isError: false, output: 'out.txt' }]);
      expect(t.result, why).toBe(FINAL);
      expect(t.usage.input + t.usage.output, why).toBeGreaterThan(0);
      expect(r.usageUpdates, why).toBeGreaterThan(0);
      expect(t.costUsd, why).toBeGreaterThan(0);
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
        timeoutMs: 60_000,
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
        timeoutMs: 60_000,
        maxRetries: 1,
      });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'auth' });
      expect(r.transcript.exitCode, why).not.toBe(0);
    },
    T,
  );

  it(
    'hang: a model that never answers ends in a timeout and the process group is gone',
    async () => {
      const r = await runCliCase({ agent, tape: hangTape, prompt: PROMPT, timeoutMs: 3_000, maxRetries: 1 });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'timeout' });
      expect(r.transcript.result, why).toBeNull();
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );
});

describe('claude-code adapter: MCP, skills, large prompts', () => {
  it(
    'declared MCP servers are used (and only those); skills are installed in the config dir',
    async () => {
      const r = await runCliCase({
        agent,
        tape: mcpTape,
        prompt: PROMPT,
        timeoutMs: 60_000,
        maxRetries: 1,
        mcpServers: MCP_SERVERS,
        skills: SKILLS,
        listHome: true,
      });
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
      const r = await runCliCase({ agent, tape: successTape, prompt, timeoutMs: 60_000, maxRetries: 1 });
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
      const r = await runCliCase({
        agent: agentEntry('claude-code', {
          model: 'claude-sonnet-4-5',
          flags: { 'dangerously-skip-permissions': false, 'disallowed-tools': 'Bash' },
        }),
        tape: successTape,
        prompt: PROMPT,
        timeoutMs: 60_000,
        maxRetries: 1,
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
