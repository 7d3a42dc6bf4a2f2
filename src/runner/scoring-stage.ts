/**
 * The scoring stage of `axis run`: an `afterAgent` hook that runs in each job after the agent and before
 * teardown, while the workspace still exists. It runs the deterministic checks and (unless `--no-score`)
 * returns the judging, which runs after teardown with the job's place in the pool given to the next job:
 * it scores the run with the judges and writes `<agent>.sparse-index.txt`.
 */
import { mkdtemp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { timerMs } from '../util/timers.js';
import { xdgDirs } from '../exec/env.js';
import { getAdapter } from '../adapters/registry.js';
import type { LoadedConfig, ResolvedAgent } from '../config/types.js';
import type { AfterAgentContext, AfterAgentHook } from './job-types.js';
import { scriptVars } from './lifecycle.js';
import { cacheScrub } from './secrets.js';
import type { JobResult } from '../report/job-result.js';
import { JudgeCache } from '../scoring/cache.js';
import { runChecks } from '../scoring/checks/index.js';
import type { ClassifyContext } from '../scoring/classify.js';
import { resolveScoringWeights } from '../scoring/composite.js';
import {
  httpJudge,
  resolveJudge,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_SECONDS,
} from '../scoring/judges/resolve.js';
import { scoreRun, type ScoreRunOutput } from '../scoring/pipeline.js';
import type { ScoringWeights } from '../scoring/types.js';

export interface ScoringStageOptions {
  loaded: LoadedConfig;
  /** false (`--no-score`): checks and the sparse index only, no judge. Default true. */
  score?: boolean;
  /** false (`--no-cache`): ask the judges even when an answer is cached. Default true. */
  cache?: boolean;
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** First judge retry backoff in ms (tests shorten it). */
  baseDelayMs?: number;
  /** Warnings worth showing once (e.g. self-judging). */
  onWarning?: (message: string) => void;
  /** The run's secrets: masked in what the judge cache stores. */
  secrets?: readonly string[];
}

export interface ScoringStage {
  afterAgent: AfterAgentHook;
  /** After the last job: ends the judge cache's pack (and merges packs when enough piled up). */
  close(): void;
}

/**
 * Builds the hook. Throws AxisError (exit 2) right away when the configured HTTP judge lacks its
 * credentials, so no agent runs for nothing.
 */
export function createScoringStage(opts: ScoringStageOptions): ScoringStage {
  const { loaded } = opts;
  const config = loaded.config;
  const hostEnv = opts.hostEnv ?? process.env;
  const scoring = opts.score !== false;
  const simulate = config.settings.simulate !== false;
  if (scoring && !simulate)
    httpJudge(config.judge, hostEnv, {
      maxRetries: config.judge?.max_retries ?? DEFAULT_MAX_RETRIES,
      timeoutMs: timerMs((config.judge?.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000),
    });
  const warned = new Set<string>();
  const stage: StageJudging = {
    loaded,
    weights: resolveScoringWeights(config.settings.scoring_weights),
    cache: JudgeCache.forConfigDir(loaded.configDir, opts.cache !== false, cacheScrub(opts.secrets ?? [])),
    hostEnv,
    baseDelayMs: opts.baseDelayMs,
    warn: (message: string) => {
      if (warned.has(message)) return;
      warned.add(message);
      opts.onWarning?.(message);
    },
  };

  const afterAgent: AfterAgentHook = async (ctx: AfterAgentContext) => {
    const { result } = ctx;
    if (result.status === 'completed' && result.criteria.some((c) => c.kind === 'check'))
      result.checks = await runChecks(result.criteria, {
        workDir: ctx.workDir,
        env: await checkEnv(ctx),
        finalAnswer: result.transcript.result,
        signal: ctx.signal,
        // The checks together get the scenario's time limit, like the agent did.
        budgetMs: Math.round(result.limits.time_minutes * 60_000),
        ...(ctx.space ? { space: ctx.space } : {}),
      });
    // With --no-score nothing needs the sparse index now: `axis reports` derives it, `axis score` writes it.
    // A run cancelled while it ran is not judged either: it is cancelled, not a failed score of 0
    // (docs/scoring.md#repeated-runs), like the runs the cancel stopped before they started.
    if (!scoring || result.status === 'cancelled') return;
    // The judges need neither the workspace nor the job's place in the pool: after teardown (job.ts).
    return () => judgeJob(ctx, stage);
  };
  return { afterAgent, close: () => stage.cache.close() };
}

/**
 * `run` checks see what setup scripts saw: the job environment plus the AXIS_* variables, so a checker can
 * live in the config dir ($AXIS_CONFIG_DIR), where the agent cannot rewrite it as it can the workspace.
 * HOME is a fresh empty one: the agent's (still $AXIS_HOME) holds what it planted for the checker's tools
 * (a Python usercustomize, an .npmrc script-shell, a .gitconfig hook), which would decide the check.
 */
async function checkEnv(ctx: AfterAgentContext): Promise<Record<string, string>> {
  const { job } = ctx;
  const vars = {
    home: ctx.homeDir,
    runIndex: job.run,
    scenario: job.scenario.key,
    agent: job.agent.name,
    adapter: job.agent.agent,
    variant: job.scenario.variant,
    model: job.agent.model,
  };
  const at = { workspace: ctx.workDir, phase: 'check' as const, configDir: ctx.configDir, vars };
  // In the job's TMPDIR (writable in the sandbox, removed with the job), named after the agent was stopped.
  const home = await mkdtemp(join(ctx.env.TMPDIR ?? dirname(ctx.workDir), 'axis-check-home-'));
  const homes: Record<string, string> = { HOME: home, ...xdgDirs(home) };
  if (ctx.env.USERPROFILE !== undefined) homes.USERPROFILE = home;
  return { ...ctx.env, ...homes, ...scriptVars(at) };
}

/** What every job's judging shares: made once per stage. */
interface StageJudging {
  loaded: LoadedConfig;
  weights: ScoringWeights;
  cache: JudgeCache;
  hostEnv: Readonly<Record<string, string | undefined>>;
  baseDelayMs: number | undefined;
  /** Says each message once. */
  warn: (message: string) => void;
}

/** Scores the job's run and writes its sparse index next to its detail file. */
async function judgeJob(ctx: AfterAgentContext, stage: StageJudging): Promise<void> {
  const { result } = ctx;
  // Judges never see secrets or the job's absolute temp paths.
  const transcript = ctx.scrub.value(result.transcript);
  const out = await scoreStored(
    { ...result, transcript },
    {
      loaded: stage.loaded,
      weights: stage.weights,
      cache: stage.cache,
      hostEnv: stage.hostEnv,
      signal: ctx.judgeSignal ?? ctx.signal,
      agent: ctx.job.agent,
      ...(ctx.simulatorUrl ? { simulatorUrl: ctx.simulatorUrl } : {}),
      ...(stage.baseDelayMs !== undefined ? { baseDelayMs: stage.baseDelayMs } : {}),
    },
  );
  result.score = out.score;
  const j = out.score.judge;
  if (j) {
    const retries = j.requests > j.calls ? `, ${j.requests - j.calls} retried` : '';
    ctx.log?.(
      `judge ${j.label}: ${j.calls} call(s), ${j.requests} request(s)${retries}, ${j.cached} cached, ` +
        `${j.tokens.input + j.tokens.output} tokens`,
    );
  }
  if (j?.warning) stage.warn(j.warning);
  if (result.files?.detail)
    await ctx.store.writeLines(
      sparseIndexPath(result.files.detail),
      out.sparseIndex.replace(/\n$/, '').split('\n'),
      ctx.scrub,
    );
}

export interface ScoreStoredContext {
  loaded: LoadedConfig;
  weights?: ScoringWeights;
  cache: JudgeCache;
  hostEnv?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** The agent under test (defaults to the stored snapshot). */
  agent?: ResolvedAgent;
  simulatorUrl?: string;
  /** No judge can be had (e.g. the simulator did not start): the run is unscored with this reason. */
  judgeError?: string;
  baseDelayMs?: number;
}

/** Scores a job result (live, or read back from a report) with the config's judge. */
export function scoreStored(result: JobResult, ctx: ScoreStoredContext): Promise<ScoreRunOutput> {
  const config = ctx.loaded.config;
  // The configured agent (its env intact) rather than the stored snapshot, whose secrets are redacted.
  const agent =
    ctx.agent ?? config.agents.find((a) => a.name === result.agentName) ?? (result.agent as ResolvedAgent);
  return scoreRun(
    { ...result, classify: classifyContext(ctx.loaded, result) },
    {
      weights: ctx.weights ?? resolveScoringWeights(config.settings.scoring_weights),
      cache: ctx.cache,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      judge: () =>
        ctx.judgeError !== undefined
          ? Promise.reject(new Error(ctx.judgeError))
          : resolveJudge({
              ...(config.judge ? { judge: config.judge } : {}),
              agentUnderTest: agent,
              ...(ctx.hostEnv ? { hostEnv: ctx.hostEnv } : {}),
              ...(ctx.simulatorUrl ? { simulatorUrl: ctx.simulatorUrl } : {}),
              ...(ctx.baseDelayMs !== undefined ? { baseDelayMs: ctx.baseDelayMs } : {}),
              loadAdapter: (name) => getAdapter(name, ctx.loaded),
            }),
    },
  );
}

/** What classification needs from the config: the agent's adapter, MCP server names, `classify` rules. */
export function classifyContext(
  loaded: LoadedConfig,
  result: Pick<JobResult, 'agent' | 'scenarioKey'>,
): ClassifyContext {
  const config = loaded.config;
  const scenario = scenariosByKey(loaded).get(result.scenarioKey);
  return {
    adapter: result.agent.agent,
    mcpServers: [...Object.keys(config.mcp_servers), ...Object.keys(scenario?.mcp_servers ?? {})],
    rules: config.classify ?? {},
  };
}

type Scenarios = LoadedConfig['scenarios'];
const byKey = new WeakMap<Scenarios, Map<string, Scenarios[number]>>();

/** The config's scenarios by key, built once per scenario list (a `find` per scored job was quadratic). */
function scenariosByKey(loaded: LoadedConfig): Map<string, Scenarios[number]> {
  let map = byKey.get(loaded.scenarios);
  if (!map) {
    map = new Map();
    // The first of a key wins, as `find` did.
    for (const s of loaded.scenarios) if (!map.has(s.key)) map.set(s.key, s);
    byKey.set(loaded.scenarios, map);
  }
  return map;
}

/** `scenarios/k/agent.json` → `scenarios/k/agent.sparse-index.txt` (runs > 1: `agent.run-2.…`). */
export function sparseIndexPath(detail: string): string {
  return detail.replace(/\.json$/, '.sparse-index.txt');
}
