/**
 * Which judge scores a run (docs/scoring.md#judges):
 *
 * 1. `settings.simulate` on: the job's simulator, over the Anthropic Messages API (or Chat Completions
 *    when `judge.provider` is `openai`), answering from the tape's `judge` section.
 * 2. A configured `judge`: that provider (for `agent`: the first judge agent whose adapter differs from
 *    the agent under test; the same adapter only when there is no other, with a warning).
 * 3. No `judge`: Anthropic when ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or ANTHROPIC_BASE_URL is set,
 *    else OpenAI when OPENAI_API_KEY is set, else the agent under test judges itself — with a warning
 *    in the result. A `command` agent cannot judge: its runs are then unscored with that reason.
 */
import { timerMs } from '../../util/timers.js';
import type { AgentAdapter } from '../../adapters/types.js';
import type { ResolvedAgent, ResolvedJudge } from '../../config/types.js';
import { SIM_API_KEY } from '../../sim/server.js';
import { AxisError } from '../../util/errors.js';
import { createAgentJudge } from './agent.js';
import { ANTHROPIC_DEFAULT_MODEL, ANTHROPIC_DEFAULT_URL, createAnthropicJudge } from './anthropic.js';
import { createOpenAiJudge, OPENAI_DEFAULT_MODEL, OPENAI_DEFAULT_URL } from './openai.js';
import type { JudgeClient } from './types.js';

export const SIM_JUDGE_MODEL = 'axis-simulated-judge';
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_TIMEOUT_SECONDS = 120;

export interface JudgeChoice {
  client: JudgeClient;
  /** Shown in the result (`score.judge.warning`) and on the terminal. */
  warning?: string;
}

export interface ResolveJudgeOptions {
  judge?: ResolvedJudge;
  agentUnderTest: ResolvedAgent;
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** The job's simulator (simulate mode). */
  simulatorUrl?: string;
  loadAdapter: (name: string) => Promise<AgentAdapter>;
  /** First backoff in ms (tests shorten it). */
  baseDelayMs?: number;
}

