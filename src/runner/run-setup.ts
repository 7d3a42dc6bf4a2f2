/**
 * What `run()` does before its first job: the config, the plan (sharded or not), adapters and auth, the
 * scoring stage, baseline, skills, tapes and the secrets the report must never hold; then the run-level
 * hooks' context. Each failure here is exit 2 (bad input) or the run's own error, before any agent runs.
 */
import type { AgentAdapter, AuthResolution } from '../adapters/types.js';
import type { Baseline } from '../compare/baseline.js';
import { baselineToCompare } from '../compare/gate.js';
import { missingSkillIssues } from '../config/needed-files.js';
import { noScenarioIssues } from '../config/no-scenarios.js';
import type { LoadedConfig, ResolvedConfig } from '../config/types.js';
import { planJobs, type Plan } from '../plan/plan.js';
import type { ShardSpec } from '../plan/shard.js';
import { createScoringStage, type ScoringStage } from './scoring-stage.js';
import { AxisError, ConfigError } from '../util/errors.js';
import { newTag } from '../exec/contain.js';
import { buildAgentEnv, redact } from '../exec/env.js';
import type { RunEvent } from './events.js';
import { killTagged } from '../exec/groups.js';
import type { AfterAgentHook, JobServices } from './job-types.js';
import { describeIsolation } from './job-isolation.js';
import { privateTmpReady, startPrivateTmpCheck } from '../exec/job-space.js';
import { parseConcurrency } from './pool.js';
import type { RunOptions } from './run-options.js';
import { parseOverrides, prepareHost, selectJobs, type RunHookContext } from './run-steps.js';
import type { PreparedShard } from './shard.js';
import { runMcpServers } from './mcp-refs.js';
import { configSecrets, loginSecrets } from './secrets.js';
import { checkedAdapters, keyIssues, loadConfigForRun } from './load-for-run.js';
import { loadPlannedTapes, missingTapeIssues } from './simulate.js';
import { resolveSkillSources } from './skills.js';

export interface RunLog {
  emit: (event: RunEvent) => void;
  warn: (message: string) => void;
  verbose: (message: string) => void;
  /** Log messages from now on have these replaced by `[REDACTED]` (set once the run's secrets are known). */
  secrets: readonly string[];
}

/** Events to `options.onEvent` (verbose lines only with -v or --debug); a throwing callback is ignored. */
export function runLog(options: RunOptions): RunLog {
  const emit = (event: RunEvent): void => {
    if (event.type === 'log' && event.level === 'verbose' && !options.verbose && !options.debug) return;
    // Log lines quote scripts' and agents' output as it came (only the spawned command was scrubbed).
    if (event.type === 'log' && log.secrets.length > 0)
      event = { ...event, message: redact(event.message, log.secrets) };
    try {
      options.onEvent?.(event);
    } catch {
      // a rendering callback must not break the run
    }
  };
  const log: RunLog = {
    emit,
    warn: (message) => emit({ type: 'log', level: 'warn', message }),
    verbose: (message) => emit({ type: 'log', level: 'verbose', message }),
    secrets: [],
  };
  return log;
}

export interface PreparedRun {
  loaded: LoadedConfig;
  config: ResolvedConfig;
  concurrency: number;
  /** The config's settings with `runs` overridden. */
  settings: ResolvedConfig['settings'];
  /** The jobs of this shard (all of them when not sharded). */
  plan: Plan;
  shardSpec?: ShardSpec;
  sharding?: PreparedShard;
  simulate: boolean;
  adapters: ReadonlyMap<string, AgentAdapter>;
  auth: ReadonlyMap<string, AuthResolution>;
  /** The default scoring stage (undefined when the caller brought its own `afterAgent`). */
  stage?: ScoringStage;
  afterAgent: AfterAgentHook;
  baseline?: Baseline;
  skills: JobServices['skills'];
  tapes?: JobServices['tapes'];
  mcpServers: JobServices['mcpServers'];
  secrets: string[];
}

