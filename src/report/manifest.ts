/**
 * report.json's manifest: its types, how a run's job results become one entry per (scenario, agent)
 * pair, and the shape check every reader of an older or foreign report.json goes through.
 */
import type { JobStatus } from '../transcript/model.js';
import type { JobResult, JobTimings, RunFiles } from './job-result.js';
import type { ErrorClass, TokenUsage } from '../transcript/model.js';
import type { RunScore } from '../scoring/types.js';
import { applyScores, type DimensionScores, type ScoredSummary, type ScoreSpread } from './scores.js';
import { pairStatus, runState } from '../scoring/runs.js';
import type { ScoreStatus } from '../scoring/types.js';
import { StoreDataError } from './confine.js';

/** Schema version of report.json and the per-run files. */
export const REPORT_VERSION = '1.0';

/** How a run ended, and what it cost (a pair's entry: its representative run's). */
export interface RunOutcome {
  status: JobStatus;
  reason?: string;
  errorClass?: ErrorClass;
  durationMs: number;
  exitCode: number | null;
  tokenUsage: TokenUsage;
  costUsd?: number;
}

/** One run of a pair, as listed in report.json. */
export interface RunSummary extends RunOutcome {
  run: number;
  timings: JobTimings;
  rawLineCount: number;
  artifactCount: number;
  simulatorEvents?: number;
  /** Files of this run, relative to the report directory. */
  files?: RunFiles;
  /** Added by the scoring stage: this run's composite (null when unscored) and scoring status. */
  axisScore?: number | null;
  scoreStatus?: ScoreStatus;
  /** Added by the scoring stage for scored and unscored runs: this run's four dimension scores. */
  dimensionScores?: DimensionScores;
}

/** One (scenario, agent) pair. Headline fields come from `representativeRun`. */
export interface ReportResultEntry extends RunOutcome {
  scenarioKey: string;
  scenarioName: string;
  variant?: string;
  agentName: string;
  /** Adapter name (`claude-code`, `command`, …). */
  agent: string;
  model?: string;
  /**
   * `completed` when at least one run completed (crashed runs only lower `spread.reliability`); else the
   * status of the first run that failed; `cancelled` when every run was cancelled (src/scoring/runs.ts).
   */
  status: JobStatus;
  /** The runs played against the model simulator: no real cost, tokens are the tape's. */
  simulated?: true;
  /** 1-based run the headline fields describe (scoring later picks the median-score run). */
  representativeRun: number;
  runsCompleted: number;
  /** Runs that did not complete and were not cancelled (crashed, limit, timeout). */
  runsFailed: number;
  runsCancelled?: number;
  runs: RunSummary[];
  /** Added by applyScores (src/report/scores.ts): the representative run's score. */
  score?: RunScore;
  /** Added by the scoring stage when the pair has more than one run. */
  spread?: ScoreSpread;
}

export interface ReportSummary {
  /** Pairs. */
  total: number;
  /** Pairs with at least one completed run. */
  completed: number;
  /** Pairs where no run completed and at least one failed (failed, limit_exceeded, timeout). */
  failed: number;
  /** Pairs whose every run was cancelled. */
  cancelled?: number;
  runsTotal: number;
  /** Runs that did not complete, cancelled ones aside. */
  runsFailed: number;
  runsCancelled?: number;
  /** Scenarios selected but marked `skip`. */
  skipped: number;
  /** Added by the scoring stage: mean headline composite over scored pairs (null when none). */
  averageAxisScore?: number | null;
  /** Added by the scoring stage: scored/unscored/failed counts, dimension averages, judge usage. */
  scores?: ScoredSummary;
}

export interface HookRecord {
  ok: boolean;
  error?: string;
  notes?: string;
}