export async function resolveJudge(opts: ResolveJudgeOptions): Promise<JudgeChoice> {
  const env = opts.hostEnv ?? process.env;
  const j = opts.judge;
  const retry = {
    maxRetries: j?.max_retries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: timerMs((j?.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000),
    ...(opts.baseDelayMs !== undefined ? { baseDelayMs: opts.baseDelayMs } : {}),
  };

  if (opts.simulatorUrl !== undefined) {
    const model = j?.model ?? SIM_JUDGE_MODEL;
    const base = { model, apiKey: SIM_API_KEY, retry, via: 'simulator', cacheId: null };
    const client =
      j?.provider === 'openai'
        ? createOpenAiJudge({ ...base, baseUrl: `${opts.simulatorUrl.replace(/\/+$/, '')}/v1` })
        : createAnthropicJudge({ ...base, baseUrl: opts.simulatorUrl });
    return { client: { ...client, simulated: true } };
  }

  const http = httpJudge(j, env, retry);
  if (http) return { client: http };

  if (j?.provider === 'agent') {
    const under = opts.agentUnderTest;
    const other = j.agents.find((a) => a.agent !== under.agent);
    const agent = other ?? j.agents[0];
    if (!agent) throw new AxisError('judge: provider "agent" needs a judge agent', { exitCode: 2 });
    const adapter = await opts.loadAdapter(agent.agent);
    return {
      client: createAgentJudge({ agent, adapter, hostEnv: env, ...agentRetry(retry) }),
      ...(other
        ? {}
        : {
            warning: `the judge agent ${agent.name} uses the same adapter (${agent.agent}) as the agent under test: the agent judged its own kind of run`,
          }),
    };
  }

  // No judge configured and no provider key: the agent under test judges itself, visibly — unless it is
  // a plain `command`, which is not a model and cannot judge.
  const under = opts.agentUnderTest;
  if (under.agent === 'command')
    throw new AxisError(
      `no judge is configured, neither ANTHROPIC_API_KEY nor OPENAI_API_KEY is set, and the agent under test (${under.name}) is a plain command that cannot judge; configure "judge"`,
      { exitCode: 2 },
    );
  const adapter = await opts.loadAdapter(under.agent);
  return {
    client: createAgentJudge({ agent: under, adapter, hostEnv: env, ...agentRetry(retry) }),
    warning:
      `no judge is configured and neither ANTHROPIC_API_KEY nor OPENAI_API_KEY is set, so the agent under test ` +
      `(${under.name}) judged its own run; configure "judge" for an independent judge`,
  };
}

/**
 * The HTTP judge a configuration (or the default rule) asks for; undefined when it is an agent judge.
 * Throws AxisError (exit 2) for a provider without the credentials it needs, so `axis run` stops before
 * any agent runs.
 */
export function httpJudge(
  j: ResolvedJudge | undefined,
  env: Readonly<Record<string, string | undefined>>,
  retry: { maxRetries: number; timeoutMs: number; baseDelayMs?: number },
): JudgeClient | undefined {
  const provider = judgeProvider(j, env);
  if (provider === 'agent') return undefined;
  const key = (name: string | undefined) => envValue(env, name);
  const missing = judgeKeyProblem(j, env);
  if (missing) throw new AxisError(`${missing.path}: ${missing.message}`, { exitCode: 2 });

  if (provider === 'anthropic') {
    const model = j?.model ?? ANTHROPIC_DEFAULT_MODEL;
    const apiKey = key(j?.api_key_env) ?? key('ANTHROPIC_API_KEY');
    const authToken = apiKey ? undefined : key('ANTHROPIC_AUTH_TOKEN');
    const custom = j?.base_url ?? key('ANTHROPIC_BASE_URL');
    const baseUrl = custom ?? ANTHROPIC_DEFAULT_URL;
    return createAnthropicJudge({
      model,
      baseUrl,
      ...(apiKey ? { apiKey } : {}),
      ...(authToken ? { authToken } : {}),
      retry,
      cacheId: `anthropic|${model}|${baseUrl}`,
    });
  }
  const model = j?.model ?? OPENAI_DEFAULT_MODEL;
  const apiKey = key(j?.api_key_env) ?? key('OPENAI_API_KEY');
  const custom = j?.base_url ?? key('OPENAI_BASE_URL');
  const baseUrl = custom ?? OPENAI_DEFAULT_URL;
  return createOpenAiJudge({
    model,
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    retry,
    cacheId: `openai|${model}|${baseUrl}`,
  });
}

type Env = Readonly<Record<string, string | undefined>>;

const envValue = (env: Env, name: string | undefined): string | undefined =>
  name === undefined || env[name] === '' ? undefined : env[name];

/** The configured provider, or the default rule's pick from the host's keys. */
function judgeProvider(j: ResolvedJudge | undefined, env: Env): ResolvedJudge['provider'] {
  if (j?.provider) return j.provider;
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN || env.ANTHROPIC_BASE_URL) return 'anthropic';
  return env.OPENAI_API_KEY ? 'openai' : 'agent';
}

/**
 * What an HTTP judge lacks to be asked at all (its key), as the config field and what is expected, or
 * undefined: `axis run` and `axis validate` list it with the config's other problems.
 */
export function judgeKeyProblem(
  j: ResolvedJudge | undefined,
  env: Env,
): { path: string; message: string } | undefined {
  const provider = judgeProvider(j, env);
  if (provider === 'agent') return undefined;
  const key = (name: string | undefined) => envValue(env, name);
  if (j?.api_key_env && key(j.api_key_env) === undefined)
    return { path: 'judge.api_key_env', message: `the variable ${j.api_key_env} is not set` };
  if (provider === 'anthropic') {
    const custom = j?.base_url ?? key('ANTHROPIC_BASE_URL');
    if (key(j?.api_key_env) ?? key('ANTHROPIC_API_KEY') ?? key('ANTHROPIC_AUTH_TOKEN') ?? custom)
      return undefined;
    return {
      path: 'judge',
      message:
        'provider "anthropic" needs an API key: set ANTHROPIC_API_KEY (or name another variable in judge.api_key_env)',
    };
  }
  if (key(j?.api_key_env) ?? key('OPENAI_API_KEY') ?? j?.base_url ?? key('OPENAI_BASE_URL')) return undefined;
  return {
    path: 'judge',
    message:
      'provider "openai" needs an API key for api.openai.com: set OPENAI_API_KEY, or set judge.base_url for a local server',
  };
}

function agentRetry(retry: { maxRetries: number; timeoutMs: number; baseDelayMs?: number }) {
  return {
    maxRetries: retry.maxRetries,
    timeoutMs: retry.timeoutMs,
    ...(retry.baseDelayMs !== undefined ? { baseDelayMs: retry.baseDelayMs } : {}),
  };
}
