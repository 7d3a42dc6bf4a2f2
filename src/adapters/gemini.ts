/**
 * Gemini CLI: `gemini --output-format stream-json --yolo -m <model>`, prompt on stdin (headless mode
 * starts when stdin is not a terminal). settings.json in the job home pins API-key auth (so
 * GOOGLE_GEMINI_BASE_URL works) and turns telemetry off; the workspace is trusted through the env.
 */
import { join } from 'node:path';
import { clientSetup } from '../sim/clients.js';
import { parserFor } from '../transcript/registry.js';
import { prepareAndRun, writeFiles } from './base.js';
import { renderFlags, withDefaults, type Flags } from './flags.js';
import { applyShellExitCodes, readChatToolOutputs } from './chat-records.js';
import { geminiMcpServers } from './mcp.js';
import { geminiMcpDown, mcpDownError, withMcpDown } from './mcp-down.js';
import { geminiEnvFor, GEMINI_ENV, providerRoot } from './provider-env.js';
import { installSkills } from './skills.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';

/** Passed when no model is configured: an explicit model skips the CLI's routing call. */
export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-pro';
export const GEMINI_DEFAULT_FLAGS: Flags = { yolo: true };
const PUBLIC_ENDPOINT = 'https://generativelanguage.googleapis.com';

/** Gemini CLI's debug log, where alone it names an MCP server that did not start (mcp-down.ts). */
export const geminiDebugLog = (home: string) => join(home, '.gemini', 'axis-debug.log');

export function geminiInvocation(ctx: AdapterRunContext): {
  args: string[];
  env: Record<string, string>;
  files: Array<{ path: string; content: string }>;
} {
  const apiKey = ctx.env.GEMINI_API_KEY || ctx.env.GOOGLE_API_KEY || '';
  const setup = clientSetup('gemini', {
    baseUrl: providerRoot(ctx.env.GOOGLE_GEMINI_BASE_URL || PUBLIC_ENDPOINT),
    apiKey,
    home: ctx.homeDir,
    model: ctx.agent.model,
    maxRetries: ctx.maxRetries,
  });
  const files = setup.files.map((f) => {
    if (!f.path.endsWith('settings.json') || Object.keys(ctx.mcpServers).length === 0) return f;
    const settings = JSON.parse(f.content) as Record<string, unknown>;
    settings.mcpServers = geminiMcpServers(ctx.mcpServers);
    return { path: f.path, content: `${JSON.stringify(settings, null, 2)}\n` };
  });
  const user = ctx.agent.flags;
  // A user approval mode replaces --yolo (the CLI refuses both).
  const flags = 'approval-mode' in user ? { ...user } : withDefaults(GEMINI_DEFAULT_FLAGS, user);
  const args = [
    '--output-format',
    'stream-json',
    '-m',
    ctx.agent.model ?? GEMINI_DEFAULT_MODEL,
    ...renderFlags(flags),
  ];
  const env: Record<string, string> = {
    GEMINI_TELEMETRY_ENABLED: 'false',
    // A log of the user's own (agent env) wins; AXIS then reads none.
    ...(Object.keys(ctx.mcpServers).length ? { GEMINI_DEBUG_LOG_FILE: geminiDebugLog(ctx.homeDir) } : {}),
    ...ctx.env,
    // Headless runs refuse untrusted folders; the job's own workspace is trusted.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  if (!env.GEMINI_API_KEY && apiKey) env.GEMINI_API_KEY = apiKey;
  return { args, env, files };
}

export const geminiAdapter: AgentAdapter = {
  name: 'gemini',
  acceptsModel: true,
  acceptsFlags: true,
  providerEnv: [...GEMINI_ENV],
  providerEnvFor: geminiEnvFor,
  auth: {
    envVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    hint: 'set GEMINI_API_KEY (an API key from Google AI Studio)',
  },
  run(ctx: AdapterRunContext) {
    return prepareAndRun(ctx, 'gemini', async () => {
      const inv = geminiInvocation(ctx);
      await installSkills(ctx.skills, join(ctx.homeDir, '.gemini', 'skills'));
      await writeFiles(inv.files, ctx);
      return {
        adapter: 'gemini',
        bin: ctx.agent.command ?? 'gemini',
        binBase: ctx.configDir,
        npmPackage: '@google/gemini-cli',
        args: inv.args,
        env: inv.env,
        stdin: ctx.prompt,
        parser: parserFor('gemini'),
        after: async (parsed) => {
          const out = applyShellExitCodes(
            parsed,
            await readChatToolOutputs(join(ctx.homeDir, '.gemini', 'tmp')),
          );
          if (inv.env.GEMINI_DEBUG_LOG_FILE !== geminiDebugLog(ctx.homeDir)) return out;
          const down = await geminiMcpDown(geminiDebugLog(ctx.homeDir), Object.keys(ctx.mcpServers));
          return withMcpDown(out, mcpDownError('Gemini CLI', down));
        },
      };
    });
  },
};
