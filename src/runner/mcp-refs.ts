/**
 * `${NAME}` references in MCP servers' `command`, `args`, `env`, `url` and `headers`
 * (docs/configuration.md#mcp_servers),
 * resolved from the host environment once per run, before any job: each scenario's servers (the
 * config's, then its own) are ready for its jobs, and a variable that is not set stops the run (exit 2)
 * naming the file and field, instead of reaching the agent as the literal text `${NAME}`.
 */
import { relative } from 'node:path';
import type { LoadedConfig, McpServer, ResolvedScenario } from '../config/types.js';
import { AxisError } from '../util/errors.js';

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

type Env = Readonly<Record<string, string | undefined>>;

/** One value with its references replaced; each unset variable is added to `missing`. */
function resolveValue(value: string, env: Env, missing: Set<string>): string {
  return value.replace(REF, (ref, name: string) => {
    const v = env[name];
    if (v === undefined) missing.add(ref);
    return v ?? ref;
  });
}

function resolveRecord(
  record: Readonly<Record<string, string>>,
  at: string,
  env: Env,
  problems: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record))
    out[key] = resolveField(value, `${at}.${key}`, env, problems);
  return out;
}

function resolveField(value: string, at: string, env: Env, problems: string[]): string {
  const missing = new Set<string>();
  const out = resolveValue(value, env, missing);
  for (const ref of missing) problems.push(`${at}: ${ref} is not set in the host environment`);
  return out;
}

/** Servers with every reference resolved; `where` prefixes each problem (`file: mcp_servers`). */
export function resolveMcpRefs(
  servers: Readonly<Record<string, McpServer>>,
  where: string,
  env: Env,
  problems: string[],
): Record<string, McpServer> {
  const out: Record<string, McpServer> = {};
  for (const [name, s] of Object.entries(servers)) {
    const at = `${where}.${name}`;
    if (s.type === 'http') {
      const url = resolveField(s.url, `${at}.url`, env, problems);
      out[name] = {
        ...s,
        url,
        ...(s.headers ? { headers: resolveRecord(s.headers, `${at}.headers`, env, problems) } : {}),
      };
    } else {
      // command and args too: Claude Code and Gemini CLI would expand them from the job's env, others not.
      out[name] = {
        ...s,
        command: resolveField(s.command, `${at}.command`, env, problems),
        ...(s.args ? { args: s.args.map((a, i) => resolveField(a, `${at}.args[${i}]`, env, problems)) } : {}),
        ...(s.env ? { env: resolveRecord(s.env, `${at}.env`, env, problems) } : {}),
      };
    }
  }
  return out;
}

/**
 * The values `${NAME}` references put into MCP servers' `headers`, `env` and `args`: credentials, whatever
 * the variable is called (a header is how an HTTP server is authorised), so the reports mask them as they
 * mask values of variables named like secrets. Short values (under `minLength`) are left: masking a
 * two-letter value would blank it out of every text.
 */
export function mcpSecretValues(
  loaded: LoadedConfig,
  scenarios: readonly ResolvedScenario[],
  minLength: number,
  env: Env = process.env,
): string[] {
  const values = new Set<string>();
  const add = (record: Readonly<Record<string, string>> | readonly string[] | undefined) => {
    for (const value of Object.values(record ?? {}))
      for (const [, name] of value.matchAll(REF)) {
        const v = env[name!];
        if (v !== undefined && v.length >= minLength) values.add(v);
      }
  };
  for (const servers of [loaded.config.mcp_servers, ...scenarios.map((s) => s.mcp_servers)])
    for (const s of Object.values(servers)) {
      if (s.type === 'http') add(s.headers);
      else for (const values of [s.env, s.args]) add(values);
    }
  return [...values];
}

/**
 * Each planned scenario's servers (the config's, then the scenario's, which win on a name), by scenario
 * key. Throws AxisError (exit 2) listing every reference to a variable that is not set.
 */
export function runMcpServers(
  loaded: LoadedConfig,
  scenarios: readonly ResolvedScenario[],
  cwd: string,
  env: Env = process.env,
): Map<string, Record<string, McpServer>> {
  const problems: string[] = [];
  const show = (file: string) => relative(cwd, file) || file;
  const configFile = show(loaded.configPath);
  const base = resolveMcpRefs(loaded.config.mcp_servers, `${configFile}: mcp_servers`, env, problems);
  const byKey = new Map<string, Record<string, McpServer>>();
  for (const s of scenarios) {
    const where = s.file ? `${show(s.file)}: mcp_servers` : `${configFile}: scenario "${s.key}" mcp_servers`;
    byKey.set(s.key, { ...base, ...resolveMcpRefs(s.mcp_servers, where, env, problems) });
  }
  if (problems.length > 0) {
    const unique = [...new Set(problems)];
    throw new AxisError(
      `MCP server settings name unset variables:\n${unique.map((p) => `  ${p}`).join('\n')}`,
      {
        exitCode: 2,
      },
    );
  }
  return byKey;
}

/** A job's servers from {@link runMcpServers}; a scenario it never saw is a bug, not "no servers". */
export function jobMcpServers(
  byKey: ReadonlyMap<string, Record<string, McpServer>>,
  scenarioKey: string,
): Record<string, McpServer> {
  const servers = byKey.get(scenarioKey);
  if (!servers) throw new Error(`MCP servers of scenario "${scenarioKey}" were not resolved for this run`);
  return servers;
}
