/**
 * Shape-valid config → ResolvedConfig: the rules zod cannot express (agent capabilities, unique agent
 * names, weight sums, files that must exist), defaults filled in, paths made absolute.
 */
import { shownUrl, trustEntryMatches } from './sources.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { agentNameProblem } from './file-names.js';
import {
  BUILTIN_AGENT_NAMES,
  agentCapabilities,
  agentIdentity,
  fixedFlagRefusal,
  isBuiltinAgent,
  type AgentCapabilities,
} from './agents.js';
import { ACP_PRESETS, isPreset, PRESET_NAMES } from './catalogue.js';
import { closest, type PathMessage } from './issues.js';
import { resolveNetwork } from './network.js';
import { resolveLifecycle, resolveMcp } from './scenario-resolve.js';
import type { AgentEntry, AxisConfig } from './schema.js';
import { reservedEnvIssues } from './reserved-env.js';
import { resolveSources } from './scenarios.js';
import { skillSourceIssues } from './skill-sources.js';
import type {
  ResolvedAgent,
  ResolvedConfig,
  ResolvedJudge,
  ResolvedSettings,
  ScenarioSource,
  ScoringWeights,
} from './types.js';

export const DEFAULT_WEIGHTS: ScoringWeights = {
  goal_achievement: 0.4,
  environment: 0.2,
  service: 0.2,
  agent: 0.2,
};
export const WEIGHT_SUM_TOLERANCE = 0.01;

export const SKILL_AGENTS = BUILTIN_AGENT_NAMES.filter((n) => agentCapabilities(n).acceptsSkills);

/** `settings.limits.api_failures` default: long enough for a provider blip, short next to a scenario. */
export const DEFAULT_API_FAILURE_MINUTES = 3;

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);

export function unknownAgentMessage(name: string, known: readonly string[]): string {
  const guess = closest(name.toLowerCase(), [...known, ...PRESET_NAMES]);
  const custom = known.filter((k) => !isBuiltinAgent(k));
  return (
    `unknown agent ${JSON.stringify(name)}${guess ? `; did you mean "${guess}"?` : '.'} ` +
    `Built-in agents: ${BUILTIN_AGENT_NAMES.join(', ')}` +
    (custom.length ? `; custom: ${custom.join(', ')}` : '; add custom ones under "adapters"') +
    `. Any ACP agent runs as { "agent": "acp", "command": "<executable>" }; \`axis agents\` lists the presets`
  );
}

/** A preset name (`goose`) → the `acp` entry it stands for; anything else unchanged. */
function expandPreset(
  entry: AgentEntry,
  adapters: Record<string, string>,
): { entry: AgentEntry; preset?: string } {
  const e = typeof entry === 'string' ? { agent: entry } : entry;
  const name = e.agent.toLowerCase();
  if (!isPreset(name) || name in adapters) return { entry };
  const p = ACP_PRESETS[name]!;
  const expanded = {
    ...e,
    agent: 'acp',
    name: e.name ?? name,
    command: e.command ?? p.command,
    args: e.args ?? [...p.args],
    ...(p.set || e.env ? { env: { ...(p.set ?? {}), ...(e.env ?? {}) } } : {}),
  };
  return { entry: expanded, preset: name };
}

function resolveAgent(
  written: AgentEntry,
  where: string,
  adapters: Record<string, string>,
  issues: PathMessage[],
): ResolvedAgent {
  const { entry, preset } = expandPreset(written, adapters);
  const e = typeof entry === 'string' ? { agent: entry } : entry;
  const agent = e.agent.toLowerCase();
  const at = (field: string) => (typeof written === 'string' ? where : `${where}.${field}`);
  const known = [...BUILTIN_AGENT_NAMES, ...Object.keys(adapters)];
  if (!known.includes(agent))
    issues.push({ path: at('agent'), message: unknownAgentMessage(e.agent, known) });
  const caps = agentCapabilities(agent);
  if (typeof entry !== 'string') checkAgentFields(entry, preset ?? agent, caps, at, issues);
  if (typeof written !== 'string') reservedEnvIssues(written.env, at('env'), issues);
  if (caps.needsCommand && e.command === undefined) {
    issues.push({
      path: at('command'),
      message: `missing; agent "${agent}" needs "command" (the executable to run)`,
    });
  }
  const out: ResolvedAgent = {
    name: agentIdentity(e),
    agent,
    flags: { ...(e.flags ?? {}) },
    env: { ...(e.env ?? {}) },
    skills: [...(e.skills ?? [])],
    args: [...(e.args ?? [])],
  };
  if (e.model !== undefined) out.model = e.model;
  if (e.scenarios !== undefined) out.scenarios = [...e.scenarios];
  if (e.command !== undefined) out.command = e.command;
  if (preset) out.preset = preset;
  if (agent === 'command') {
    out.prompt_via = e.prompt_via ?? 'stdin';
    out.output = e.output ?? 'text';
  }
  if (adapters[agent]) out.module = adapters[agent];
  return out;
}

