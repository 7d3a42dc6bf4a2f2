/**
 * Qwen Code: `qwen --output-format stream-json --yolo --auth-type openai`, prompt on stdin. Talks to any
 * OpenAI-compatible endpoint through OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL; settings.json in
 * the job home turns telemetry off and carries the MCP servers.
 */
import { join } from 'node:path';
import { clientSetup } from '../sim/clients.js';
import { parserFor } from '../transcript/registry.js';
import { prepareAndRun, writeFiles } from './base.js';
import { renderFlags, withDefaults, type Flags } from './flags.js';
import { applyShellExitCodes, readChatToolOutputs } from './chat-records.js';
import { geminiMcpServers } from './mcp.js';
import { openaiEnvFor, OPENAI_ENV, providerRoot } from './provider-env.js';
import { installSkills } from './skills.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';

export const QWEN_DEFAULT_FLAGS: Flags = { yolo: true, 'auth-type': 'openai' };
const PUBLIC_ENDPOINT = 'https://api.openai.com';

export function qwenInvocation(ctx: AdapterRunContext): {
  args: string[];
  env: Record<string, string>;
  files: Array<{ path: string; content: string }>;
} {
  const setup = clientSetup('qwen', {
    baseUrl: providerRoot(ctx.env.OPENAI_BASE_URL || PUBLIC_ENDPOINT),
    apiKey: ctx.env.OPENAI_API_KEY ?? '',
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
  const defaults = 'approval-mode' in user ? { 'auth-type': 'openai' } : QWEN_DEFAULT_FLAGS;
  const args = ['--output-format', 'stream-json'];
  if (ctx.agent.model) args.push('-m', ctx.agent.model);
  args.push(...renderFlags(withDefaults(defaults, user)));
  const env: Record<string, string> = { QWEN_TELEMETRY_ENABLED: 'false', ...ctx.env };
  if (ctx.agent.model) env.OPENAI_MODEL = ctx.agent.model;
  return { args, env, files };
}

export const qwenCodeAdapter: AgentAdapter = {
  name: 'qwen-code',
  acceptsModel: true,
  acceptsFlags: true,
  providerEnv: [...OPENAI_ENV, 'OPENAI_MODEL'],
  providerEnvFor: openaiEnvFor,
  auth: {
    envVars: ['OPENAI_API_KEY'],
    hint: 'set OPENAI_API_KEY (and OPENAI_BASE_URL / OPENAI_MODEL for a non-OpenAI endpoint such as DashScope)',
  },
  run(ctx: AdapterRunContext) {
    return prepareAndRun(ctx, 'qwen-code', async () => {
      const inv = qwenInvocation(ctx);
      await installSkills(ctx.skills, join(ctx.homeDir, '.qwen', 'skills'));
      await writeFiles(inv.files, ctx);
      return {
        adapter: 'qwen-code',
        bin: ctx.agent.command ?? 'qwen',
        binBase: ctx.configDir,
        npmPackage: '@qwen-code/qwen-code',
        args: inv.args,
        env: inv.env,
        stdin: ctx.prompt,
        parser: parserFor('qwen'),
        after: async (parsed) =>
          applyShellExitCodes(parsed, await readChatToolOutputs(join(ctx.homeDir, '.qwen', 'projects'))),
      };
    });
  },
};
