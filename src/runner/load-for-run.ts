/**
 * Loading a config for `axis run` and `axis validate`: every problem in one pass. When scenario files have
 * problems, the missing skill folders and tapes of the selected scenarios that did load are listed with
 * them, so fixing the first list does not reveal a second on the next run.
 */
import { relative } from 'node:path';
import type { AgentAdapter, AuthResolution } from '../adapters/types.js';
import { loadConfigIssues, type LoadConfigOptions } from '../config/load.js';
import { missingSkillIssues } from '../config/needed-files.js';
import type { LoadedConfig, ResolvedAgent } from '../config/types.js';
import { matchesName, planJobs, splitList, type Plan, type PlanFilters } from '../plan/index.js';
import { AxisError, ConfigError, type ValidationIssue } from '../util/errors.js';
import { shownPath } from '../util/shown-path.js';
import { credentialCheck } from './credentials.js';

/** What a run selects: the filters, and with `--failed` the exact pairs it re-runs. */
export type RunSelection = PlanFilters & { only?: readonly { scenarioKey: string; agentName: string }[] };

/**
 * What the run will do that decides which problems stand: ask a judge (default true; not with
 * --no-score), fetch git skills again (`--refresh-skills`: a stale cache is then no problem).
 */
export interface RunChecks {
  judge?: boolean;
  refreshSkills?: boolean;
}

/** As loadConfig, but a ConfigError also names what the selected scenarios that loaded are missing. */
export async function loadConfigForRun(
  path: string | undefined,
  options: LoadConfigOptions & { cwd: string } & RunChecks,
  filters: RunSelection,
): Promise<LoadedConfig> {
  const found = await loadConfigIssues(path, options);
  if (found.issues.length > 0 || !found.loaded) {
    const rest = await neededByTheRest(found.loaded, filters, options.cwd, options);
    throw new ConfigError([...found.issues, ...rest.issues], rest.note);
  }
  return found.loaded;
}

/**
 * When some scenario files are invalid, the missing skills and tapes of the selected scenarios that did
 * load, and their agents' problems and missing keys. None when the config itself is invalid, or when the
 * filters select none of what loaded: those need a fixed config first.
 */
export async function neededByTheRest(
  loaded: LoadedConfig | undefined,
  filters: RunSelection,
  cwd: string,
  checks: RunChecks,
): Promise<{ issues: ValidationIssue[]; note?: string }> {
  const narrow = loaded && narrowed(loaded, filters);
  if (!loaded || !narrow) return { issues: [] };
  let plan: Plan;
  try {
    plan = planJobs(loaded, narrow);
  } catch (err) {
    if (err instanceof AxisError) return { issues: [] };
    throw err;
  }
  // `--failed` re-runs its pairs only: another scenario's missing tape would not stop it.
  if (filters.only) plan = (await import('./run-steps.js')).selectJobs(plan, filters.only);
  const agents = await agentIssues(loaded, plan, cwd, checks.judge ?? true);
  const files = await neededFileIssues(loaded, plan, cwd, checks.refreshSkills);
  return { ...agents, issues: [...files, ...agents.issues] };
}

/**
 * The filters without the scenario keys and tags no loaded scenario has: they may name a broken one.
 * Undefined when that leaves nothing selected.
 */
function narrowed(loaded: LoadedConfig, filters: PlanFilters): PlanFilters | undefined {
  const patterns = splitList(filters.scenarios);
  const scenarios = patterns.filter((p) => loaded.scenarios.some((s) => matchesName(p, s.key, s.baseKey)));
  const wanted = splitList(filters.tags);
  const tags = wanted.filter((t) => loaded.scenarios.some((s) => s.tags.includes(t)));
  if ((patterns.length && !scenarios.length) || (wanted.length && !tags.length)) return undefined;
  return { ...filters, scenarios, tags };
}

/**
 * Both lists at once: every missing skill folder and tape `axis run` would check before its first job
 * (with `refreshSkills`, as `axis run --refresh-skills` checks them: a stale skills cache is fetched again).
 */
export async function neededFileIssues(
  loaded: LoadedConfig,
  plan: Plan,
  cwd: string,
  refreshSkills = false,
): Promise<ValidationIssue[]> {
  const skills = missingSkillIssues(loaded, plan.agents, plan.scenarios, cwd, { refreshSkills });
  const tapes = await checkTapes(loaded, plan).then(
    () => [],
    (err: unknown) => (err instanceof ConfigError ? err.issues : Promise.reject(err)),
  );
  return [...skills, ...tapes];
}

/**
 * Under simulate, each selected scenario's tape is loaded and checked as `axis run` does first, so a
 * missing or broken one is listed too.
 */
