import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { claudeInvocation } from '../../../src/adapters/claude-code.js';
import { codexFlags, codexInvocation } from '../../../src/adapters/codex.js';
import { GEMINI_DEFAULT_MODEL, geminiInvocation } from '../../../src/adapters/gemini.js';
import { opencodeInvocation } from '../../../src/adapters/opencode.js';
import { qwenInvocation } from '../../../src/adapters/qwen-code.js';
import { agent, AWKWARD_SERVERS, ctx } from './helpers.js';

const isRoot = process.getuid?.() === 0;

describe('claude-code', () => {
  it('runs -p with stream-json, the prompt on stdin (never in argv), strict MCP and skip-permissions', () => {
    const inv = claudeInvocation(ctx(agent('claude-code'), { prompt: 'SECRET PROMPT' }));
    expect(inv.args).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--strict-mcp-config',
      '--dangerously-skip-permissions',
    ]);
    expect(inv.args.join(' ')).not.toContain('SECRET PROMPT');
    expect(inv.env).toMatchObject({
      CLAUDE_CONFIG_DIR: '/jobs/j1/home/.claude',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
    expect(inv.env.IS_SANDBOX).toBe(isRoot ? '1' : undefined);
    expect(inv.files).toEqual([]);
  });

  it('passes --model, user flags after the defaults, and writes mcp.json', () => {
    const inv = claudeInvocation(
      ctx(
        agent('claude-code', {
          model: 'claude-sonnet-4-5',
          flags: { 'max-turns': '3', 'dangerously-skip-permissions': false },
        }),
        {
          mcpServers: AWKWARD_SERVERS,
          maxRetries: 2,
        },
      ),
    );
    expect(inv.args).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'claude-sonnet-4-5',
      '--strict-mcp-config',
      '--mcp-config',
      '/jobs/j1/home/.claude/mcp.json',
      '--max-turns',
      '3',
    ]);
    expect(inv.env.IS_SANDBOX).toBeUndefined();
    expect(inv.env.CLAUDE_CODE_MAX_RETRIES).toBe('2');
    expect(JSON.parse(inv.files[0]?.content ?? '{}').mcpServers['quo"te\\back']).toMatchObject({
      command: 'srv',
    });
  });

  it('lets the job env override defaults but not the config dir', () => {
    const c = ctx(agent('claude-code'));
    c.env = { ...c.env, DISABLE_TELEMETRY: '0', CLAUDE_CONFIG_DIR: '/elsewhere' };
    const inv = claudeInvocation(c);
    expect(inv.env.DISABLE_TELEMETRY).toBe('0');
    expect(inv.env.CLAUDE_CONFIG_DIR).toBe('/jobs/j1/home/.claude');
  });
});

describe('codex', () => {
  it('reads the prompt from stdin with `-`, bypasses approvals, and keeps CODEX_HOME in the job home', () => {
    const inv = codexInvocation(ctx(agent('codex'), { env: { PATH: '/bin', OPENAI_API_KEY: 'sk-1' } }));
    expect(inv.args).toEqual([
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '-',
    ]);
    expect(inv.env.CODEX_HOME).toBe('/jobs/j1/home/.codex');
    // `codex exec` reads CODEX_API_KEY; an OpenAI key is handed over.
    expect(inv.env.CODEX_API_KEY).toBe('sk-1');
    const config = parseToml(inv.files[0]?.content ?? '');
    expect(config).toEqual({ analytics: { enabled: false }, check_for_update_on_startup: false });
  });

  it('writes the provider for OPENAI_BASE_URL (exact URL, key by variable name) and MCP servers', () => {
    const inv = codexInvocation(
      ctx(agent('codex', { model: 'gpt-5-codex' }), {
        env: {
          PATH: '/bin',
          OPENAI_BASE_URL: 'https://proxy.example.test/openai/v1/',
          OPENAI_API_KEY: 'sk-2',
        },
        mcpServers: AWKWARD_SERVERS,
        maxRetries: 1,
      }),
    );
    expect(inv.args).toContain('-m');
    expect(inv.args[inv.args.indexOf('-m') + 1]).toBe('gpt-5-codex');
    const text = inv.files[0]?.content ?? '';
    expect(text).not.toContain('sk-2');
    const config = parseToml(text) as Record<string, unknown>;
    expect(config.model).toBe('gpt-5-codex');
    const providers = config.model_providers as Record<string, Record<string, unknown>>;
    const provider = providers[config.model_provider as string];
    expect(provider).toMatchObject({
      base_url: 'https://proxy.example.test/openai/v1',
      wire_api: 'responses',
      request_max_retries: 1,
    });
    expect(inv.env[provider?.env_key as string]).toBe('sk-2');
    expect(Object.keys(config.mcp_servers as object).sort()).toEqual(Object.keys(AWKWARD_SERVERS).sort());
  });

  it('a user sandbox choice replaces the bypass default', () => {
    const skip = { 'skip-git-repo-check': true };
    expect(codexFlags({ sandbox: 'workspace-write' })).toEqual({ ...skip, sandbox: 'workspace-write' });
    // Codex no longer has --full-auto: upstream configs' `full-auto` is its workspace-write sandbox.
    expect(codexFlags({ 'full-auto': true })).toEqual({ ...skip, sandbox: 'workspace-write' });
    expect(codexFlags({ 'full-auto': true, sandbox: 'read-only' })).toEqual({
      ...skip,
      sandbox: 'read-only',
    });
    expect(codexFlags({ 'dangerously-bypass-approvals-and-sandbox': false })).toEqual({
      ...skip,
      'dangerously-bypass-approvals-and-sandbox': false,
    });
    expect(codexFlags({ search: true })).toEqual({
      ...skip,
      'dangerously-bypass-approvals-and-sandbox': true,
      search: true,
    });
  });
});

