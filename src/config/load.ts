/**
 * loadConfig: find the config, load it, validate it, apply the profile, fill defaults, discover every
 * scenario — and report every problem of every file in one ConfigError (exit code 2).
 */
import { dirname } from 'node:path';
import picomatch from 'picomatch';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import { agentCapabilities, BUILTIN_AGENT_NAMES } from './agents.js';
import { salvage, scenariosOfBrokenConfig } from './broken-config.js';
import { findConfig } from './find.js';
import { closest, translateIssues, type PathMessage } from './issues.js';
import { FileLoadError, loadFile } from './load-file.js';
import { matchesName } from '../util/name-filter.js';
import { checkProfiles, inProfile, type OtherConfig } from './profile-checks.js';
import { expandRemotes } from './remotes.js';
import { resolveConfig, SKILL_AGENTS } from './resolve.js';
import { PARSE_FILE } from './schema-helpers.js';
import { configSchema, type AxisConfig } from './schema.js';
import { collectScenarios } from './scenario-collect.js';
import { displayPath } from './scenarios.js';
import { tokenLimitIssues } from './token-limits.js';
import { unrunScenarioNotices } from './unrun-notices.js';
import type { LoadedConfig, ResolvedConfig, ResolvedScenario, SkillIssue } from './types.js';

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
  let missingSkills: SkillIssue[] = [];
  const notices: string[] = [];
  if (options.scenarios !== false) {
    const knownAgents = [...new Set(suite.flatMap(knownAgentNames))];
    const where = { configDir, cwd, configPath, file, profile: options.profile, knownAgents, others };
    ({ config, scenarios, missingSkills } = await discoverScenarios(config, where, issues, notices));
  }

  const loaded: LoadedConfig = { config, baseConfig, configPath, configDir, scenarios, notices };
  if (missingSkills.length) loaded.missingSkills = missingSkills;
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
): Promise<{ config: ResolvedConfig; scenarios: ResolvedScenario[]; missingSkills: SkillIssue[] }> {
  const { configDir, cwd, file } = where;
  const sources = JSON.stringify(config.scenarios);
  let missingSkills: SkillIssue[] = [];
  if (issues.length === 0) {
    const remote = await expandRemotes(config, { configDir, cwd, configFile: file });
    issues.push(...remote.issues);
    notices.push(...remote.notices);
    config = remote.config;
    missingSkills = remote.missingSkills;
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
  return { config, scenarios, missingSkills };
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
