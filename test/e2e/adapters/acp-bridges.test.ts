/**
 * The Claude and Codex ACP bridges (pinned devDependencies) through the `acp` adapter as the presets
 * `claude-acp` and `codex-acp`, against the simulator in a loopback-only network namespace where
 * permitted: the write, the answer, the isolated home the preset prepares, MCP servers handed over in
 * `session/new`, a rejected key, a model that never answers.
 */
import { describe, expect, it } from 'vitest';
import { ACP_PRESETS } from '../../../src/config/catalogue.js';
import {
  authFaultTape,
  explain,
  FINAL,
  hangTape,
  MCP_SERVERS,
  mcpTape,
  netnsAvailable,
  PROMPT,
  runCliCase,
  toolCalls,
  toolResults,
  type CliCase,
} from './cli-harness.js';
import { agentEntry } from './helpers.js';

const T = 90_000;
const writeTape = {
  name: 'write a file',
  turns: [
    { text: 'Creating the file.', tools: [{ write_file: { path: 'out.txt', content: 'hello\n' } }] },
    { text: FINAL },
  ],
};

function preset(name: 'claude-acp' | 'codex-acp') {
  const p = ACP_PRESETS[name]!;
  return agentEntry('acp', { name, preset: name, command: p.command, args: [...p.args] });
}

function run(name: 'claude-acp' | 'codex-acp', extra: Partial<CliCase>) {
  return runCliCase({
    agent: preset(name),
    tape: writeTape,
    prompt: PROMPT,
    timeoutMs: 60_000,
    maxRetries: 0,
    listHome: true,
    ...extra,
  });
}

describe('claude-acp: @zed-industries/claude-code-acp for real', () => {
  it(
    'writes through the ACP client inside the workspace; Claude Code settings stay in the job home',
    async () => {
      const r = await run('claude-acp', {});
      const t = r.transcript;
      const why = explain(r);
      expect(t.error, why).toBeUndefined();
      expect(r.files['out.txt'], why).toBe('hello\n');
      expect(toolCalls(t), why).toMatchObject([{ name: 'Write', toolKind: 'edit' }]);
      expect(toolResults(t), why).toMatchObject([{ isError: false }]);
      expect(t.result, why).toBe(FINAL);
      // The write went through the bridge's own tool, which asks the client (AXIS) for permission.
      expect(
        r.requests.some((q) => q.tools.includes('mcp__acp__Write') && !q.tools.includes('Write')),
        why,
      ).toBe(true);
      const permission = t.events.find((e) => e.kind === 'system' && e.subtype === 'permission');
      expect(permission, why).toBeDefined();
      // CLAUDE_CONFIG_DIR is the job home's .claude: Claude Code keeps its state there, not in ~/.claude.json.
      expect(r.homeFiles, why).toContain('.claude/.claude.json');
      expect(r.homeFiles, why).not.toContain('.claude.json');
      expect(
        r.requests.every((q) => q.status === 200),
        why,
      ).toBe(true);
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );

  it(
    'MCP servers from session/new start and their tools are called',
    async () => {
      const r = await run('claude-acp', { tape: mcpTape, mcpServers: MCP_SERVERS });
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      expect(toolCalls(r.transcript), why).toMatchObject([{ name: 'mcp__docs__echo' }]);
      expect(toolResults(r.transcript)[0]?.isError, why).toBe(false);
      expect(JSON.stringify(toolResults(r.transcript)[0]?.output), why).toContain('ping');
      expect(r.transcript.result, why).toBe('MCP answered.');
    },
    T,
  );
});

describe('codex-acp: @zed-industries/codex-acp for real', () => {
  it(
    'runs the write as a shell command in the workspace; config.toml in the job CODEX_HOME names the provider',
    async () => {
      const r = await run('codex-acp', {});
      const t = r.transcript;
      const why = explain(r);
      expect(t.error, why).toBeUndefined();
      expect(r.files['out.txt'], why).toBe('hello\n');
      expect(toolCalls(t), why).toHaveLength(1);
      expect(toolCalls(t)[0], why).toMatchObject({ toolKind: 'execute' });
      expect(JSON.stringify(toolCalls(t)[0]?.input), why).toContain("> 'out.txt'");
      expect(toolResults(t), why).toMatchObject([{ isError: false, exitCode: 0 }]);
      expect(t.result, why).toBe(FINAL);
      expect(r.homeFiles, why).toContain('.codex/config.toml');
      expect(
        r.requests.every((q) => q.path === '/v1/responses' && q.status === 200),
        why,
      ).toBe(true);
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );

  // Without a base URL the bridge uses OpenAI itself: only where the namespace keeps it offline.
  it.skipIf(!netnsAvailable())(
    "with a real provider's key and no base URL, AXIS authenticates the bridge with it (env_var method)",
    async () => {
      const agent = { ...preset('codex-acp'), env: { OPENAI_API_KEY: 'sk-axis-test-not-a-key' } };
      const r = await run('codex-acp', { agent, providerEnv: false, timeoutMs: 6_000 });
      const why = explain(r);
      const auth = r.transcript.events.find((e) => e.kind === 'system' && e.subtype === 'authenticate');
      expect(auth, why).toMatchObject({ data: { method: 'codex-api-key' } });
      expect(r.homeFiles, why).toContain('.codex/auth.json');
      // Past session/new: the prompt then fails to reach api.openai.com from the namespace.
      expect(r.transcript.error?.message ?? '', why).not.toContain('session/new');
      expect(r.requests, why).toEqual([]);
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );
});

describe.each(['claude-acp', 'codex-acp'] as const)('%s: failures', (name) => {
  it(
    'a rejected key ends the run with error class auth',
    async () => {
      const r = await run(name, { tape: authFaultTape });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'auth' });
      expect(r.transcript.result, why).toBeNull();
    },
    T,
  );

  it(
    'a model that never answers ends in a timeout; the bridge and the agent under it are gone',
    async () => {
      const r = await run(name, { tape: hangTape, timeoutMs: 4_000 });
      const why = explain(r);
      expect(r.transcript.error, why).toMatchObject({ class: 'timeout' });
      expect(r.leftovers, why).toEqual([]);
    },
    T,
  );
});
