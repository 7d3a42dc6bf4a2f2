import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { AGENT_CLIS, clientSetup, startSimulator } from '../../../src/sim/index.js';

const base = { baseUrl: 'https://models.example.test/', apiKey: 'sk-secret-123', home: '/h' };
const fileOf = (setup: ReturnType<typeof clientSetup>, suffix: string) => {
  const f = setup.files.find((x) => x.path.endsWith(suffix));
  if (!f) throw new Error(`no file ${suffix}`);
  return f;
};

describe('clientSetup: pointing each CLI at a provider', () => {
  it('Claude Code: base URL, key, telemetry and nonessential traffic off, retry cap, IS_SANDBOX only as root', () => {
    const s = clientSetup('claude', { ...base, maxRetries: 1, isRoot: true, model: 'claude-sonnet-4-5' });
    expect(s.files).toEqual([]);
    expect(s.env).toMatchObject({
      HOME: '/h',
      ANTHROPIC_BASE_URL: 'https://models.example.test',
      ANTHROPIC_API_KEY: 'sk-secret-123',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '1',
      IS_SANDBOX: '1',
      ANTHROPIC_MODEL: 'claude-sonnet-4-5',
    });
    expect(clientSetup('claude', { ...base, isRoot: false }).env).not.toHaveProperty('IS_SANDBOX');
    expect(clientSetup('claude', base).env).not.toHaveProperty('CLAUDE_CODE_MAX_RETRIES');
  });

  it('Codex: config.toml with a responses provider, env_key and retry caps; the key only in env', () => {
    const s = clientSetup('codex', { ...base, maxRetries: 1 });
    expect(s.env).toMatchObject({ CODEX_HOME: '/h/.codex', AXIS_CODEX_API_KEY: 'sk-secret-123' });
    const toml = parseToml(fileOf(s, '.codex/config.toml').content);
    expect(fileOf(s, 'config.toml').path).toBe('/h/.codex/config.toml');
    expect(toml).toEqual({
      model: 'axis-sim',
      model_provider: 'axis',
      model_providers: {
        axis: {
          name: 'AXIS provider',
          base_url: 'https://models.example.test/v1',
          wire_api: 'responses',
          env_key: 'AXIS_CODEX_API_KEY',
          request_max_retries: 1,
          stream_max_retries: 1,
        },
      },
    });
  });

  it('Gemini CLI: settings.json pins gemini-api-key auth, telemetry off, attempts from maxRetries', () => {
    const s = clientSetup('gemini', { ...base, maxRetries: 0, model: 'gemini-2.5-flash' });
    expect(s.env).toMatchObject({
      GOOGLE_GEMINI_BASE_URL: 'https://models.example.test',
      GEMINI_API_KEY: 'sk-secret-123',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    });
    expect(JSON.parse(fileOf(s, '/h/.gemini/settings.json').content)).toEqual({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true, maxAttempts: 1 },
      model: { name: 'gemini-2.5-flash' },
    });
  });

  it('Qwen Code: OpenAI env and settings.json with openai auth and telemetry off', () => {
    const s = clientSetup('qwen', { ...base, maxRetries: 0 });
    expect(s.env).toMatchObject({
      OPENAI_BASE_URL: 'https://models.example.test/v1',
      OPENAI_API_KEY: 'sk-secret-123',
      OPENAI_MODEL: 'axis-sim',
    });
    expect(JSON.parse(fileOf(s, '/h/.qwen/settings.json').content)).toEqual({
      security: { auth: { selectedType: 'openai' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true },
      tools: { shell: { enableInteractiveShell: false } },
      model: { generationConfig: { maxRetries: 0 } },
    });
  });

  it('opencode: openai-compatible provider whose key is read from the environment', () => {
    const s = clientSetup('opencode', { ...base, model: 'm1' });
    expect(s.env).toMatchObject({
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      AXIS_OPENCODE_API_KEY: 'sk-secret-123',
      XDG_CONFIG_HOME: '/h/.config',
    });
    const config = JSON.parse(fileOf(s, '/h/.config/opencode/opencode.json').content);
    expect(config).toMatchObject({
      provider: {
        axis: {
          npm: '@ai-sdk/openai-compatible',
          options: { baseURL: 'https://models.example.test/v1', apiKey: '{env:AXIS_OPENCODE_API_KEY}' },
          models: { m1: { tool_call: true } },
        },
      },
      model: 'axis/m1',
      small_model: 'axis/m1',
      autoupdate: false,
      share: 'disabled',
    });
  });

  it('never writes the API key into a file, and uses ~/ paths without a home', () => {
    for (const cli of AGENT_CLIS) {
      const s = clientSetup(cli, base);
      for (const f of s.files) expect(f.content, `${cli} ${f.path}`).not.toContain('sk-secret-123');
      const noHome = clientSetup(cli, { baseUrl: base.baseUrl, apiKey: 'k' });
      expect(noHome.env).not.toHaveProperty('HOME');
      for (const f of noHome.files) expect(f.path.startsWith('~/')).toBe(true);
    }
  });

  it('an unknown CLI (a JavaScript caller) is a clear error naming the ones it knows', () => {
    for (const cli of ['cursor', 'toString', '__proto__']) {
      expect(() => clientSetup(cli as never, base)).toThrow(
        `clientSetup: unknown agent CLI "${cli}"; expected claude, codex, gemini, qwen, opencode`,
      );
    }
  });

  it('simulator.clientEnv points at the running simulator', async () => {
    const sim = await startSimulator({ tape: { turns: [] } });
    try {
      expect(sim.clientEnv('claude', { home: '/h' }).env.ANTHROPIC_BASE_URL).toBe(sim.url);
      expect(sim.clientEnv('qwen').env.OPENAI_BASE_URL).toBe(`${sim.url}/v1`);
    } finally {
      await sim.close();
    }
  });
});