export interface ReportManifest {
  version: string;
  reportId: string;
  name?: string;
  /** ISO time the run started (the id is derived from it). */
  timestamp: string;
  /** ISO time the report was last written. */
  updatedAt: string;
  durationMs: number;
  /** The run did not finish: cancelled, stopped by a run limit, or still running / crashed. */
  incomplete?: true;
  /** Why, when incomplete: `Run cancelled by SIGINT`, `Overall token limit reached (…)`, … */
  incompleteReason?: string;
  /** Project-relative path of the config. */
  config: string;
  profile?: string;
  settings: { concurrency: number; runs: number; simulate: boolean };
  summary: ReportSummary;
  results: ReportResultEntry[];
  skippedScenarios?: string[];
  hooks?: { beforeAll?: HookRecord; afterAll?: HookRecord };
  /** Set by `--failed`: the report whose failed pairs were re-run. */
  rerunOf?: string;
  /** Set by `axis run --shard k/n`: this report holds only shard `index` of `total` (docs/ci.md). */
  shard?: { index: number; total: number };
  /** Set by `axis reports merge`: the shards this report was built from. */
  merged?: MergedFrom;
}

export interface MergedFrom {
  /** configFingerprint shared by every shard. */
  configHash: string;
  total: number;
  /** One per merged blob, in shard order. */
  shards: { index: number; reportId: string; blob: string }[];
  /** Shards absent from the merge (`--allow-partial`). */
  missing?: number[];
}

// ---------------------------------------------------------------------------------------------
// Building the manifest (pure)

export interface ManifestInput {
  reportId: string;
  name?: string;
  startedAt: Date;
  now: Date;
  incomplete: boolean;
  incompleteReason?: string;
  config: string;
  profile?: string;
  settings: ReportManifest['settings'];
  /** Finished results, any order. */
  results: readonly JobResult[];
  skippedScenarios: readonly string[];
  hooks?: ReportManifest['hooks'];
  rerunOf?: string;
  shard?: ReportManifest['shard'];
}

export function runSummary(r: JobResult): RunSummary {
  const out: RunSummary = {
    run: r.run,
    status: r.status,
    durationMs: r.durationMs,
    exitCode: r.transcript.exitCode,
    tokenUsage: pickUsage(r.transcript.usage),
    timings: r.timings,
    rawLineCount: r.rawLineCount,
    artifactCount: r.artifacts.filter((a) => !a.skipped).length,
  };
  if (r.reason) out.reason = r.reason;
  if (r.errorClass) out.errorClass = r.errorClass;
  if (r.transcript.costUsd !== undefined) out.costUsd = r.transcript.costUsd;
  if (r.simulator) out.simulatorEvents = r.simulator.events.length;
  if (r.files) out.files = r.files;
  return out;
}

function pickUsage(u: TokenUsage): TokenUsage {
  return { input: u.input, output: u.output, cacheReadInput: u.cacheReadInput };
}

/** Groups results into pairs (in plan order) and counts them. */
export function buildManifest(input: ManifestInput): ReportManifest {
  const pairs = new Map<string, JobResult[]>();
  for (const r of [...input.results].sort((a, b) => a.index - b.index)) {
    const key = `${r.scenarioKey}\u0000${r.agentName}`;
    const list = pairs.get(key) ?? [];
    list.push(r);
    pairs.set(key, list);
  }
  const results = [...pairs.values()].map(pairEntry);
  const runs = results.flatMap((e) => e.runs);
  const completed = results.filter((e) => e.status === 'completed').length;
  const cancelled = results.filter((e) => e.status === 'cancelled').length;
  const runsCancelled = runs.filter((r) => r.status === 'cancelled').length;
  const manifest: ReportManifest = {
    version: REPORT_VERSION,
    reportId: input.reportId,
    ...(input.name ? { name: input.name } : {}),
    timestamp: input.startedAt.toISOString(),
    updatedAt: input.now.toISOString(),
    durationMs: Math.max(0, input.now.getTime() - input.startedAt.getTime()),
    ...(input.incomplete ? { incomplete: true as const } : {}),
    ...(input.incomplete && input.incompleteReason ? { incompleteReason: input.incompleteReason } : {}),
    config: input.config,
    ...(input.profile ? { profile: input.profile } : {}),
    settings: input.settings,
    summary: {
      total: results.length,
      completed,
      failed: results.length - completed - cancelled,
      cancelled,
      runsTotal: runs.length,
      runsFailed: runs.filter((r) => r.status !== 'completed').length - runsCancelled,
      runsCancelled,
      skipped: input.skippedScenarios.length,
    },
    results,
  };
  if (input.skippedScenarios.length) manifest.skippedScenarios = [...input.skippedScenarios];
  if (input.hooks) manifest.hooks = input.hooks;
  if (input.rerunOf) manifest.rerunOf = input.rerunOf;
  if (input.shard) manifest.shard = input.shard;
  applyScores(manifest, input.results);
  return manifest;
}

