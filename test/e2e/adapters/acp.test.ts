import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAcpAdapter } from '../../../src/adapters/acp.js';
import { agentEntry, FIXTURES, runAdapter, toolCalls, toolResults } from './helpers.js';

const adapter = createAcpAdapter({ configDir: FIXTURES });
const fixture = agentEntry('acp', {
  name: 'fixture',
  command: process.execPath,
  args: [join(FIXTURES, 'acp-agent/agent.mjs')],
});

describe('acp adapter with the fixture agent', () => {
  it('maps text, tool calls and their updates; writes inside the workspace', async () => {
    const out = await runAdapter(adapter, { agent: fixture, prompt: 'Write hello', keep: true });
    const t = out.transcript;
    try {
      expect(t.error).toBeUndefined();
      expect(t.exitCode).toBe(0);
      expect(readFileSync(join(out.ws.work, 'hello.txt'), 'utf8')).toBe('hello from acp');
      const calls = toolCalls(t);
      expect(calls.map((c) => c.name)).toEqual(['Write hello.txt', 'ls']);
      expect(calls[0]).toMatchObject({ toolKind: 'edit', input: { content: 'hello from acp' } });
      const results = toolResults(t);
      expect(results[0]).toMatchObject({ isError: false, output: 'wrote 14 bytes (permission once)' });
      expect(results[1]).toMatchObject({ isError: false, exitCode: 0 });
      expect(t.result).toBe('Done: hello.txt written.');
      expect(t.usage).toMatchObject({ input: 120, output: 30 });
      expect(t.events[0]).toMatchObject({ kind: 'user', text: 'Write hello' });
      expect(out.rawLines.some((l) => l.includes('session/update'))).toBe(true);
      expect(out.leftovers).toEqual([]);
    } finally {
      await out.cleanup();
    }
  });
});

