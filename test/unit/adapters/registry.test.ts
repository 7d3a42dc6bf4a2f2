import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS, BUILTIN_AGENT_NAMES } from '../../../src/config/agents.js';
import { getAdapter } from '../../../src/adapters/registry.js';
import { agentRows } from '../../../src/cli/commands/agents.js';

describe('built-in adapters', () => {
  it('exist for every built-in agent name and agree with the config capability table', async () => {
    for (const name of BUILTIN_AGENT_NAMES) {
      const a = await getAdapter(name, { configDir: '/cfg', config: { adapters: {} } });
      expect(a.name, name).toBe(name);
      expect({ acceptsModel: a.acceptsModel, acceptsFlags: a.acceptsFlags }, name).toEqual({
        acceptsModel: BUILTIN_AGENTS[name].acceptsModel,
        acceptsFlags: BUILTIN_AGENTS[name].acceptsFlags,
      });
      expect(typeof a.providerEnvFor, name).toBe('function');
    }
  });

  it('axis agents names every credential variable each adapter accepts', async () => {
    const needs = new Map(agentRows().map((r) => [r.name, r.needs]));
    for (const name of BUILTIN_AGENT_NAMES) {
      const a = await getAdapter(name, { configDir: '/cfg', config: { adapters: {} } });
      for (const v of a.auth?.envVars ?? []) expect(needs.get(name), `${name}: ${v}`).toContain(v);
    }
  });

  it('point each CLI at a provider root through its own variables', async () => {
    const src = { configDir: '/cfg', config: { adapters: {} } };
    const env = async (n: string) =>
      (await getAdapter(n, src)).providerEnvFor!('http://127.0.0.1:4100/', 'k');
    expect(await env('claude-code')).toEqual({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4100',
      ANTHROPIC_API_KEY: 'k',
    });
    expect(await env('codex')).toEqual({ OPENAI_BASE_URL: 'http://127.0.0.1:4100/v1', OPENAI_API_KEY: 'k' });
    expect(await env('gemini')).toEqual({
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:4100',
      GEMINI_API_KEY: 'k',
    });
    expect(Object.keys(await env('command')).sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_BASE_URL',
      'GEMINI_API_KEY',
      'GOOGLE_GEMINI_BASE_URL',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
    ]);
  });

  it('pass no host keys to command and acp agents unless the config lists them', async () => {
    const src = { configDir: '/cfg', config: { adapters: {} } };
    expect((await getAdapter('command', src)).providerEnv).toEqual([]);
    expect((await getAdapter('acp', src)).providerEnv).toEqual([]);
    expect((await getAdapter('claude-code', src)).providerEnv).toContain('ANTHROPIC_API_KEY');
  });
});