export async function prepareRun(options: RunOptions, cwd: string, log: RunLog): Promise<PreparedRun> {
  const { warn, verbose } = log;
  const overrides = parseOverrides(options);
  const shardSpec = overrides.shard;
  // A shard holds part of each pair's runs and none of the other shards' pairs: the merge is the gate.
  if (shardSpec && options.compareBaseline !== undefined && options.compareBaseline !== false)
    throw new AxisError(
      '--compare-baseline gates a whole run, not one shard: compare the merged report (axis reports merge <blobs> --compare-baseline)',
      { exitCode: 2 },
    );
  // The host's private-/tmp check runs in the background while the config loads.
  startPrivateTmpCheck();
  const filters = { scenarios: options.scenarios, agents: options.agents, tags: options.tags };
  // The judge's key is needed unless nothing is judged (--no-score) or the caller judges (its afterAgent).
  const judge = options.score !== false && !options.afterAgent;
  const loaded =
    options.config ??
    (await loadConfigForRun(
      options.configPath,
      { profile: options.profile, cwd, judge, refreshSkills: options.refreshSkills },
      filters,
    ));
  await prepareHost(verbose, loaded.config.settings.sandbox);
  const config = loaded.config;
  for (const notice of loaded.notices ?? []) warn(notice);
  const concurrency =
    overrides.concurrency ?? parseConcurrency(config.settings.concurrency, 'settings.concurrency');
  const settings = { ...config.settings, runs: overrides.runs ?? config.settings.runs };
  const none = noScenarioIssues(loaded, cwd);
  if (none.length) throw new ConfigError(none);
  const { plan, sharding } = await jobsToRun(options, loaded, settings, shardSpec, cwd);

  const simulate = config.settings.simulate !== false;
  // Missing folders, tapes and keys, and the adapters' problems, in one list, as `axis validate` gives them.
  const checked = await checkedAdapters(plan.agents, loaded, cwd);
  // The agents whose adapter loaded still have their keys checked: one pass lists both.
  const keys = await keyIssues(loaded, plan.agents, checked.adapters, cwd, judge);
  const problems = [
    ...missingSkillIssues(loaded, plan.agents, plan.scenarios, cwd, { refreshSkills: options.refreshSkills }),
    ...(simulate ? missingTapeIssues(plan.scenarios) : []),
    ...checked.issues,
    ...keys.issues,
  ];
  if (problems.length) throw new ConfigError(problems, keys.note);
  const adapters = checked.adapters;
  const auth = keys.auth;
  const mcpServers = runMcpServers(loaded, plan.scenarios, cwd);
  const secrets = [
    ...new Set([...configSecrets(loaded, plan.agents, plan.scenarios), ...loginSecrets(auth)]),
  ].sort((a, b) => b.length - a.length);
  // Both fail here (exit 2), before any agent runs: a judge without credentials, a missing baseline.
  const { stage, afterAgent } = scoringHook(options, loaded, warn, secrets);
  const baseline = await baselineToCompare(loaded.configDir, options.compareBaseline);
  const skills = await resolveSkillSources(
    [...config.skills, ...plan.agents.flatMap((a) => a.skills), ...plan.scenarios.flatMap((s) => s.skills)],
    loaded.configDir,
    { refresh: options.refreshSkills ?? false },
  );
  for (const note of skills.notes) verbose(note);
  for (const note of skills.warnings) warn(note);
  const tapes = simulate ? await loadPlannedTapes(plan.scenarios) : undefined;
  log.secrets = secrets;
  // Awaited last, so everything above runs while the host's checks do (they need no answer before).
  await privateTmpReady();
  for (const line of describeIsolation(settings, plan.scenarios)) verbose(line);
  return {
    loaded,
    config,
    concurrency,
    settings,
    plan,
    ...(shardSpec ? { shardSpec } : {}),
    ...(sharding ? { sharding } : {}),
    simulate,
    adapters,
    auth,
    ...(stage ? { stage } : {}),
    afterAgent,
    ...(baseline ? { baseline } : {}),
    skills,
    ...(tapes ? { tapes } : {}),
    mcpServers,
    secrets,
  };
}

/** The jobs to run: the config's plan narrowed by the options, then this shard's part of it; nothing to run is exit 2. */
async function jobsToRun(
  options: RunOptions,
  loaded: LoadedConfig,
  settings: ResolvedConfig['settings'],
  shardSpec: ShardSpec | undefined,
  cwd: string,
): Promise<{ plan: Plan; sharding?: PreparedShard }> {
  const fullPlan = selectJobs(
    planJobs(
      { config: { ...loaded.config, settings }, scenarios: loaded.scenarios },
      { scenarios: options.scenarios, agents: options.agents, tags: options.tags },
    ),
    options.only,
  );
  const sharding = shardSpec
    ? await import('./shard.js').then((m) =>
        m.prepareShard(loaded, fullPlan, shardSpec, options.shardDurations, cwd, options.score !== false),
      )
    : undefined;
  const plan = sharding?.selection.plan ?? fullPlan;
  if (fullPlan.jobs.length === 0) {
    throw new AxisError(
      "Nothing to run: every selected scenario is skipped or excluded by the agents' and scenarios' filters.",
      { exitCode: 2 },
    );
  }
  return { plan, sharding };
}

/** The default scoring stage, unless the caller brought its own `afterAgent`. */
function scoringHook(
  options: RunOptions,
  loaded: LoadedConfig,
  warn: (message: string) => void,
  secrets: readonly string[],
): { stage?: ScoringStage; afterAgent: AfterAgentHook } {
  const stage = options.afterAgent
    ? undefined
    : createScoringStage({
        loaded,
        score: options.score !== false,
        cache: options.cache !== false,
        onWarning: warn,
        secrets,
      });
  return { stage, afterAgent: options.afterAgent ?? stage!.afterAgent };
}

export interface RunHooks {
  /** beforeAll/afterAll run in the config dir with the minimal env (no job HOME). */
  base: RunHookContext;
  /** Ends what beforeAll started in the background (a shared service) once the run is over. */
  endServices: () => Promise<void>;
}

export function runHooks(loaded: LoadedConfig, verbose: (message: string) => void): RunHooks {
  const config = loaded.config;
  const base: RunHookContext = {
    configDir: loaded.configDir,
    env: buildAgentEnv({
      home: process.env.HOME ?? loaded.configDir,
      passthrough: config.env.pass,
      values: config.env.values,
    }),
    log: verbose,
  };
  const runTag = newTag();
  if (runTag) base.scopeTag = runTag;
  return {
    base,
    endServices: async () => {
      if (runTag && (await killTagged(runTag)) > 0)
        verbose('ended the processes run-level hooks left running');
    },
  };
}
