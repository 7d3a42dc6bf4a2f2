/**
 * report.json's manifest: its types, and the shape check every reader of an older or foreign report.json
 * goes through. How a run's job results become one entry per (scenario, agent) pair is build-manifest.ts.
 */
import type { JobTimings, RunFiles } from './job-result.js';
import type { ErrorClass, JobStatus, TokenUsage } from '../transcript/model.js';
import type { ScoreSummary } from '../scoring/summary.js';
import type { RunScore, ScoreStatus } from '../scoring/types.js';
import { MANIFEST_SHAPE, shapeProblem, type Shape } from './manifest-shape.js';
import { StoreDataError } from './confine.js';
import type { RunVerdict } from './verdict.js';
import { upgradeManifest } from './upgrade.js';

/** How a pair's composite varies over its runs (`settings.runs` > 1). */
export interface ScoreSpread {
  runs: number;
  scored: number;
  unscored: number;
  failed: number;
  cancelled: number;
  /** Over the scored runs; null when none was scored. */
  median: number | null;
  min: number | null;
  max: number | null;
  /** Sample standard deviation of the scored composites (0 with one). */
  sigma: number | null;
  /** completed ÷ (runs − unscored − cancelled), src/scoring/runs.ts; null when no run counts. */
  reliability: number | null;
}

export interface DimensionScores {
  goalAchievement: number | null;
  environment: number | null;
  service: number | null;
  agent: number | null;
}

export interface JudgeTotals {
  /** Runs that asked a judge. */
  runs: number;
  calls: number;
  requests: number;
  cached: number;
  tokens: { input: number; output: number };
  /** Summed over the runs whose judge cost is known; absent when none is. */
  costUsd?: number;
  /** Judged runs whose judge reported no cost (src/report/cost-total.ts): `costUsd` is then a lower bound. */
  runsWithoutCost?: number;
  inputChars: number;
  /** Distinct judge labels (`anthropic claude-sonnet-4-5`). */
  judges: string[];
  warnings?: string[];
}

export type ScoredSummary = ScoreSummary & { judge: JudgeTotals };

/** Schema version of report.json and the per-run files. */
export const REPORT_VERSION = '1.0';

/** How a run ended, and what it cost (a pair's entry: its representative run's). */
export interface RunEnd {
  status: JobStatus;
  reason?: string;
  errorClass?: ErrorClass;
  durationMs: number;
  exitCode: number | null;
  tokenUsage: TokenUsage;
  costUsd?: number;
}

/** One run of a pair, as listed in report.json. */
export interface RunSummary extends RunEnd {
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
export interface ReportResultEntry extends RunEnd {
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
  /**
   * The CI gate's verdict, once the run (or merge) has finished: what `axis run` printed and took its exit
   * code from. Absent while the run is in progress and in reports written before AXIS stored it.
   */
  verdict?: RunVerdict;
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

/**
 * Checks the shape every reader needs (older reports still open) and takes the report id from the folder
 * name, which is the truth: an id inside report.json is never used to find files.
 */
export function parseManifest(
  parsed: unknown,
  shown: string,
  id: string,
  shape: Shape = MANIFEST_SHAPE,
): ReportManifest {
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
  const problem = shapeProblem(m, shape, '');
  if (problem) throw new StoreDataError(`${shown}: ${problem.slice(1)}`);
  return upgradeManifest({ ...m, reportId: id } as ReportManifest);
}

/** Pairs of a report that did not complete: what `--failed` re-runs. */
export function failedPairs(manifest: ReportManifest): { scenarioKey: string; agentName: string }[] {
  return manifest.results
    .filter((r) => r.status !== 'completed')
    .map((r) => ({ scenarioKey: r.scenarioKey, agentName: r.agentName }));
}
