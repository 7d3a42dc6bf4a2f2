import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { preflightAuth, resolveAuth } from '../../../src/adapters/auth.js';
import { installCredentials } from '../../../src/adapters/base.js';
import { claudeCodeAdapter } from '../../../src/adapters/claude-code.js';
import { codexAdapter } from '../../../src/adapters/codex.js';
import { geminiAdapter } from '../../../src/adapters/gemini.js';
import { createCommandAdapter } from '../../../src/adapters/command.js';
import { AxisError } from '../../../src/util/errors.js';
import { agent, ctx, removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

function hostHome(files: Record<string, string>): string {
  const home = tempDir('axis-host-home-');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), content);
  }
  return home;
}

const claudeJson = JSON.stringify({
  oauthAccount: { emailAddress: 'me@example.test', accountUuid: 'u-1' },
  mcpServers: { personal: { command: 'secret-server' } },
  projects: { '/x': { mcpServers: { p: { command: 'y' } } } },
  numStartups: 40,
});

describe('preflightAuth', () => {
  it('prefers an API key over a local login', () => {
    const home = hostHome({ '.claude.json': claudeJson, '.claude/.credentials.json': '{"t":1}' });
    const res = preflightAuth([claudeCodeAdapter], { ANTHROPIC_API_KEY: 'sk-ant' }, home);
    expect(res.get('claude-code')).toEqual({ source: 'env', variable: 'ANTHROPIC_API_KEY' });
  });

  it('counts explicit values from the config env', () => {
    const res = preflightAuth(
      [{ adapter: geminiAdapter, name: 'gemini|flash', env: { GEMINI_API_KEY: 'g' } }],
      {},
      tempDir(),
    );
    expect(res.get('gemini|flash')).toEqual({ source: 'env', variable: 'GEMINI_API_KEY' });
  });

  it('uses a Claude login with only the credentials and the account identity (never MCP servers)', async () => {
    const home = hostHome({
      '.claude.json': claudeJson,
      '.claude/.credentials.json': '{"claudeAiOauth":{"accessToken":"t"}}',
    });
    const res = preflightAuth([claudeCodeAdapter], {}, home).get('claude-code');
    expect(res?.source).toBe('local_login');
    const jobHome = tempDir('axis-job-home-');
    await installCredentials(ctx(agent('claude-code'), { homeDir: jobHome, auth: res }));
    expect(readFileSync(join(jobHome, '.claude/.credentials.json'), 'utf8')).toContain('accessToken');
    const copied = JSON.parse(readFileSync(join(jobHome, '.claude/.claude.json'), 'utf8'));
    expect(copied).toEqual({
      hasCompletedOnboarding: true,
      oauthAccount: { emailAddress: 'me@example.test', accountUuid: 'u-1' },
    });
  });

  it('honours CLAUDE_CONFIG_DIR and CODEX_HOME on the host', () => {
    const home = hostHome({ 'cc/.credentials.json': '{"a":1}', 'cx/auth.json': '{"OPENAI_API_KEY":null}' });
    const res = preflightAuth(
      [claudeCodeAdapter, codexAdapter],
      { CLAUDE_CONFIG_DIR: join(home, 'cc'), CODEX_HOME: join(home, 'cx') },
      home,
    );
    expect(res.get('claude-code')).toMatchObject({ source: 'local_login' });
    expect(res.get('codex')).toEqual({
      source: 'local_login',
      files: [{ from: join(home, 'cx/auth.json'), to: '.codex/auth.json' }],
    });
  });

  it('reports every agent without credentials at once, as one exit-2 error', () => {
    const home = hostHome({ '.claude.json': '{"numStartups":1}', '.codex/auth.json': '' });
    let err: unknown;
    try {
      preflightAuth([claudeCodeAdapter, codexAdapter, geminiAdapter, claudeCodeAdapter], {}, home);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AxisError);
    expect((err as AxisError).exitCode).toBe(2);
    const lines = (err as Error).message.split('\n');
    expect(lines[0]).toBe('3 agents have no credentials:');
    expect(lines[1]).toMatch(
      /^ {2}claude-code: none of ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN is set and no local login was found; set ANTHROPIC_API_KEY/,
    );
    expect(lines[2]).toMatch(
      /^ {2}codex: none of CODEX_API_KEY, OPENAI_API_KEY is set and no local login was found/,
    );
    expect(lines[3]).toMatch(
      /^ {2}gemini: none of GEMINI_API_KEY, GOOGLE_API_KEY is set; set GEMINI_API_KEY/,
    );
  });

  it('needs nothing for adapters without an auth requirement', () => {
    expect(resolveAuth({ adapter: createCommandAdapter({ configDir: '/' }) }, {}, '/nonexistent')).toEqual({
      source: 'none',
    });
  });
});
