import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexInvocation } from '../../../src/adapters/codex.js';
import { explain, mcpTape, successTape, toolCalls, toolResults } from './cli-harness.js';
import { commonAdapterCases, runMcpSpec, runSpec, type AdapterSpec } from './common-cases.js';
import { agentEntry, ROOT } from './helpers.js';

const T = 90_000;
const agent = agentEntry('codex');
const spec: AdapterSpec = {
  agent,
  testTimeoutMs: T,
  runTimeoutMs: 60_000,
  hangTimeoutMs: 3_000,
  success: {
    titleEnd: 'usage is set',
    toolCalls: [{ name: 'shell' }],
    toolResults: [{ isError: false, exitCode: 0 }],
    usage: 'input',
    check: (r, why) => {
      expect(JSON.stringify(toolCalls(r.transcript)[0]?.input), why).toContain('echo hello > out.txt && ls');
      expect(r.transcript.sessionId, why).toBeTruthy();
    },
  },
  crash: { error: { class: 'auth', httpStatus: 401 }, nonZeroExit: true },
};

describe('codex adapter with the real CLI', () => {
  commonAdapterCases(spec);

  it(
    'MCP servers from config.toml start and a neutral MCP tape calls them; skills land in CODEX_HOME/skills; -m reaches the provider',
    async () => {
      const r = await runMcpSpec(spec, agentEntry('codex', { model: 'gpt-5-codex' }), mcpTape);
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      // Codex offers a connected server's tools inside one namespace tool `mcp__docs`; the simulator
      // lists them as mcp__docs__<tool> and calls them by name plus namespace.
      expect(r.requests[0]?.tools, why).toContain('mcp__docs__echo');
      expect(toolCalls(r.transcript), why).toMatchObject([
        { name: 'mcp__docs__echo', input: { text: 'ping' } },
      ]);
      expect(toolResults(r.transcript), why).toMatchObject([
        { isError: false, output: 'echo: ping [from-env]' },
      ]);
      expect(r.homeFiles, why).toEqual(
        expect.arrayContaining(['.codex/config.toml', '.codex/skills/axis-demo/SKILL.md']),
      );
      expect(
        r.requests.filter((q) => q.model).map((q) => q.model),
        why,
      ).toContain('gpt-5-codex');
    },
    T,
  );

  it(
    'a user sandbox replaces the bypass flag; commands --json leaves out come from the session rollout',
    async () => {
      const r = await runSpec(spec, successTape, {
        agent: agentEntry('codex', { flags: { sandbox: 'read-only' } }),
      });
      const why = explain(r);
      expect(r.transcript.error, why).toBeUndefined();
      // Read-only: the write fails, and `exec --json` prints no command item for it.
      expect(r.files['out.txt'], why).toBeUndefined();
      const calls = toolCalls(r.transcript);
      expect(calls, why).toHaveLength(1);
      expect(JSON.stringify(calls[0]?.input), why).toContain('echo hello > out.txt');
      expect(toolResults(r.transcript)[0], why).toMatchObject({ callId: calls[0]?.id });
    },
    T,
  );

  it('the generated config.toml loads in Codex itself, MCP server names with dots, spaces and quotes included', () => {
    const home = mkdtempSync(join(tmpdir(), 'axis-codex-toml-'));
    try {
      const inv = codexInvocation({
        agent,
        prompt: '',
        workDir: home,
        homeDir: home,
        tmpDir: home,
        env: { PATH: process.env.PATH ?? '', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'k' },
        mcpServers: {
          'docs.v1': { type: 'stdio', command: 'node', args: ['a b'], env: { 'X.Y': 'z' } },
          'with space': { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': 'v"q' } },
          'quo"te': { type: 'stdio', command: 'srv' },
        },
        skills: [],
        timeoutMs: 1,
        signal: new AbortController().signal,
      });
      for (const f of inv.files) {
        mkdirSync(dirname(f.path), { recursive: true });
        writeFileSync(f.path, f.content);
      }
      const run = spawnSync(join(ROOT, 'node_modules/.bin/codex'), ['mcp', 'list', '--json'], {
        env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: inv.codexHome },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const servers = JSON.parse(run.stdout) as Array<{ name: string; transport: Record<string, unknown> }>;
      const byName = Object.fromEntries(servers.map((s) => [s.name, s.transport]));
      expect(Object.keys(byName).sort()).toEqual(['docs.v1', 'quo"te', 'with space']);
      expect(byName['docs.v1']).toMatchObject({ type: 'stdio', command: 'node', args: ['a b'] });
      expect(byName['with space']).toMatchObject({
        type: 'streamable_http',
        http_headers: { 'X-Key': 'v"q' },
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
