/**
 * opencode: `opencode run --format json [-m provider/model]`, prompt on stdin. opencode.json goes to the
 * job's XDG config dir; with OPENAI_BASE_URL set it declares an OpenAI-compatible provider `axis`.
 */
import { join } from 'node:path';
import { clientSetup } from '../sim/clients.js';
import { parserFor } from '../transcript/registry.js';
import { installCredentials, prepareAndRun, writeFiles } from './base.js';
import { opencodeLoginFiles } from './auth-detect.js';
import { renderFlags } from './flags.js';
import { opencodeMcp } from './mcp.js';
import { mcpDownError, opencodeMcpDown, withMcpDown } from './mcp-down.js';
import { ANTHROPIC_ENV, openaiEnvFor, OPENAI_ENV, providerRoot } from './provider-env.js';
import { installSkills } from './skills.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';

/** Provider name for OPENAI_BASE_URL in the generated opencode.json. */
export const OPENCODE_PROVIDER = 'axis';
/**
 * Set (by providerEnvFor, i.e. the simulator) when the endpoint at OPENAI_BASE_URL plays every model:
 * `anthropic/claude-sonnet-4` then goes to it as `axis/claude-sonnet-4`, never to Anthropic.
 */
export const OPENCODE_ALL_MODELS_ENV = 'AXIS_OPENCODE_ALL_MODELS';

/** The model name to declare under the `axis` provider, or undefined to pass `model` as written. */
function ownModel(model: string | undefined, allModels: boolean): string | undefined {
  if (!model) return undefined;
  const own = model.startsWith(`${OPENCODE_PROVIDER}/`) ? model.slice(OPENCODE_PROVIDER.length + 1) : model;
  if (!own.includes('/')) return own;
  return allModels ? own.slice(own.lastIndexOf('/') + 1) || undefined : undefined;
}

export function opencodeInvocation(ctx: AdapterRunContext): {
  args: string[];
  env: Record<string, string>;
  files: Array<{ path: string; content: string }>;
  configDir: string;
} {
  const configDir = join(ctx.env.XDG_CONFIG_HOME || join(ctx.homeDir, '.config'), 'opencode');
  const baseUrl = ctx.env.OPENAI_BASE_URL;
  let config: Record<string, unknown>;
  let model = ctx.agent.model;
  const env: Record<string, string> = {
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
  if (baseUrl) {
    model ??= ctx.env.OPENAI_MODEL;
    // A bare name, or one under the `axis` provider declared here, is a model of that provider.
    const name = ownModel(model, ctx.env[OPENCODE_ALL_MODELS_ENV] === '1');
    const setup = clientSetup('opencode', {
      baseUrl: providerRoot(baseUrl),
      apiKey: ctx.env.OPENAI_API_KEY ?? '',
      home: ctx.homeDir,
      model: name,
    });
    const file = setup.files.find((f) => f.path.endsWith('opencode.json'));
    config = file ? (JSON.parse(file.content) as Record<string, unknown>) : {};
    const provider = (config.provider as Record<string, { options?: Record<string, unknown> }> | undefined)?.[
      OPENCODE_PROVIDER
    ];
    if (provider?.options) provider.options.baseURL = baseUrl.replace(/\/+$/, '');
    if (name) model = `${OPENCODE_PROVIDER}/${name}`;
    for (const [k, v] of Object.entries(setup.env)) if (!(k in ctx.env) || k.startsWith('AXIS_')) env[k] = v;
  } else {
    config = {
      autoupdate: false,
      share: 'disabled',
      permission: { bash: 'allow', edit: 'allow', webfetch: 'allow' },
    };
  }
  if (Object.keys(ctx.mcpServers).length > 0) config.mcp = opencodeMcp(ctx.mcpServers);
  const args = ['run', '--format', 'json'];
  if (model) args.push('-m', model);
  args.push(...renderFlags(ctx.agent.flags));
  return {
    args,
    env: { ...env, ...ctx.env },
    files: [{ path: join(configDir, 'opencode.json'), content: `${JSON.stringify(config, null, 2)}\n` }],
    configDir,
  };
}

export const opencodeAdapter: AgentAdapter = {
  name: 'opencode',
  acceptsModel: true,
  acceptsFlags: true,
  providerEnv: [
    ...OPENAI_ENV,
    'OPENAI_MODEL',
    ...ANTHROPIC_ENV,
    'GOOGLE_GENERATIVE_AI_API_KEY',
    'OPENROUTER_API_KEY',
  ],
  // The simulator plays any model: one of another provider must not reach that provider's real API.
  providerEnvFor: (baseUrl, apiKey) => ({
    ...openaiEnvFor(baseUrl, apiKey),
    [OPENCODE_ALL_MODELS_ENV]: '1',
  }),
  // opencode resolves `-m` as provider/model; a bare name only works against OPENAI_BASE_URL (above).
  modelProblem: (model, env) =>
    model.includes('/') || env.OPENAI_BASE_URL
      ? undefined
      : `expected provider/model for opencode (e.g. "openai/${model}" or "anthropic/${model}"), found "${model}": a bare model name works only with OPENAI_BASE_URL set`,
  auth: {
    envVars: ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'OPENROUTER_API_KEY'],
    localLoginFiles: opencodeLoginFiles,
    hint: 'set the API key of the provider named in "model" (e.g. ANTHROPIC_API_KEY for anthropic/…), or log in with `opencode auth login`',
  },
  run(ctx: AdapterRunContext) {
    return prepareAndRun(ctx, 'opencode', async () => {
      const inv = opencodeInvocation(ctx);
      await installCredentials(ctx);
      await installSkills(ctx.skills, join(inv.configDir, 'skills'));
      await writeFiles(inv.files, ctx);
      return {
        adapter: 'opencode',
        bin: ctx.agent.command ?? 'opencode',
        binBase: ctx.configDir,
        npmPackage: 'opencode-ai',
        args: inv.args,
        env: inv.env,
        stdin: ctx.prompt,
        parser: parserFor('opencode'),
        after: async (parsed) => {
          const data = inv.env.XDG_DATA_HOME || join(ctx.homeDir, '.local', 'share');
          const down = await opencodeMcpDown(join(data, 'opencode', 'log'), Object.keys(ctx.mcpServers));
          return withMcpDown(parsed, mcpDownError('opencode', down));
        },
      };
    });
  },
};
