import { describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../../../../src/adapters/types.js';
import type { ResolvedAgent, ResolvedJudge } from '../../../../src/config/types.js';
import { httpJudge, resolveJudge } from '../../../../src/scoring/judges/resolve.js';
import { AxisError } from '../../../../src/util/errors.js';

const agent = (name: string, adapter = name): ResolvedAgent => ({
  name,
  agent: adapter,
  flags: {},
  env: {},
  skills: [],
  args: [],
});
const stubAdapter = (name: string): AgentAdapter => ({
  name,
  acceptsModel: true,
  acceptsFlags: true,
  providerEnv: [],
  run: () => Promise.reject(new Error('not run in this test')),
});
const loadAdapter = async (name: string) => stubAdapter(name);
const judge = (over: Partial<ResolvedJudge>): ResolvedJudge => ({
  provider: 'anthropic',
  agents: [],
  max_retries: 3,
  timeout_seconds: 120,
  ...over,
});
const under = agent('claude-code');

describe('resolveJudge defaults', () => {
  it('picks anthropic when its key or base URL is set', async () => {
    const c = await resolveJudge({
      agentUnderTest: under,
      hostEnv: { ANTHROPIC_API_KEY: 'sk-a', OPENAI_API_KEY: 'sk-o' },
      loadAdapter,
    });
    expect(c.client.label).toBe('anthropic claude-sonnet-4-5');
    expect(c.client.cacheId).toBe('anthropic|claude-sonnet-4-5|https://api.anthropic.com');
    expect(c.warning).toBeUndefined();
    const proxy = await resolveJudge({
      agentUnderTest: under,
      hostEnv: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999' },
      loadAdapter,
    });
    expect(proxy.client.cacheId).toBe('anthropic|claude-sonnet-4-5|http://127.0.0.1:9999');
  });

  it('then openai when only OPENAI_API_KEY is set', async () => {
    const c = await resolveJudge({ agentUnderTest: under, hostEnv: { OPENAI_API_KEY: 'sk-o' }, loadAdapter });
    expect(c.client.label).toBe('openai gpt-4.1');
  });

  it('else the agent under test judges itself, with a warning', async () => {
    const c = await resolveJudge({ agentUnderTest: under, hostEnv: {}, loadAdapter });
    expect(c.client.provider).toBe('agent');
    expect(c.client.label).toBe('agent claude-code');
    expect(c.warning).toMatch(/agent under test \(claude-code\) judged its own run/);
  });

  it('a plain command agent is never its own judge', async () => {
    await expect(
      resolveJudge({ agentUnderTest: agent('echo', 'command'), hostEnv: {}, loadAdapter }),
    ).rejects.toThrow(/the agent under test \(echo\) is a plain command that cannot judge/);
  });

  it('in simulate mode the simulator judges over the Messages API (Chat Completions for openai)', async () => {
    const c = await resolveJudge({
      agentUnderTest: under,
      hostEnv: { OPENAI_API_KEY: 'k' },
      simulatorUrl: 'http://127.0.0.1:4000',
      loadAdapter,
    });
    expect(c.client.label).toBe('anthropic axis-simulated-judge (simulator)');
    expect(c.client.cacheId).toBeNull();
    const o = await resolveJudge({
      judge: judge({ provider: 'openai', model: 'm' }),
      agentUnderTest: under,
      simulatorUrl: 'http://127.0.0.1:4000',
      loadAdapter,
    });
    expect(o.client.label).toBe('openai m (simulator)');
  });
});

describe('configured judges', () => {
  it('agent judge: the first judge agent with another adapter, else the first with a warning', async () => {
    const j = judge({ provider: 'agent', agents: [agent('claude-code'), agent('codex')] });
    const other = await resolveJudge({ judge: j, agentUnderTest: under, hostEnv: {}, loadAdapter });
    expect(other.client.label).toBe('agent codex');
    expect(other.warning).toBeUndefined();
    const same = await resolveJudge({
      judge: judge({ provider: 'agent', agents: [agent('cc-judge', 'claude-code')] }),
      agentUnderTest: under,
      hostEnv: {},
      loadAdapter,
    });
    expect(same.client.label).toBe('agent cc-judge');
    expect(same.warning).toMatch(/same adapter \(claude-code\)/);
  });

  it('api_key_env names the variable; a missing one is an error before any run', () => {
    const retry = { maxRetries: 0, timeoutMs: 1000 };
    expect(httpJudge(judge({ api_key_env: 'MY_KEY' }), { MY_KEY: 'x' }, retry)?.label).toBe(
      'anthropic claude-sonnet-4-5',
    );
    expect(() => httpJudge(judge({ api_key_env: 'MY_KEY' }), {}, retry)).toThrow(
      'judge.api_key_env: the variable MY_KEY is not set',
    );
    const err = (() => {
      try {
        httpJudge(judge({}), {}, retry);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AxisError);
    expect((err as AxisError).exitCode).toBe(2);
  });

  it('openai: a base_url makes the key optional (Ollama, vLLM, LM Studio)', () => {
    const retry = { maxRetries: 0, timeoutMs: 1000 };
    const local = httpJudge(
      judge({ provider: 'openai', model: 'llama3.1', base_url: 'http://localhost:11434/v1' }),
      {},
      retry,
    );
    expect(local?.cacheId).toBe('openai|llama3.1|http://localhost:11434/v1');
    expect(() => httpJudge(judge({ provider: 'openai' }), {}, retry)).toThrow(/OPENAI_API_KEY/);
    expect(httpJudge(judge({ provider: 'agent' }), {}, retry)).toBeUndefined();
  });
});
