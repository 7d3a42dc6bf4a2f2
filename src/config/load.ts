/**
 * loadConfig: find the config, load it, validate it, apply the profile, fill defaults, discover every
 * scenario — and report every problem of every file in one ConfigError (exit code 2).
 */
import { dirname, resolve } from 'node:path';
import picomatch from 'picomatch';
import type { z } from 'zod';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import { agentCapabilities, BUILTIN_AGENT_NAMES } from './agents.js';
import { findConfig } from './find.js';
import {
  closest,
  formatPath,
  joinPath,
  translateIssues,
  unknownKeyPaths,
  type PathMessage,
} from './issues.js';
import { FileLoadError, loadFile } from './load-file.js';
import { matchesName } from '../util/name-filter.js';
import { mergeOverlay } from './profiles.js';
import { expandRemotes } from './remotes.js';
import { DEFAULT_API_FAILURE_MINUTES, resolveConfig, SKILL_AGENTS } from './resolve.js';
import { isPlainObject, PARSE_FILE } from './schema-helpers.js';
import { configSchema, type AxisConfig } from './schema.js';
import { collectScenarios } from './scenario-collect.js';
import { displayPath, resolveSources } from './scenarios.js';
import { tokenLimitIssues } from './token-limits.js';
import { unrunScenarioNotices } from './unrun-notices.js';
import type { LoadedConfig, ResolvedConfig, ResolvedScenario } from './types.js';

export interface LoadConfigOptions {
  /** Name of a profile under `profiles` to overlay. */
  profile?: string;
  /** Where discovery starts and what issue paths are relative to; default process.cwd(). */
  cwd?: string;
  /** Set false to skip scenario discovery (`scenarios` is then empty). */
  scenarios?: boolean;
}

/**
 * Loads `path` (a config file or a directory holding one), or the nearest axis.config.* above the cwd.
 * Throws ConfigError with every problem found, or AxisError when no config can be found.
 */
export async function loadConfig(path?: string, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const { loaded, issues } = await loadConfigIssues(path, options);
  if (issues.length > 0 || !loaded) throw new ConfigError(issues);
  return loaded;
}

/**
 * As {@link loadConfig}, but the problems of scenario files are returned, not thrown, with the config
 * and the scenarios that did load: `axis validate` checks their tapes and skills in the same pass.
 * `loaded` is absent when the config file itself has a problem (nothing sound to plan from).
 */
export async function loadConfigIssues(
  path?: string,
  options: LoadConfigOptions = {},
): Promise<{ loaded?: LoadedConfig; issues: ValidationIssue[] }> {
  const cwd = options.cwd ?? process.cwd();
  const configPath = findConfig(path, cwd);
  const configDir = dirname(configPath);
  const file = displayPath(configPath, cwd);
  const issues: ValidationIssue[] = [];

  const raw = await readConfigFile(configPath, file);
  const parsed = configSchema.safeParse(raw, PARSE_FILE);
  let baseConfig: AxisConfig;
  if (parsed.success) baseConfig = parsed.data as AxisConfig;
  else {
    issues.push(...inFile(file, translateIssues(parsed.error.issues)));
    const salvaged = salvage(raw, parsed.error.issues);
    if (!salvaged) {
      if (options.scenarios !== false)
        issues.push(...(await scenariosOfBrokenConfig(raw, configDir, configPath, cwd)));
      throw new ConfigError(issues);
    }
    baseConfig = salvaged; // go on, so the rules and the scenarios report their problems too
  }

  const base = resolveConfig(baseConfig, configDir);
  issues.push(...inFile(file, base.issues));
  let config = base.config;
  // A scenario's `agents` may name an agent of the base or of any profile: its runs just skip the others.
  const suite = [base.config];
  let others: OtherConfig[] = [];
  if (parsed.success) {
    const checkMerged = base.issues.length === 0;
    const profiles = checkProfiles(baseConfig, options.profile, checkMerged, configDir, file, issues);
    config = profiles.selected ?? config;
    suite.push(...profiles.all.map((p) => p.config));
    others = profiles.all.filter((p) => p.name !== options.profile);
  }

  let scenarios: ResolvedScenario[] = [];
  const notices: string[] = [];
  if (options.scenarios !== false) {
    const knownAgents = [...new Set(suite.flatMap(knownAgentNames))];
    const where = { configDir, cwd, configPath, file, profile: options.profile, knownAgents, others };
    ({ config, scenarios } = await discoverScenarios(config, where, issues, notices));
  }

  const loaded: LoadedConfig = { config, baseConfig, configPath, configDir, scenarios, notices };
  if (options.profile !== undefined) loaded.profile = options.profile;
  return issues.some((i) => i.file === file) ? { issues } : { loaded, issues };
}

