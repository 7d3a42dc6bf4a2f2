import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { presetHome } from '../../../src/adapters/acp-presets.js';
import { agent, AWKWARD_SERVERS, ctx } from './helpers.js';

const acp = (preset: string) => agent('acp', { name: preset, preset, command: preset });

describe('ACP preset homes', () => {
  it('claude: CLAUDE_CONFIG_DIR in the job home, telemetry off, the retry cap; the job env wins', () => {
    const c = ctx(acp('claude-acp'), { maxRetries: 1 });
    c.env = { ...c.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', DISABLE_TELEMETRY: '0' };
    const home = presetHome('claude', c);
    expect(home.files).toEqual([]);
    expect(home.env).toMatchObject({
      CLAUDE_CONFIG_DIR: '/jobs/j1/home/.claude',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '1',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      DISABLE_TELEMETRY: '0',
    });
  });

  it('codex: config.toml with the provider from OPENAI_BASE_URL, no approvals or sandbox, no MCP servers in the file', () => {
    const c = ctx(acp('codex-acp'), { mcpServers: AWKWARD_SERVERS, maxRetries: 2 });
    c.env = { ...c.env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'k' };
    const home = presetHome('codex', c);
    expect(home.files.map((f) => f.path)).toEqual(['/jobs/j1/home/.codex/config.toml']);
    const config = parseToml(home.files[0]!.content) as Record<string, unknown>;
    expect(config).toMatchObject({
      model_provider: 'axis',
      approval_policy: 'never',
      sandbox_mode: 'danger-full-access',
      analytics: { enabled: false },
      model_providers: {
        axis: { base_url: 'http://127.0.0.1:9/v1', wire_api: 'responses', request_max_retries: 2 },
      },
    });
    // They reach the bridge through session/new instead.
    expect(config.mcp_servers).toBeUndefined();
    expect(home.files[0]!.content).not.toContain('"k"');
    expect(home.env).toMatchObject({ CODEX_HOME: '/jobs/j1/home/.codex', AXIS_CODEX_API_KEY: 'k' });
  });

  it('codex without a base URL: the OpenAI provider, the key also as CODEX_API_KEY', () => {
    const c = ctx(acp('codex-acp'));
    c.env = { ...c.env, OPENAI_API_KEY: 'k' };
    const home = presetHome('codex', c);
    expect(parseToml(home.files[0]!.content)).not.toHaveProperty('model_provider');
    expect(home.env).toMatchObject({ CODEX_API_KEY: 'k', OPENAI_API_KEY: 'k' });
  });
});
