/** What `run()` takes and what it returns (run.ts); apart from it so the run's steps can name them. */
import type { LoadedConfig } from '../config/types.js';
import type { Baseline } from '../compare/baseline.js';
import type { Comparison } from '../compare/compare.js';
import type { RunVerdict } from '../compare/verdict-types.js';
import type { JobDurations, ShardSpec } from '../plan/shard.js';
import type { JobResult } from '../report/job-result.js';
import type { ReportManifest } from '../report/manifest.js';
import type { StoreFailure } from '../report/store.js';
import type { RunEvent } from './events.js';
import type { AfterAgentHook } from './job-types.js';

export interface RunOptions {
  /** An already loaded config (then `configPath` and `profile` are ignored). */
  config?: LoadedConfig;
  /** Config file or directory; default: search upward from the cwd. */
  configPath?: string;
  profile?: string;
  /** Scenario keys or globs (comma-separated strings are split). */
  scenarios?: string | readonly string[];
  /** Agent names or globs. */
  agents?: string | readonly string[];
  /** Scenario tags: only scenarios with any of them run. */
  tags?: string | readonly string[];
  /** Fetch remote skills again even when `.axis/skills-cache/` has them. */
  refreshSkills?: boolean;
  /** Overrides settings.concurrency; an integer ≥ 1 (CLI strings are parsed). */
  concurrency?: number | string;
  /** Overrides settings.runs; odd, 1..19. */
  runs?: number | string;
  /** Exact (scenario key, agent name) pairs to run, e.g. the failed pairs of an earlier report. */
  only?: readonly { scenarioKey: string; agentName: string }[];
  /** Recorded in the manifest as `rerunOf` (`--failed`). */
  rerunOf?: string;
  /** Ctrl-C: running jobs are stopped, the rest cancelled, the report still written (incomplete). */
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Keep each agent's raw stdout and stderr live as `<agent>.debug.ndjson` / `.debug.stderr.log`. */
  debug?: boolean;
  /** Emit `log` events for every step (workspace paths, setup output, …). */
  verbose?: boolean;
  /**
   * Runs after each agent, before teardown. Default: the scoring stage, exactly as `axis run` scores
   * (checks, sparse index, judges); pass your own hook to replace it. A function it returns runs after
   * teardown, with the job's place in the pool given to the next job (docs/running.md, One job).
   */
  afterAgent?: AfterAgentHook;
  /** false (`--no-score`): deterministic checks only, no judges. Default true. */
  score?: boolean;
  /** false (`--no-cache`): ask the judges even when an answer is cached. Default true. */
  cache?: boolean;
  /** Compare the report with a baseline (`true`: `main`; a name; or a Baseline). Missing → exit 2 before any job. */
  compareBaseline?: string | boolean | Baseline;
  /** Base of relative paths and config discovery; default process.cwd(). */
  cwd?: string;
  /**
   * Run only shard k of n (`"2/3"` or `{ index: 2, total: 3 }`) and write its blob (docs/ci.md). Every
   * shard must see the same config, filters, runs and `shardDurations`.
   */
  shard?: string | ShardSpec;
  /** Balance the split by these durations: a report.json (or its directory), or a map by job key. */
  shardDurations?: string | JobDurations;
  /** Where the shard's blob goes; default `<configDir>/.axis/blobs/`. */
  blobDir?: string;
}

export interface RunOutcome {
  reportId: string;
  /** Absolute. */
  reportDir: string;
  manifest: ReportManifest;
  /** One per job, in plan order. */
  results: JobResult[];
  incomplete: boolean;
  /** The external signal stopped the run (Ctrl-C). */
  interrupted: boolean;
  afterAllError?: string;
  /**
   * Parts of the report that could not be written (disk full, …), by report-relative path. report.json
   * never names them as written; the last report.json that could be written stays in place.
   */
  lost: StoreFailure[];
  /** `shard` runs: the blob written (absolute path), or why it could not be (then exitCode is 1). */
  blob?: { path: string; shard: ShardSpec; jobs: number; planJobs: number };
  blobError?: string;
  /** The CI gate: failed pairs, thresholds and (with `compareBaseline`) regressions. */
  verdict: RunVerdict;
  comparison?: Comparison;
  /**
   * 0 when the verdict passes; 1 when it does not (a pair failed, a threshold was missed, a regression),
   * the run is incomplete, afterAll failed, a part of the report was lost or the blob was not written.
   * (Ctrl-C exit codes are the CLI's.)
   */
  exitCode: 0 | 1;
}