/** Problems found in `file`; `suffix` ends each message. */
function inFile(file: string, list: readonly PathMessage[], suffix = ''): ValidationIssue[] {
  return list.map((i) => ({ file, path: i.path, message: `${i.message}${suffix}` }));
}

async function readConfigFile(configPath: string, file: string): Promise<unknown> {
  try {
    return await loadFile(configPath);
  } catch (err) {
    if (err instanceof FileLoadError) throw new ConfigError([{ file, path: err.path, message: err.message }]);
    throw err;
  }
}

const noProfileNamed = (name: string) => `no profile named ${JSON.stringify(name)}`;

/**
 * The issue of `err` saying the config declares no profile `name`, and what follows the name in it (the
 * guess and the known profiles); undefined when `err` has no such issue.
 */
export function unknownProfileIssue(
  err: unknown,
  name: string,
): { issue: ValidationIssue; tail: string } | undefined {
  if (!(err instanceof ConfigError)) return undefined;
  const prefix = noProfileNamed(name);
  const issue = err.issues.find((i) => i.path === 'profiles' && i.message.startsWith(prefix));
  return issue && { issue, tail: issue.message.slice(prefix.length) };
}

/**
 * The profile asked for must exist. Every profile is checked merged (when the base config has no
 * problem), used or not, so a broken one fails `axis validate` before CI picks it. Returns the config
 * with the profile asked for, when it resolved, and every profile's config that resolved.
 */
function checkProfiles(
  baseConfig: AxisConfig,
  profile: string | undefined,
  checkMerged: boolean,
  configDir: string,
  file: string,
  issues: ValidationIssue[],
): { selected?: ResolvedConfig; all: OtherConfig[] } {
  const profiles = baseConfig.profiles ?? {};
  if (profile !== undefined && !Object.hasOwn(profiles, profile)) {
    const names = Object.keys(profiles);
    const guess = closest(profile, names);
    issues.push({
      file,
      path: 'profiles',
      message: names.length
        ? `${noProfileNamed(profile)}${guess ? `; did you mean "${guess}"?` : ''} (known profiles: ${names.join(', ')})`
        : `${noProfileNamed(profile)}: the config declares no profiles`,
    });
  }
  const all: OtherConfig[] = [];
  if (!checkMerged) return { all };
  let selected: ResolvedConfig | undefined;
  for (const [name, overlay] of Object.entries(profiles)) {
    const merged = configSchema.safeParse(mergeOverlay(baseConfig, overlay), PARSE_FILE);
    const found = merged.success ? resolveConfig(merged.data as AxisConfig, configDir) : undefined;
    issues.push(
      ...inProfile(
        merged.success ? found!.issues : translateIssues(merged.error.issues),
        name,
        overlay,
        file,
      ),
    );
    if (found) all.push({ name, config: found.config, overlay });
    if (found && name === profile) selected = found.config;
  }
  return selected ? { selected, all } : { all };
}

/**
 * The remote sources expanded (only while the config has no problem), then every scenario found and
 * checked against the config's agents and token limits. Issues and notices are added to the lists.
 */