function pairEntry(list: JobResult[]): ReportResultEntry {
  const runs = list.sort((a, b) => a.run - b.run);
  const first = runs[0]!;
  const rep = runs.find((r) => r.status === 'completed') ?? first;
  const notDone = runs.filter((r) => r.status !== 'completed');
  const crashed = runs.filter((r) => runState(r) === 'crashed');
  const entry: ReportResultEntry = {
    scenarioKey: first.scenarioKey,
    scenarioName: first.scenarioName,
    ...(first.variant ? { variant: first.variant } : {}),
    agentName: first.agentName,
    agent: first.agent.agent,
    ...(first.agent.model ? { model: first.agent.model } : {}),
    status: pairStatus(runs),
    durationMs: rep.durationMs,
    exitCode: rep.transcript.exitCode,
    tokenUsage: pickUsage(rep.transcript.usage),
    representativeRun: rep.run,
    runsCompleted: runs.length - notDone.length,
    runsFailed: crashed.length,
    runsCancelled: notDone.length - crashed.length,
    runs: runs.map(runSummary),
  };
  if (rep.transcript.costUsd !== undefined) entry.costUsd = rep.transcript.costUsd;
  if (runs.some((r) => r.simulated)) entry.simulated = true;
  const bad = crashed[0] ?? notDone[0];
  if (bad) {
    if (bad.errorClass) entry.errorClass = bad.errorClass;
    const why = bad.reason ?? bad.status;
    entry.reason =
      first.runs === 1
        ? why
        : notDone.length === 1
          ? `run ${bad.run} of ${first.runs}: ${why}`
          : `${notDone.length} of ${first.runs} runs did not complete; run ${bad.run}: ${why}`;
  }
  return entry;
}

/**
 * Checks the shape every reader needs (older reports still open) and takes the report id from the folder
 * name, which is the truth: an id inside report.json is never used to find files.
 */
export function parseManifest(parsed: unknown, shown: string, id: string): ReportManifest {
  const m = parsed as Partial<ReportManifest> | null;
  if (!m || typeof m !== 'object' || Array.isArray(m) || !Array.isArray(m.results))
    throw new StoreDataError(`${shown}: not an AXIS report (expected an object with "results": [...])`);
  const bad = m.results.findIndex(
    (r: unknown) =>
      !r ||
      typeof r !== 'object' ||
      typeof (r as ReportResultEntry).scenarioKey !== 'string' ||
      typeof (r as ReportResultEntry).agentName !== 'string',
  );
  if (bad >= 0)
    throw new StoreDataError(
      `${shown}: results[${bad}]: expected an object with "scenarioKey" and "agentName" strings`,
    );
  return { ...m, reportId: id } as ReportManifest;
}

/** Pairs of a report that did not complete: what `--failed` re-runs. */
export function failedPairs(manifest: ReportManifest): { scenarioKey: string; agentName: string }[] {
  return manifest.results
    .filter((r) => r.status !== 'completed')
    .map((r) => ({ scenarioKey: r.scenarioKey, agentName: r.agentName }));
}
