/**
 * Adapter lookup by the name written in `agents[].agent`: the built-ins (loaded lazily, one module
 * each) and custom module adapters from the config's `adapters` map (loaded once per file).
 */
import { BUILTIN_AGENT_NAMES, type BuiltinAgentName } from '../config/agents.js';
import type { ResolvedConfig } from '../config/types.js';
import { AxisError, ConfigError, type ValidationIssue } from '../util/errors.js';
import { createCommandAdapter } from './command.js';
import { loadModuleAdapter } from './module.js';
import type { AgentAdapter } from './types.js';

/** What getAdapter needs from the loaded config (a LoadedConfig fits). */
export interface AdapterSource {
  configDir: string;
  config: Pick<ResolvedConfig, 'adapters'>;
}

type Loader = (source: AdapterSource) => Promise<AgentAdapter>;

const BUILTINS: Record<BuiltinAgentName, Loader> = {
  'claude-code': async () => (await import('./claude-code.js')).claudeCodeAdapter,
  codex: async () => (await import('./codex.js')).codexAdapter,
  gemini: async () => (await import('./gemini.js')).geminiAdapter,
  'qwen-code': async () => (await import('./qwen-code.js')).qwenCodeAdapter,
  opencode: async () => (await import('./opencode.js')).opencodeAdapter,
  acp: async (source) => (await import('./acp.js')).createAcpAdapter({ configDir: source.configDir }),
  command: async (source) => createCommandAdapter({ configDir: source.configDir }),
};

const moduleCache = new Map<string, Promise<AgentAdapter>>();

/** The adapter with `ctx.configDir` defaulting to the config's directory (for a relative `command`). */
function withConfigDir(adapter: AgentAdapter, configDir: string): AgentAdapter {
  return { ...adapter, run: (ctx) => adapter.run(ctx.configDir ? ctx : { ...ctx, configDir }) };
}

export function isBuiltinAdapter(name: string): name is BuiltinAgentName {
  return (BUILTIN_AGENT_NAMES as string[]).includes(name);
}

/**
 * The adapter for `name` (case-insensitive). Custom adapters in `config.adapters` win over nothing:
 * the config rejects custom names that shadow a built-in. Throws ConfigError (exit 2) for a module
 * that does not export a valid adapter, AxisError (exit 2) for an unknown name.
 */
export async function getAdapter(name: string, source: AdapterSource): Promise<AgentAdapter> {
  const key = name.toLowerCase();
  const modulePath = source.config.adapters[key] ?? source.config.adapters[name];
  if (modulePath !== undefined) {
    let pending = moduleCache.get(modulePath);
    if (!pending) {
      pending = loadModuleAdapter(modulePath, key).then((a) => withConfigDir(a, source.configDir));
      moduleCache.set(modulePath, pending);
      pending.catch(() => moduleCache.delete(modulePath));
    }
    return pending;
  }
  if (isBuiltinAdapter(key)) return withConfigDir(await BUILTINS[key](source), source.configDir);
  const custom = Object.keys(source.config.adapters);
  throw new AxisError(
    `Unknown agent adapter "${name}". Built-in adapters: ${BUILTIN_AGENT_NAMES.join(', ')}` +
      (custom.length ? `; custom: ${custom.join(', ')}` : '; add custom ones under "adapters" in the config'),
    { exitCode: 2 },
  );
}

/**
 * Loads every adapter the given agents use (each once), so a broken module fails before any job. Every
 * module that does not load is named, in one ConfigError (exit 2), as `axis validate` names them: not
 * only the first. An unknown name still throws at once (AxisError): the config names no such agent.
 */
export async function loadAdapters(
  agentNames: Iterable<string>,
  source: AdapterSource,
): Promise<Map<string, AgentAdapter>> {
  const out = new Map<string, AgentAdapter>();
  const issues: ValidationIssue[] = [];
  for (const key of new Set([...agentNames].map((n) => n.toLowerCase()))) {
    try {
      out.set(key, await getAdapter(key, source));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      issues.push(...err.issues);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return out;
}
