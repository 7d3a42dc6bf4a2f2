/**
 * Claude Code: `claude -p --output-format stream-json --verbose`, prompt on stdin (no argv size limit),
 * permissions bypassed unless the user turns the flag off, only AXIS-declared MCP servers.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parserFor } from '../transcript/registry.js';
import { claudeLoginFiles, detectClaudeLogin } from './auth-detect.js';
import { installCredentials, isRoot, prepareAndRun, writeFiles } from './base.js';
import { flagOn, renderFlags, withDefaults } from './flags.js';
import { claudeMcpConfig } from './mcp.js';
import { anthropicEnvFor, ANTHROPIC_ENV } from './provider-env.js';
import { installSkills } from './skills.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';

export const CLAUDE_DEFAULT_FLAGS = { 'dangerously-skip-permissions': true } as const;

/** Telemetry, error reports, updates and auto memory off; the provider retry cap when one is set. */
export function claudeQuietEnv(maxRetries: number | undefined): Record<string, string> {
  const env: Record<string, string> = {
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    // -p connects MCP servers in the background, so a slow one would be missing from the first turns
    // (the run then measures the agent without the server it was declared for): wait for them.
    MCP_CONNECTION_NONBLOCKING: '0',
  };
  if (maxRetries !== undefined) env.CLAUDE_CODE_MAX_RETRIES = String(maxRetries);
  return env;
}

/** Everything needed to start Claude Code for one run (pure, for tests). */
export function claudeInvocation(ctx: AdapterRunContext): {
  args: string[];
  env: Record<string, string>;
  files: Array<{ path: string; content: string }>;
} {
  const configDir = join(ctx.homeDir, '.claude');
  const flags = withDefaults(CLAUDE_DEFAULT_FLAGS, ctx.agent.flags);
  const args = ['-p', '--output-format', 'stream-json', '--verbose'];
  if (ctx.agent.model) args.push('--model', ctx.agent.model);
  // Only servers AXIS declares: never the user's own MCP config.
  args.push('--strict-mcp-config');
  const files: Array<{ path: string; content: string }> = [];
  if (Object.keys(ctx.mcpServers).length > 0) {
    const path = join(configDir, 'mcp.json');
    files.push({ path, content: `${JSON.stringify(claudeMcpConfig(ctx.mcpServers), null, 2)}\n` });
    args.push('--mcp-config', path);
  }
  args.push(...renderFlags(flags));

  const defaults = claudeQuietEnv(ctx.maxRetries);
  // Root refuses --dangerously-skip-permissions unless told it runs in a sandbox.
  if (
    isRoot() &&
    (flagOn(flags, 'dangerously-skip-permissions') || flags['permission-mode'] === 'bypassPermissions')
  ) {
    defaults.IS_SANDBOX = '1';
  }
  const env = { ...defaults, ...ctx.env, CLAUDE_CONFIG_DIR: configDir };
  return { args, env, files };
}

export const claudeCodeAdapter: AgentAdapter = {
  name: 'claude-code',
  acceptsModel: true,
  acceptsFlags: true,
  providerEnv: [...ANTHROPIC_ENV, 'CLAUDE_CODE_OAUTH_TOKEN'],
  providerEnvFor: anthropicEnvFor,
  auth: {
    envVars: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
    detectLocalLogin: detectClaudeLogin,
    localLoginFiles: claudeLoginFiles,
    hint: 'set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`), or log in with `claude` on this machine',
  },
  run(ctx) {
    return prepareAndRun(ctx, 'claude-code', async () => {
      const inv = claudeInvocation(ctx);
      const configDir = join(ctx.homeDir, '.claude');
      await mkdir(configDir, { recursive: true });
      await installCredentials(ctx);
      await installSkills(ctx.skills, join(configDir, 'skills'));
      await writeFiles(inv.files, ctx);
      return {
        adapter: 'claude-code',
        bin: ctx.agent.command ?? 'claude',
        binBase: ctx.configDir,
        npmPackage: '@anthropic-ai/claude-code',
        args: inv.args,
        env: inv.env,
        stdin: ctx.prompt,
        parser: parserFor('claude'),
      };
    });
  },
};
