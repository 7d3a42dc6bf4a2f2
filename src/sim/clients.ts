/**
 * How to point each agent CLI at a model provider: environment variables plus config files for its
 * isolated home. Works for any base URL (the simulator or a real provider). Secrets go only into
 * environment variables; config files refer to them by name.
 */
import { posix } from 'node:path';
import { stringify as toToml } from 'smol-toml';

export const AGENT_CLIS = ['claude', 'codex', 'gemini', 'qwen', 'opencode'] as const;
export type AgentCli = (typeof AGENT_CLIS)[number];

export interface ClientOptions {
  /** Provider root without a version segment (`http://127.0.0.1:4100`); `/v1` is appended for OpenAI-style CLIs. */
  baseUrl: string;
  apiKey: string;
  /** The CLI's isolated HOME. Absent: file paths start with `~/` and HOME is not set. */
  home?: string;
  /** Model name to request. Defaults: Claude/Gemini keep their own; Codex, Qwen, opencode `axis-sim`. */
  model?: string;
  /** Cap on provider-call retries, set through each CLI's own setting (opencode has none). */
  maxRetries?: number;
  /** Running as root: Claude Code then needs IS_SANDBOX=1 for --dangerously-skip-permissions. */
  isRoot?: boolean;
}

export interface ClientFile {
  /** Absolute path (or `~/...` when no home was given). */
  path: string;
  content: string;
}

export interface ClientSetup {
  env: Record<string, string>;
  files: ClientFile[];
}

/** Names of the variables the files refer to (Codex `env_key`, opencode `{env:...}`). */
export const CODEX_KEY_ENV = 'AXIS_CODEX_API_KEY';
export const OPENCODE_KEY_ENV = 'AXIS_OPENCODE_API_KEY';
const DEFAULT_MODEL = 'axis-sim';

function json(v: unknown): string {
  return `${JSON.stringify(v, null, 2)}\n`;
}

export function clientSetup(cli: AgentCli, opts: ClientOptions): ClientSetup {
  const root = opts.baseUrl.replace(/\/+$/, '');
  const at = (rel: string) => (opts.home ? posix.join(opts.home, rel) : `~/${rel}`);
  const env: Record<string, string> = {};
  if (opts.home) {
    env.HOME = opts.home;
    // XDG variables inherited from the caller would otherwise pull config from outside the isolated home.
    env.XDG_CONFIG_HOME = at('.config');
    env.XDG_DATA_HOME = at('.local/share');
    env.XDG_STATE_HOME = at('.local/state');
    env.XDG_CACHE_HOME = at('.cache');
  }
  // A JavaScript caller may pass anything: name what was expected rather than fail on undefined.
  if (!Object.hasOwn(SETUPS, cli))
    throw new TypeError(
      `clientSetup: unknown agent CLI ${JSON.stringify(cli)}; expected ${AGENT_CLIS.join(', ')}`,
    );
  return SETUPS[cli]({
    opts,
    root,
    v1: `${root}/v1`,
    at,
    env,
    retries: opts.maxRetries,
    isRoot: opts.isRoot ?? process.getuid?.() === 0,
  });
}

/** What every CLI's setup starts from. */
interface SetupContext {
  opts: ClientOptions;
  /** The provider root, no trailing slash. */
  root: string;
  /** `root` + `/v1`, for OpenAI-style CLIs. */
  v1: string;
  /** A path in the CLI's home. */
  at: (rel: string) => string;
  /** HOME and XDG variables so far; each setup adds its own. */
  env: Record<string, string>;
  retries: number | undefined;
  isRoot: boolean;
}

const SETUPS: Record<AgentCli, (ctx: SetupContext) => ClientSetup> = {
  claude: claudeSetup,
  codex: codexSetup,
  gemini: geminiSetup,
  qwen: qwenSetup,
  opencode: opencodeSetup,
};

function claudeSetup({ opts, root, env, retries, isRoot }: SetupContext): ClientSetup {
  Object.assign(env, {
    ANTHROPIC_BASE_URL: root,
    ANTHROPIC_API_KEY: opts.apiKey,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  if (retries !== undefined) env.CLAUDE_CODE_MAX_RETRIES = String(retries);
  if (isRoot) env.IS_SANDBOX = '1';
  if (opts.model) env.ANTHROPIC_MODEL = opts.model;
  return { env, files: [] };
}

function codexSetup({ opts, v1, at, env, retries }: SetupContext): ClientSetup {
  const provider: Record<string, unknown> = {
    name: 'AXIS provider',
    base_url: v1,
    wire_api: 'responses',
    env_key: CODEX_KEY_ENV,
  };
  if (retries !== undefined)
    Object.assign(provider, { request_max_retries: retries, stream_max_retries: retries });
  const config = {
    model: opts.model ?? DEFAULT_MODEL,
    model_provider: 'axis',
    model_providers: { axis: provider },
  };
  env[CODEX_KEY_ENV] = opts.apiKey;
  if (opts.home) env.CODEX_HOME = at('.codex');
  return { env, files: [{ path: at('.codex/config.toml'), content: `${toToml(config)}\n` }] };
}

function geminiSetup({ opts, root, at, env, retries }: SetupContext): ClientSetup {
  Object.assign(env, {
    GOOGLE_GEMINI_BASE_URL: root,
    GEMINI_API_KEY: opts.apiKey,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  });
  const general: Record<string, unknown> = { disableAutoUpdate: true, disableUpdateNag: true };
  if (retries !== undefined) general.maxAttempts = retries + 1;
  const settings: Record<string, unknown> = {
    // Pinning the auth type keeps GOOGLE_GEMINI_BASE_URL from selecting the rejected "gateway" auth.
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general,
  };
  if (opts.model) settings.model = { name: opts.model };
  return { env, files: [{ path: at('.gemini/settings.json'), content: json(settings) }] };
}

function qwenSetup({ opts, v1, at, env, retries }: SetupContext): ClientSetup {
  Object.assign(env, {
    OPENAI_BASE_URL: v1,
    OPENAI_API_KEY: opts.apiKey,
    OPENAI_MODEL: opts.model ?? DEFAULT_MODEL,
  });
  const settings: Record<string, unknown> = {
    security: { auth: { selectedType: 'openai' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true },
    // Headless Qwen still runs shell commands in a pseudo-terminal, and Linux hands pty output to
    // the reader asynchronously: on a busy machine a command's last output can arrive after its
    // exit and is dropped. Pipes keep order. (Gemini already uses pipes when not interactive.)
    tools: { shell: { enableInteractiveShell: false } },
  };
  if (retries !== undefined) settings.model = { generationConfig: { maxRetries: retries } };
  return { env, files: [{ path: at('.qwen/settings.json'), content: json(settings) }] };
}

function opencodeSetup({ opts, v1, at, env }: SetupContext): ClientSetup {
  Object.assign(env, {
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    [OPENCODE_KEY_ENV]: opts.apiKey,
  });
  const model = opts.model ?? DEFAULT_MODEL;
  const config = {
    provider: {
      axis: {
        npm: '@ai-sdk/openai-compatible',
        name: 'AXIS provider',
        options: { baseURL: v1, apiKey: `{env:${OPENCODE_KEY_ENV}}` },
        models: { [model]: { name: model, tool_call: true } },
      },
    },
    model: `axis/${model}`,
    small_model: `axis/${model}`,
    autoupdate: false,
    share: 'disabled',
    permission: { bash: 'allow', edit: 'allow', webfetch: 'allow' },
  };
  return { env, files: [{ path: at('.config/opencode/opencode.json'), content: json(config) }] };
}
