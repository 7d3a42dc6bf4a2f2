/**
 * The values a run or a re-score must never write (docs/running.md#secrets-in-output): host variables
 * named like secrets, the config's and the agents' explicit values named so, what `${NAME}` references
 * put into MCP headers and env, and the judge's credentials.
 */
import type { LoadedConfig, ResolvedAgent, ResolvedScenario } from '../config/types.js';
import { MIN_SECRET_LENGTH, secretValues } from '../exec/env.js';
import { mcpSecretValues } from './mcp-refs.js';
import { prefixed } from './run-steps.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Longest first: a secret that contains another is masked whole. */
export function configSecrets(
  loaded: LoadedConfig,
  agents: readonly ResolvedAgent[],
  scenarios: readonly ResolvedScenario[],
  env: Env = process.env,
): string[] {
  const config = loaded.config;
  const judge = config.judge;
  const named = secretValues({
    ...env,
    ...prefixed(config.env.values),
    ...Object.assign({}, ...[...agents, ...(judge?.agents ?? [])].map((a) => prefixed(a.env))),
  });
  const mcp = mcpSecretValues(loaded, scenarios, MIN_SECRET_LENGTH, env);
  // The judge's key is one whatever its variable is called (`api_key_env` may name anything).
  const key = judge?.api_key_env ? env[judge.api_key_env] : undefined;
  const judgeKey = key && key.length >= MIN_SECRET_LENGTH ? [key] : [];
  return [...new Set([...named, ...mcp, ...judgeKey])].sort((a, b) => b.length - a.length);
}