/**
 * Why `model` is refused, and what does the same: an ACP preset (upstream's `claude-sdk` took a model) is
 * named as written, with the variable or option its agent reads.
 */
function modelRefusal(agent: string, model: string): string {
  if (!isPreset(agent))
    return `agent "${agent}" cannot take a model: it runs the command you configure; set the model in "args" instead`;
  const home = ACP_PRESETS[agent]!.home;
  const how =
    home === 'claude'
      ? `set "env": { "ANTHROPIC_MODEL": ${JSON.stringify(model)} } instead`
      : home === 'codex'
        ? `set "args": ["-c", ${JSON.stringify(`model=${JSON.stringify(model)}`)}] instead`
        : `pass the agent's own model option in "args" instead`;
  return `agent "${agent}" (an ACP preset) cannot take a model: ${how}`;
}

/** The fields an entry sets that its agent cannot take. */
function checkAgentFields(
  entry: Exclude<AgentEntry, string>,
  agent: string,
  caps: AgentCapabilities,
  at: (field: string) => string,
  issues: PathMessage[],
): void {
  if (entry.model !== undefined && !caps.acceptsModel) {
    issues.push({ path: at('model'), message: modelRefusal(agent, entry.model) });
  }
  if (entry.flags !== undefined && !caps.acceptsFlags) {
    issues.push({
      path: at('flags'),
      message: `agent "${agent}" takes no flags; pass arguments with "args" instead`,
    });
  }
  for (const key of Object.keys(caps.acceptsFlags ? (entry.flags ?? {}) : {})) {
    const refusal = fixedFlagRefusal(agent, key);
    if (refusal) issues.push({ path: at(`flags.${key}`), message: refusal });
  }
  if (entry.args !== undefined && !caps.needsCommand && isBuiltinAgent(agent)) {
    issues.push({
      path: at('args'),
      message: `agent "${agent}" takes no "args"; use "flags" for its CLI options`,
    });
  }
  for (const field of ['prompt_via', 'output'] as const) {
    if (entry[field] !== undefined && agent !== 'command') {
      issues.push({ path: at(field), message: `only applies to agent "command", found agent "${agent}"` });
    }
  }
  if (entry.skills?.length && !caps.acceptsSkills) {
    issues.push({
      path: at('skills'),
      message: `agent "${agent}" cannot take skills: AXIS knows no folder where it discovers them (agents that do: ${SKILL_AGENTS.join(', ')})`,
    });
  }
}

function resolveSettings(
  settings: AxisConfig['settings'],
  configDir: string,
  issues: PathMessage[],
): ResolvedSettings {
  const s = settings ?? {};
  const weights: ScoringWeights = { ...DEFAULT_WEIGHTS, ...definedOnly(s.scoring_weights ?? {}) };
  const sum = weights.goal_achievement + weights.environment + weights.service + weights.agent;
  if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
    const parts = (Object.keys(weights) as (keyof ScoringWeights)[]).map((k) => `${k} ${fmt(weights[k])}`);
    issues.push({
      path: 'settings.scoring_weights',
      message: `expected the weights to sum to 1 (± ${WEIGHT_SUM_TOLERANCE}), found ${fmt(sum)}: ${parts.join(' + ')} (unset ones use their defaults)`,
    });
  }
  const sim = s.simulate ?? false;
  return {
    concurrency: s.concurrency ?? 15,
    runs: s.runs ?? 1,
    scoring_weights: weights,
    limits: {
      run: { ...definedOnly(s.limits?.run ?? {}) },
      scenario: { time_minutes: 15, ...definedOnly(s.limits?.scenario ?? {}) },
      api_failures: s.limits?.api_failures ?? DEFAULT_API_FAILURE_MINUTES,
    },
    thresholds: {
      ...definedOnly(s.thresholds ?? {}),
      baseline_tolerance: s.thresholds?.baseline_tolerance ?? 1,
    },
    simulate:
      sim === false
        ? false
        : { tapes: resolve(configDir, (sim === true ? undefined : sim.tapes) ?? './tapes') },
    remotes: { maxDepth: s.remotes?.maxDepth ?? 1, trust_code: s.remotes?.trust_code ?? false },
    sandbox: s.sandbox ?? 'none',
    network: resolveNetwork(s.network) ?? { mode: 'host', ports: [] },
  };
}

