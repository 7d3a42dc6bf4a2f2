/**
 * The values a run or a re-score must never write (docs/running.md#secrets-in-output): host variables
 * named like secrets, the config's and the agents' explicit values named so, what `${NAME}` references
 * put into MCP headers and env, the judge's credentials, and the tokens of local logins copied into jobs.
 */
import { readFileSync } from 'node:fs';
import type { AuthResolution } from '../adapters/types.js';
import type { LoadedConfig, ResolvedAgent, ResolvedScenario } from '../config/types.js';
import { MIN_SECRET_LENGTH, secretValues } from '../exec/env.js';
import { mcpSecretValues } from './mcp-refs.js';
import { prefixed } from './run-steps.js';
import { createScrubber } from '../report/scrub.js';

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

/**
 * The tokens in the local-login files a run copies into job homes (Claude Code's `.credentials.json`,
 * Codex's and opencode's `auth.json`): an agent can print them like any file of its home. Every string
 * of such a file of 8 characters or more counts (opencode names its tokens `access` and `refresh`);
 * a file that is not JSON counts line by line.
 */
export function loginSecrets(auth: ReadonlyMap<string, AuthResolution>): string[] {
  const out = new Set<string>();
  for (const res of auth.values()) {
    if (res.source !== 'local_login') continue;
    for (const file of res.files) {
      let text: string;
      try {
        text = file.content ?? readFileSync(file.from, 'utf8');
      } catch {
        continue; // copying it fails the job, saying why
      }
      for (const value of stringsOf(text)) if (value.length >= MIN_SECRET_LENGTH) out.add(value);
    }
  }
  return [...out];
}

function stringsOf(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.split(/\r?\n/).map((l) => l.trim());
  }
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') found.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(parsed);
  return found;
}

/** What the judge cache stores an entry's JSON as: `secrets` masked (paths are left as they are). */
export function cacheScrub(secrets: readonly string[]): ((json: string) => string) | undefined {
  return secrets.length ? createScrubber({ secrets, paths: [] }).line : undefined;
}