describe('acp adapter outcomes', () => {
  it('a failed tool update is an error result with its exit code', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: fixture, prompt: 'FAIL_TOOL' });
    expect(t.error).toBeUndefined();
    expect(toolResults(t)[1]).toMatchObject({ isError: true, exitCode: 1 });
  });

  it('file requests outside the workspace (or relative) are refused and recorded', async () => {
    const out = await runAdapter(adapter, { agent: fixture, prompt: 'OUTSIDE', keep: true });
    try {
      const t = out.transcript;
      expect(t.error).toBeUndefined();
      expect(t.result).toMatch(
        /read: refused \(.*outside the workspace.*\); write: refused \(.*\); relative: refused \(.*absolute.*\)$/,
      );
      expect(existsSync(join(out.ws.root, 'outside.txt'))).toBe(false);
      const refusals = t.events.filter((e) => e.kind === 'system' && e.subtype === 'fs_refused');
      expect(refusals).toHaveLength(3);
    } finally {
      await out.cleanup();
    }
  });

  it('a write through a broken link leading out of the workspace is refused', async () => {
    const out = await runAdapter(adapter, { agent: fixture, prompt: 'LINK_OUT', keep: true });
    try {
      const t = out.transcript;
      expect(t.error).toBeUndefined();
      expect(t.result).toMatch(/write: refused \(.*outside the workspace.*\)$/);
      expect(existsSync(join(out.ws.root, 'linked-out.txt'))).toBe(false);
    } finally {
      await out.cleanup();
    }
  });

  it('a read of a FIFO in the workspace is refused at once, never left waiting for a writer', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: fixture, prompt: 'FIFO_READ' });
    expect(t.error).toBeUndefined();
    expect(t.result).toMatch(/read: refused \(.*expected a regular file, found a FIFO \(named pipe\)\)$/);
  });

  it('a write to a FIFO in the workspace is refused at once, never left waiting for a reader', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: fixture, prompt: 'FIFO_WRITE' });
    expect(t.error).toBeUndefined();
    expect(t.result).toMatch(/write: refused \(.*expected a regular file, found a FIFO \(named pipe\)\)$/);
  });

  it('an error answering session/prompt becomes the run error with its class', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: fixture, prompt: 'PROMPT_ERROR' });
    expect(t.error).toMatchObject({ class: 'api_error', httpStatus: 500 });
    expect(t.result).toBeNull();
  });

  it('an agent that dies mid-prompt is a crash naming its exit code', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: fixture, prompt: 'CRASH' });
    expect(t.error?.class).toBe('crash');
    expect(t.error?.message).toContain('exited with code 3');
    expect(t.exitCode).toBe(3);
  });

  it('a hanging agent times out; its whole process group (with a grandchild) is gone', async () => {
    const out = await runAdapter(adapter, { agent: fixture, prompt: 'HANG', timeoutMs: 1500 });
    expect(out.transcript.error?.class).toBe('timeout');
    expect(out.transcript.result).toBeNull();
    expect(out.leftovers).toEqual([]);
  });

  it('an abort carries the class of its reason', async () => {
    const ac = new AbortController();
    setTimeout(
      () =>
        ac.abort(Object.assign(new Error('Overall time limit reached'), { errorClass: 'limit_exceeded' })),
      500,
    );
    const out = await runAdapter(adapter, { agent: fixture, prompt: 'HANG', signal: ac.signal });
    expect(out.transcript.error).toMatchObject({
      class: 'limit_exceeded',
      message: 'Overall time limit reached',
    });
    expect(out.leftovers).toEqual([]);
  });

  it('MCP servers reach session/new as ACP name/value lists', async () => {
    const { transcript: t } = await runAdapter(adapter, {
      agent: fixture,
      prompt: 'ECHO_MCP',
      mcpServers: {
        'docs.v1': { type: 'stdio', command: 'docs-server', args: ['--stdio'], env: { TOKEN: 'x' } },
        remote: { type: 'http', url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer y' } },
      },
    });
    expect(JSON.parse(t.result ?? 'null')).toEqual([
      { name: 'docs.v1', command: 'docs-server', args: ['--stdio'], env: [{ name: 'TOKEN', value: 'x' }] },
      {
        type: 'http',
        name: 'remote',
        url: 'https://mcp.example.test/mcp',
        headers: [{ name: 'Authorization', value: 'Bearer y' }],
      },
    ]);
  });

  const authAgent = agentEntry('acp', {
    name: 'fixture',
    command: process.execPath,
    args: [join(FIXTURES, 'acp-agent/agent.mjs'), '--auth', 'AXIS_FIXTURE_KEY'],
  });

  it('an agent that needs authentication is authenticated with the env_var method whose variable is set', async () => {
    const { transcript: t } = await runAdapter(adapter, {
      agent: authAgent,
      prompt: 'AUTH',
      env: { AXIS_FIXTURE_KEY: 'k' },
    });
    expect(t.error).toBeUndefined();
    expect(t.result).toBe('authenticated with env-key');
    expect(t.events.find((e) => e.kind === 'system' && e.subtype === 'authenticate')).toMatchObject({
      data: { method: 'env-key' },
    });
  });

  it('without the variable, the auth error names the methods the agent offers', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: authAgent, prompt: 'AUTH' });
    expect(t.error).toMatchObject({ class: 'auth' });
    expect(t.error?.message).toContain('failed at session/new: Authentication required');
    expect(t.error?.message).toContain(
      'the agent offers: Log in with a browser; Use AXIS_FIXTURE_UNSET (set AXIS_FIXTURE_UNSET and list it under "env"); Use AXIS_FIXTURE_KEY (set AXIS_FIXTURE_KEY and list it under "env")',
    );
  });

  it('a missing agent binary is a crash naming it', async () => {
    const { transcript: t } = await runAdapter(adapter, {
      agent: agentEntry('acp', { command: './acp-agent/missing.mjs' }),
    });
    expect(t.error?.class).toBe('crash');
    expect(t.error?.message).toContain('./acp-agent/missing.mjs');
  });

  it("a preset's npm package is suggested for its own command only, not for one the entry chose", async () => {
    const own = agentEntry('acp', {
      name: 'copilot',
      preset: 'copilot',
      command: 'copilot',
      args: ['--acp'],
    });
    const mine = { ...own, command: 'copilot-nightly-axis-test' };
    const env = { PATH: '/nonexistent' };
    const a = await runAdapter(adapter, { agent: own, env });
    expect(a.transcript.error?.message).toContain('Install it with: npm install -D @github/copilot');
    const b = await runAdapter(adapter, { agent: mine, env });
    expect(b.transcript.error?.message).toContain('"copilot-nightly-axis-test" was not found');
    expect(b.transcript.error?.message).not.toContain('npm install');
  });
});