function resolveJudge(
  config: AxisConfig,
  adapters: Record<string, string>,
  issues: PathMessage[],
): ResolvedJudge | undefined {
  const j = config.judge;
  if (j && config.judging) {
    issues.push({ path: 'judging', message: 'expected either "judge" or the older "judging", found both' });
  }
  if (!j) {
    if (!config.judging) return undefined;
    const agents = config.judging.agents.map((a, i) =>
      resolveAgent(a, `judging.agents[${i}]`, adapters, issues),
    );
    return { provider: 'agent', agents, max_retries: 3, timeout_seconds: 120 };
  }
  if (j.provider === 'agent' && j.agent === undefined) {
    issues.push({
      path: 'judge.agent',
      message: 'missing; provider "agent" needs an agent entry (e.g. "claude-code")',
    });
  }
  if (j.provider !== 'agent' && j.agent !== undefined) {
    issues.push({
      path: 'judge.agent',
      message: `only used with provider "agent", found provider "${j.provider}"`,
    });
  }
  if (j.provider === 'agent') checkHttpOnlyFields(j, issues);
  const out: ResolvedJudge = {
    provider: j.provider,
    agents:
      j.agent !== undefined && j.provider === 'agent'
        ? [resolveAgent(j.agent, 'judge.agent', adapters, issues)]
        : [],
    max_retries: j.max_retries ?? 3,
    timeout_seconds: j.timeout_seconds ?? 120,
  };
  if (j.model !== undefined) out.model = j.model;
  if (j.base_url !== undefined) out.base_url = j.base_url;
  if (j.api_key_env !== undefined) out.api_key_env = j.api_key_env;
  return out;
}

/** An agent judge has no model, URL or key of its own: its agent entry carries them. */
function checkHttpOnlyFields(j: NonNullable<AxisConfig['judge']>, issues: PathMessage[]): void {
  const only = 'only used with provider "anthropic" or "openai", found provider "agent"';
  const viaAgent = 'the judge agent reaches its provider as it would under test (its "env")';
  if (j.model !== undefined)
    issues.push({
      path: 'judge.model',
      message: `${only}; give the judge agent its own model: "agent": { "agent": "…", "model": "…" }`,
    });
  for (const field of ['base_url', 'api_key_env'] as const)
    if (j[field] !== undefined) issues.push({ path: `judge.${field}`, message: `${only}; ${viaAgent}` });
}