describe('gemini', () => {
  it('always passes a model (the documented default), --yolo, trust, and pins API-key auth', () => {
    const inv = geminiInvocation(ctx(agent('gemini'), { env: { PATH: '/bin', GOOGLE_API_KEY: 'g-1' } }));
    expect(inv.args).toEqual(['--output-format', 'stream-json', '-m', GEMINI_DEFAULT_MODEL, '--yolo']);
    expect(inv.env).toMatchObject({ GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_API_KEY: 'g-1' });
    const settings = JSON.parse(inv.files[0]?.content ?? '{}');
    expect(inv.files[0]?.path).toBe('/jobs/j1/home/.gemini/settings.json');
    expect(settings).toMatchObject({
      security: { auth: { selectedType: 'gemini-api-key' } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
    });
  });

  it('uses the configured model, an approval mode instead of --yolo, MCP servers in settings', () => {
    const inv = geminiInvocation(
      ctx(agent('gemini', { model: 'gemini-2.5-flash', flags: { 'approval-mode': 'auto_edit' } }), {
        mcpServers: AWKWARD_SERVERS,
      }),
    );
    expect(inv.args).toEqual([
      '--output-format',
      'stream-json',
      '-m',
      'gemini-2.5-flash',
      '--approval-mode',
      'auto_edit',
    ]);
    const settings = JSON.parse(inv.files[0]?.content ?? '{}');
    expect(Object.keys(settings.mcpServers)).toEqual(Object.keys(AWKWARD_SERVERS));
    // Its debug log alone names a server that did not start.
    expect(inv.env.GEMINI_DEBUG_LOG_FILE).toBe('/jobs/j1/home/.gemini/axis-debug.log');
  });

  it('writes a debug log only with MCP servers, and a log the agent env names wins', () => {
    expect(geminiInvocation(ctx(agent('gemini'))).env.GEMINI_DEBUG_LOG_FILE).toBeUndefined();
    const own = geminiInvocation(
      ctx(agent('gemini'), { mcpServers: AWKWARD_SERVERS, env: { GEMINI_DEBUG_LOG_FILE: '/logs/g.log' } }),
    );
    expect(own.env.GEMINI_DEBUG_LOG_FILE).toBe('/logs/g.log');
  });
});

describe('qwen-code', () => {
  it('runs stream-json with --yolo --auth-type openai; the model goes to -m and OPENAI_MODEL', () => {
    const inv = qwenInvocation(
      ctx(agent('qwen-code', { model: 'qwen3-coder-plus' }), { mcpServers: AWKWARD_SERVERS }),
    );
    expect(inv.args).toEqual([
      '--output-format',
      'stream-json',
      '-m',
      'qwen3-coder-plus',
      '--yolo',
      '--auth-type',
      'openai',
    ]);
    expect(inv.env.OPENAI_MODEL).toBe('qwen3-coder-plus');
    expect(inv.files[0]?.path).toBe('/jobs/j1/home/.qwen/settings.json');
    const settings = JSON.parse(inv.files[0]?.content ?? '{}');
    expect(settings.security.auth.selectedType).toBe('openai');
    expect(Object.keys(settings.mcpServers)).toHaveLength(4);
  });
});

describe('opencode', () => {
  it('declares an OpenAI-compatible provider for OPENAI_BASE_URL and selects it with -m', () => {
    const inv = opencodeInvocation(
      ctx(agent('opencode', { model: 'gpt-4.1-mini' }), {
        env: {
          PATH: '/bin',
          XDG_CONFIG_HOME: '/jobs/j1/home/.config',
          OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
          OPENAI_API_KEY: 'k-9',
        },
        mcpServers: AWKWARD_SERVERS,
      }),
    );
    expect(inv.args).toEqual(['run', '--format', 'json', '-m', 'axis/gpt-4.1-mini']);
    expect(inv.files[0]?.path).toBe('/jobs/j1/home/.config/opencode/opencode.json');
    const text = inv.files[0]?.content ?? '';
    expect(text).not.toContain('k-9');
    const config = JSON.parse(text);
    expect(config.provider.axis.options.baseURL).toBe('http://127.0.0.1:9/v1');
    expect(config.provider.axis.models['gpt-4.1-mini']).toBeTruthy();
    expect(Object.keys(config.mcp)).toHaveLength(4);
    expect(config.permission).toMatchObject({ bash: 'allow', edit: 'allow' });
  });

  it('without a base URL passes a provider/model through and allows tools', () => {
    const inv = opencodeInvocation(
      ctx(agent('opencode', { model: 'anthropic/claude-sonnet-4-5', flags: { variant: 'high' } })),
    );
    expect(inv.args).toEqual([
      'run',
      '--format',
      'json',
      '-m',
      'anthropic/claude-sonnet-4-5',
      '--variant',
      'high',
    ]);
    expect(JSON.parse(inv.files[0]?.content ?? '{}')).toEqual({
      autoupdate: false,
      share: 'disabled',
      permission: { bash: 'allow', edit: 'allow', webfetch: 'allow' },
    });
  });
});