async function discoverScenarios(
  config: ResolvedConfig,
  where: {
    configDir: string;
    cwd: string;
    configPath: string;
    file: string;
    profile?: string;
    knownAgents: string[];
    others: readonly OtherConfig[];
  },
  issues: ValidationIssue[],
  notices: string[],
): Promise<{ config: ResolvedConfig; scenarios: ResolvedScenario[] }> {
  const { configDir, cwd, file } = where;
  const sources = JSON.stringify(config.scenarios);
  if (issues.length === 0) {
    const remote = await expandRemotes(config, { configDir, cwd, configFile: file });
    issues.push(...remote.issues);
    notices.push(...remote.notices);
    config = remote.config;
  }
  const found = await collectScenarios(config.scenarios, config.settings, {
    configDir,
    cwd,
    configFile: where.configPath,
    // The selected config after its remotes (they may add adapters), and every profile's agents.
    knownAgents: [...new Set([...where.knownAgents, ...knownAgentNames(config)])],
  });
  issues.push(...found.issues);
  notices.push(...found.notices);
  const scenarios = found.scenarios;
  const suffix = where.profile !== undefined ? ` (with profile "${where.profile}")` : '';
  if (found.issues.length === 0) {
    issues.push(...inFile(file, checkAgentScenarioFilters(config, scenarios), suffix));
    issues.push(...inFile(file, tokenLimitIssues(config, scenarios), suffix));
    issues.push(...otherProfileFilters(where.others, sources, scenarios, file));
  }
  notices.push(...skillNotices(config, scenarios), ...unrunScenarioNotices(config, scenarios, cwd));
  return { config, scenarios };
}

/**
 * Problems of a merged profile point into the profile when it sets that very path
 * (`profiles.ci.agents[0]`); otherwise they keep the merged path and say which profile was applied.
 */
function inProfile(
  list: readonly PathMessage[],
  name: string,
  overlay: unknown,
  file: string,
): ValidationIssue[] {
  const own = new Set<string>();
  const walk = (value: unknown, path: PropertyKey[]) => {
    own.add(formatPath(path));
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(overlay, []);
  const base = formatPath(['profiles', name]);
  return list.map((i) =>
    i.path && own.has(i.path)
      ? { file, path: joinPath(base, i.path), message: i.message }
      : { file, path: i.path, message: `${i.message} (with profile "${name}")` },
  );
}

/** Adapter names and configured agent names, for checking `agents` filters in scenarios. */
export function knownAgentNames(config: ResolvedConfig): string[] {
  const names = new Set<string>([...BUILTIN_AGENT_NAMES, ...Object.keys(config.adapters)]);
  for (const a of config.agents) names.add(a.name);
  return [...names];
}

/** Config- or scenario-level skills that some configured agent cannot take: said, not silently dropped. */
function skillNotices(config: ResolvedConfig, scenarios: readonly ResolvedScenario[]): string[] {
  const anySkills = config.skills.length > 0 || scenarios.some((s) => s.skills.length > 0);
  if (!anySkills) return [];
  return config.agents
    .filter((a) => !agentCapabilities(a.agent).acceptsSkills)
    .map(
      (a) =>
        `agent "${a.name}" (${a.agent}) cannot take skills: the configured skills are not installed for it (agents that take skills: ${SKILL_AGENTS.join(', ')})`,
    );
}

/** Another profile's config, checked too: its typos would otherwise wait until it is selected. */
interface OtherConfig {
  name: string;
  config: ResolvedConfig;
  overlay: unknown;
}

/**
 * The agents' `scenarios` entries a profile sets itself, checked against these scenarios when the profile
 * reads the same sources (one with its own is checked when selected).
 */
function otherProfileFilters(
  others: readonly OtherConfig[],
  sources: string,
  scenarios: readonly ResolvedScenario[],
  file: string,
): ValidationIssue[] {
  return others
    .filter((p) => JSON.stringify(p.config.scenarios) === sources)
    .flatMap((p) => inProfile(checkAgentScenarioFilters(p.config, scenarios), p.name, p.overlay, file))
    .filter((i) => i.path.startsWith('profiles.') || i.path.startsWith('profiles['));
}

/**
 * Each of an agent's `scenarios` entries must name or match an existing scenario: a typo would otherwise
 * leave the agent out of those jobs without a word.
 */
function checkAgentScenarioFilters(
  config: ResolvedConfig,
  scenarios: readonly ResolvedScenario[],
): PathMessage[] {
  const keys = [...new Set(scenarios.flatMap((s) => [s.key, s.baseKey]))];
  const issues: PathMessage[] = [];
  config.agents.forEach((agent, i) => {
    agent.scenarios?.forEach((entry, j) => {
      if (keys.includes(entry)) return;
      const path = `agents[${i}].scenarios[${j}]`;
      if (picomatch.scan(entry).isGlob) {
        if (!scenarios.some((s) => matchesName(entry, s.key, s.baseKey)))
          issues.push({
            path,
            message: `the glob ${JSON.stringify(entry)} matches no scenario (${keyList(scenarios)})`,
          });
        return;
      }
      const guess = closest(entry, keys);
      issues.push({
        path,
        message: `no scenario has the key ${JSON.stringify(entry)}${guess ? `; did you mean "${guess}"?` : ''}`,
      });
    });
  });
  return issues;
}

function keyList(scenarios: readonly ResolvedScenario[]): string {
  const keys = [...new Set(scenarios.map((s) => s.baseKey))];
  if (keys.length === 0) return 'there are none';
  const shown = keys.slice(0, 10).join(', ');
  return `keys: ${shown}${keys.length > 10 ? `, … (${keys.length} in all)` : ''}`;
}

/**
 * A best-effort config from one with shape problems, so the rules and the scenarios can still report
 * theirs: unknown keys are dropped, then every top-level field that still has a problem. `scenarios`
 * becomes empty rather than falling back to the default folder.
 */
function salvage(raw: unknown, shapeIssues: readonly z.core.$ZodIssue[]): AxisConfig | undefined {
  if (!isPlainObject(raw)) return undefined;
  const copy = plainCopy(raw);
  for (const path of unknownKeyPaths(shapeIssues)) {
    const parent = path
      .slice(0, -1)
      .reduce<unknown>(
        (o, k) => (isPlainObject(o) || Array.isArray(o) ? (o as Record<PropertyKey, unknown>)[k] : undefined),
        copy,
      );
    if (isPlainObject(parent)) delete parent[path.at(-1) as string];
  }
  const again = configSchema.safeParse(copy);
  const bad = new Set(again.success ? [] : again.error.issues.map((i) => i.path[0]));
  const rest = Object.fromEntries(Object.entries(copy).filter(([k]) => !bad.has(k)));
  if (bad.has('scenarios')) rest.scenarios = [];
  const parsed = configSchema.safeParse(rest);
  return parsed.success ? (parsed.data as AxisConfig) : undefined;
}

/** A copy of the plain-data part of a config (TS configs may hold other values; they are kept as they are). */
function plainCopy(value: Record<string, unknown>): Record<string, unknown> {
  const copy = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(copy)
      : isPlainObject(v)
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]))
        : v;
  return copy(value) as Record<string, unknown>;
}

