/**
 * `command`: any executable as an agent, no module needed. The prompt goes to stdin (default) or as the
 * last argument, and is also in the file named by AXIS_PROMPT_FILE. Stdout is either plain text (the
 * answer) or AXIS NDJSON events (docs/adapters.md). MCP servers are in the file named by AXIS_MCP_CONFIG.
 */
import { join } from 'node:path';
import { parserFor } from '../transcript/registry.js';
import { prepareAndRun, writeFiles } from './base.js';
import { claudeMcpConfig } from './mcp.js';
import { standardProviderEnv } from './provider-env.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';

export interface CommandAdapterOptions {
  /** Directory a relative `command` (one containing a slash) is resolved against: the config's. */
  configDir: string;
}

export function createCommandAdapter(opts: CommandAdapterOptions): AgentAdapter {
  return {
    name: 'command',
    acceptsModel: false,
    acceptsFlags: false,
    // Host keys are not passed automatically: list what the agent needs under `env`.
    providerEnv: [],
    providerEnvFor: standardProviderEnv,
    run(ctx: AdapterRunContext) {
      const agent = ctx.agent;
      return prepareAndRun(ctx, `command agent "${agent.name}"`, async () => {
        const promptFile = join(ctx.tmpDir, 'axis-prompt.txt');
        await writeFiles([{ path: promptFile, content: ctx.prompt }], ctx);
        // AXIS cannot configure MCP for a command it does not know; it hands the servers over instead,
        // in the widely read `{ "mcpServers": … }` shape (e.g. for `claude --mcp-config "$AXIS_MCP_CONFIG"`).
        const mcp: Record<string, string> = {};
        if (Object.keys(ctx.mcpServers).length > 0) {
          mcp.AXIS_MCP_CONFIG = join(ctx.tmpDir, 'axis-mcp.json');
          const content = `${JSON.stringify(claudeMcpConfig(ctx.mcpServers), null, 2)}\n`;
          await writeFiles([{ path: mcp.AXIS_MCP_CONFIG, content }], ctx);
        }
        const viaArg = agent.prompt_via === 'arg';
        return {
          adapter: `command agent "${agent.name}"`,
          bin: agent.command ?? '',
          binBase: opts.configDir,
          args: viaArg ? [...agent.args, ctx.prompt] : [...agent.args],
          env: { ...ctx.env, AXIS_PROMPT_FILE: promptFile, ...mcp },
          stdin: viaArg ? null : ctx.prompt,
          parser: parserFor(agent.output === 'ndjson' ? 'ndjson' : 'text'),
        };
      });
    },
  };
}
