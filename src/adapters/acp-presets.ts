/**
 * What an ACP preset's agent needs in the job's isolated home before it starts: the same settings the
 * built-in adapter of the agent behind the bridge writes (Claude Code for `claude-acp`, Codex for
 * `codex-acp`), so the bridge talks to the configured provider (or the simulator) and nothing else.
 */
import { join } from 'node:path';
import { stringify as toToml } from 'smol-toml';
import type { AcpPreset } from '../config/catalogue.js';
import { claudeQuietEnv } from './claude-code.js';
import { codexConfig } from './codex.js';
import type { AdapterRunContext } from './types.js';

export interface PresetHome {
  env: Record<string, string>;
  files: Array<{ path: string; content: string }>;
}

/** Claude Code under the bridge: its config dir in the job home, telemetry and updates off. */
function claudeHome(ctx: AdapterRunContext): PresetHome {
  const env = {
    ...claudeQuietEnv(ctx.maxRetries),
    ...ctx.env,
    CLAUDE_CONFIG_DIR: join(ctx.homeDir, '.claude'),
  };
  return { env, files: [] };
}

/**
 * Codex under the bridge: CODEX_HOME in the job home with the codex adapter's config.toml. MCP servers
 * reach it through `session/new`, so they are left out of the file. The bridge asks no approvals and
 * uses no sandbox of its own (AXIS contains the job); `args: ["-c", "sandbox_mode=\"read-only\""]`
 * chooses otherwise.
 */
function codexHome(ctx: AdapterRunContext): PresetHome {
  const codexDir = join(ctx.homeDir, '.codex');
  const { config, env } = codexConfig({ ...ctx, mcpServers: {} });
  config.approval_policy = 'never';
  config.sandbox_mode = 'danger-full-access';
  return {
    env: { ...ctx.env, ...env, CODEX_HOME: codexDir },
    files: [{ path: join(codexDir, 'config.toml'), content: `${toToml(config)}\n` }],
  };
}

export function presetHome(kind: NonNullable<AcpPreset['home']>, ctx: AdapterRunContext): PresetHome {
  return kind === 'claude' ? claudeHome(ctx) : codexHome(ctx);
}