/** When the config itself is invalid, still validate the scenarios its `scenarios` field points at. */
async function scenariosOfBrokenConfig(
  raw: unknown,
  configDir: string,
  configPath: string,
  cwd: string,
): Promise<ValidationIssue[]> {
  if (!isPlainObject(raw)) return [];
  const field = configSchema.shape.scenarios.safeParse(raw.scenarios);
  if (!field.success) return [];
  const { sources, issues: sourceIssues } = resolveSources(field.data, configDir);
  const file = displayPath(configPath, cwd);
  const settings = configSchema.shape.settings.safeParse(raw.settings);
  const simulate = settings.success ? settings.data?.simulate : undefined;
  const scenario = settings.success ? settings.data?.limits?.scenario : undefined;
  const tapes = simulate === true ? './tapes' : simulate ? (simulate.tapes ?? './tapes') : undefined;
  const limits = {
    time_minutes: scenario?.time_minutes ?? 15,
    ...(scenario?.tokens ? { tokens: scenario.tokens } : {}),
  };
  const found = await collectScenarios(
    sources,
    {
      limits: { run: {}, scenario: limits, api_failures: DEFAULT_API_FAILURE_MINUTES },
      simulate: tapes ? { tapes: resolve(configDir, tapes) } : false,
    },
    { configDir, cwd, configFile: configPath },
  );
  return [...sourceIssues.map((i) => ({ file, ...i })), ...found.issues];
}