/** Resolves a shape-valid config; every rule violation is returned, none thrown. */
export function resolveConfig(
  config: AxisConfig,
  configDir: string,
): { config: ResolvedConfig; issues: PathMessage[] } {
  const issues: PathMessage[] = [];
  const adapters = resolveAdapters(config.adapters ?? {}, configDir, issues);
  const agents = config.agents.map((a, i) => resolveAgent(a, `agents[${i}]`, adapters, issues));
  checkAgentNames(agents, issues);
  issues.push(...skillSourceIssues(config.skills, 'skills', configDir));
  config.agents.forEach((a, i) => {
    if (typeof a !== 'string') issues.push(...skillSourceIssues(a.skills, `agents[${i}].skills`, configDir));
  });

  const { sources, issues: sourceIssues } = resolveSources(config.scenarios, configDir);
  issues.push(...sourceIssues);
  const trust = config.settings?.remotes?.trust_code;
  if (Array.isArray(trust)) checkTrustedUrls(trust, sources, issues);

  const env = config.env;
  reservedEnvIssues(env, 'env', issues);
  const resolved: ResolvedConfig = {
    scenarios: sources,
    agents,
    settings: resolveSettings(config.settings, configDir, issues),
    env: Array.isArray(env) ? { pass: [...env], values: {} } : { pass: [], values: { ...(env ?? {}) } },
    mcp_servers: resolveMcp(config.mcp_servers),
    classify: { ...(config.classify ?? {}) },
    skills: [...(config.skills ?? [])],
    artifacts: [...(config.artifacts ?? [])],
    adapters,
    beforeAll: resolveLifecycle(config.beforeAll),
    afterAll: resolveLifecycle(config.afterAll),
    profiles: Object.keys(config.profiles ?? {}),
  };
  if (config.name !== undefined) resolved.name = config.name;
  const judge = resolveJudge(config, adapters, issues);
  if (judge) resolved.judge = judge;
  return { config: resolved, issues };
}

/** Custom adapter names (lower-cased) → absolute module paths. */
function resolveAdapters(
  written: Record<string, string>,
  configDir: string,
  issues: PathMessage[],
): Record<string, string> {
  const adapters: Record<string, string> = {};
  for (const [rawName, modulePath] of Object.entries(written)) {
    const name = rawName.toLowerCase();
    const at = `adapters.${rawName}`;
    if (isBuiltinAgent(name)) {
      issues.push({
        path: at,
        message: `a custom adapter may not reuse the built-in name "${name}"; pick another name`,
      });
      continue;
    }
    const abs = resolve(configDir, modulePath);
    if (!existsSync(abs)) {
      issues.push({
        path: at,
        message: `expected an existing module file, found ${JSON.stringify(modulePath)} (${abs} does not exist)`,
      });
    }
    adapters[name] = abs;
  }
  return adapters;
}

function checkAgentNames(agents: readonly ResolvedAgent[], issues: PathMessage[]): void {
  const firstByName = new Map<string, number>();
  agents.forEach((a, i) => {
    const long = agentNameProblem(a.name, `agents[${i}]`);
    if (long) issues.push(long);
    const first = firstByName.get(a.name);
    if (first === undefined) firstByName.set(a.name, i);
    else {
      issues.push({
        path: `agents[${i}]`,
        message: `duplicate agent name "${a.name}" (also agents[${first}]); set "name" on one of them to tell them apart`,
      });
    }
  });
}

/** Each `settings.remotes.trust_code` URL must name a git source of "scenarios" (at its `#ref`, if given). */
function checkTrustedUrls(trust: readonly string[], sources: ScenarioSource[], issues: PathMessage[]): void {
  const git = sources.flatMap((s) => (s.kind === 'git' ? [s] : []));
  // Shown with their credentials masked, as every message about a source is (`spec` already is).
  const shown = [...new Set(git.flatMap((s) => [shownUrl(s.url), s.spec, s.spec.replace(/#.*$/, '')]))];
  trust.forEach((url, i) => {
    if (git.some((s) => trustEntryMatches(url, s.url, s.spec))) return;
    const path = `settings.remotes.trust_code[${i}]`;
    const bare = url.replace(/#.*$/, '');
    const atOtherRef = git.filter((s) => trustEntryMatches(bare, s.url, s.spec)).map((s) => s.spec);
    if (atOtherRef.length) {
      const refs = atOtherRef.map((s) => JSON.stringify(s)).join(', ');
      const message = `no git source in "scenarios" is ${JSON.stringify(shownUrl(url))}: an entry with a #ref trusts that ref only (scenarios has ${refs}; list it, or the URL without #ref for every ref)`;
      issues.push({ path, message });
      return;
    }
    const guess = closest(shownUrl(url), shown);
    issues.push({
      path,
      message:
        `no git source in "scenarios" has the URL ${JSON.stringify(shownUrl(url))}` +
        (guess ? `; did you mean "${guess}"?` : '') +
        ` (git sources: ${[...new Set(git.map((s) => shownUrl(s.url)))].join(', ') || 'none'})`,
    });
  });
}

function definedOnly<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