async function checkTapes(loaded: LoadedConfig, plan: Plan): Promise<void> {
  if (loaded.config.settings.simulate === false) return;
  // Loaded only when needed: validate without the simulator stays as quick to start.
  const { loadPlannedTapes } = await import('./simulate.js');
  await loadPlannedTapes(plan.scenarios);
}

/**
 * The agents' adapters, loaded, and their problems in one list: each custom module that does not load,
 * or a model its adapter cannot use here. `adapters` holds those that loaded, so the other agents' keys
 * are still checked in the same pass.
 */
export async function checkedAdapters(
  agents: readonly ResolvedAgent[],
  loaded: LoadedConfig,
  cwd: string,
): Promise<{ adapters: Map<string, AgentAdapter>; issues: ValidationIssue[] }> {
  // Loaded only when needed, as the simulator is: validate stays as quick to start.
  const { getAdapter } = await import('../adapters/registry.js');
  const { modelIssues } = await import('./run-steps.js');
  const adapters = new Map<string, AgentAdapter>();
  const failed: ValidationIssue[] = [];
  for (const key of new Set(agents.map((a) => a.agent.toLowerCase()))) {
    try {
      adapters.set(key, await getAdapter(key, loaded));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      failed.push(...err.issues.map((i) => ({ ...i, file: shownPath(i.file, cwd) })));
    }
  }
  const simulate = loaded.config.settings.simulate !== false;
  const configFile = relative(cwd, loaded.configPath) || loaded.configPath;
  const models = modelIssues(agents, adapters, loaded.config.env.values, simulate, configFile);
  return { adapters, issues: [...failed, ...models] };
}

/**
 * What `axis validate` checks of the agents as `axis run` does first: a custom module, each model, and
 * (unless simulated, or `credentials` is false) every credential. Only the adapters needed are loaded,
 * so validate starts quickly.
 */
export async function agentIssues(
  loaded: LoadedConfig,
  plan: Plan,
  cwd: string,
  judge: boolean,
  credentials = true,
): Promise<{ issues: ValidationIssue[]; note?: string }> {
  const simulate = loaded.config.settings.simulate !== false;
  const checkKeys = credentials && !simulate;
  const agents = plan.agents.filter((a) => a.module !== undefined || (!simulate && (a.model || checkKeys)));
  if (!agents.length) return { issues: [] };
  const checked = await checkedAdapters(agents, loaded, cwd);
  if (!credentials) return { issues: checked.issues };
  const keys = await keyIssues(loaded, agents, checked.adapters, cwd, judge);
  return { ...keys, issues: [...checked.issues, ...keys.issues] };
}

/**
 * Each agent without credentials and, when the run asks a judge (`judge`: not --no-score), its missing
 * key: with the other problems of the same pass, rather than alone on the next run. None under simulate.
 */
export async function keyIssues(
  loaded: LoadedConfig,
  agents: readonly ResolvedAgent[],
  adapters: ReadonlyMap<string, AgentAdapter>,
  cwd: string,
  judge: boolean,
): Promise<{ auth: Map<string, AuthResolution>; issues: ValidationIssue[]; note?: string }> {
  const simulate = loaded.config.settings.simulate !== false;
  const file = relative(cwd, loaded.configPath) || loaded.configPath;
  const found = credentialCheck(agents, adapters, loaded.config.env.values, simulate, file);
  if (!judge || simulate) return found;
  // Loaded only when needed, as the adapters are: validate stays as quick to start.
  const { judgeKeyProblem } = await import('../scoring/judges/resolve.js');
  const missing = judgeKeyProblem(loaded.config.judge, process.env);
  if (missing) found.issues.push({ file, ...missing });
  found.issues.push(...(await judgeAgentIssues(loaded, agents, cwd, file)));
  return found;
}

/**
 * Each judge agent (`provider: "agent"`) that will judge one of `agents` and has no credentials: it would
 * fail every run's judging after the agents ran. An agent under test is checked as one already.
 */
async function judgeAgentIssues(
  loaded: LoadedConfig,
  agents: readonly ResolvedAgent[],
  cwd: string,
  file: string,
): Promise<ValidationIssue[]> {
  const j = loaded.config.judge;
  if (j?.provider !== 'agent') return [];
  // As resolveJudge picks: the first whose adapter differs from the agent under test, else the first.
  const judges = new Set(agents.map((a) => j.agents.find((x) => x.agent !== a.agent) ?? j.agents[0]));
  const tested = new Set(agents.map((a) => a.name));
  const needed = [...judges].filter((x): x is ResolvedAgent => x !== undefined && !tested.has(x.name));
  if (!needed.length) return [];
  const checked = await checkedAdapters(needed, loaded, cwd);
  const { issues } = credentialCheck(needed, checked.adapters, loaded.config.env.values, false, file);
  const keys = issues.map((i) => ({ ...i, path: i.path.replace(/^agents /, 'judge.agent ') }));
  return [...checked.issues, ...keys];
}
