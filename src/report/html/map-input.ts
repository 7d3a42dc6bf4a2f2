/**
 * The input shapes of map.ts. They name only the fields used, so a `ReportManifest` and the per-run
 * detail objects (`{ reportId, ...JobResult }`) fit them as they are.
 */
import type { ClassifiedInteraction, ScoreResult, ScoreStatus } from '../../scoring/types.js';
import type { TokenUsage, TranscriptEvent } from '../../transcript/model.js';
import type { RunVerdict } from '../verdict.js';

/** A `ReportManifest` fits. */
export interface ManifestInput {
  reportId: string;
  name?: string;
  timestamp: string;
  durationMs?: number | null;
  incomplete?: boolean;
  incompleteReason?: string;
  shard?: { index: number; total: number };
  hooks?: { beforeAll?: HookInput; afterAll?: HookInput };
  /** The CI gate's verdict; absent in old reports and while the run is going. */
  verdict?: RunVerdict;
  summary?: {
    total?: number;
    completed?: number;
    failed?: number;
    cancelled?: number;
    runsTotal?: number;
    runsFailed?: number;
    runsCancelled?: number;
    /** Scenarios left out of the run (`skip: true`). */
    skipped?: number;
    averageAxisScore?: number | null;
    /** Absent in a --no-score report; `runs` absent in reports older than repeated runs. */
    scores?: {
      scored?: number;
      unscored?: number;
      failed?: number;
      runs?: { total: number; unscored: number; failed: number; cancelled: number };
      reliability: number | null;
    };
  };
  results: PairInput[];
}

/** A `HookRecord` fits: the outcome of the config's beforeAll or afterAll. */
export interface HookInput {
  ok: boolean;
  error?: string;
  notes?: string;
}

/** A `ReportResultEntry` fits: one (scenario, agent) pair with its run summaries. */
export interface PairInput extends RunInput {
  scenarioKey: string;
  scenarioName?: string;
  variant?: string;
  agentName: string;
  /** 1-based run the pair reports. */
  representativeRun?: number;
  spread?: {
    scored?: number;
    median: number | null;
    min: number | null;
    max: number | null;
    sigma: number | null;
    reliability?: number | null;
  };
  runs?: RunInput[];
}

/** A per-run detail file (`{ reportId, ...JobResult }`) fits, and so does a manifest `RunSummary`. */
export interface RunInput {
  /** 1-based (AXIS_RUN_INDEX). */
  run?: number;
  /** Job status: `completed`, `failed`, `timeout`, … */
  status?: string;
  reason?: string;
  durationMs?: number | null;
  exitCode?: number | null;
  tokenUsage?: TokenUsage | null;
  costUsd?: number | null;
  /** The run detail's `simulated: true`: no real cost. */
  simulated?: boolean;
  score?: (ScoreResult & { judge?: { label?: string; warning?: string } | null }) | null;
  /** Run summaries only (no detail file): the composite and scoring status. */
  axisScore?: number | null;
  scoreStatus?: ScoreStatus;
  transcript?: {
    events: readonly TranscriptEvent[];
    startedAt?: number;
    endedAt?: number;
    usage?: TokenUsage;
    costUsd?: number;
    exitCode?: number | null;
  } | null;
  /** Classified interactions as scored; recomputed from the transcript when absent. */
  interactions?: readonly ClassifiedInteraction[] | null;
  setupNotes?: string | null;
  teardownNotes?: string | null;
  teardownError?: string;
  afterAgentError?: string;
  artifacts?: readonly ArtifactInput[] | null;
  files?: { detail?: string; artifactsDir?: string } | null;
}

export interface ArtifactInput {
  path: string;
  size: number;
  mimeType: string;
  skipped?: string;
  /** File bytes or base64 text; absent when not read (`omitted` may say why). */
  content?: Uint8Array | string | null;
  omitted?: string;
}

export interface MapOptions {
  /** Characters of transcript text embedded per run before the longest texts are shortened (events.ts). */
  runTextChars?: number;
  /** Characters kept of any one transcript text, tool input or output. */
  maxTextChars?: number;
  /** Texts are never shortened below this many characters. */
  minTextChars?: number;
  /** Largest artifact embedded, in bytes. */
  maxArtifactBytes?: number;
  /** Artifact bytes embedded over the whole report. */
  maxTotalArtifactBytes?: number;
}

export const MAP_DEFAULTS: Required<MapOptions> = {
  runTextChars: 40_000,
  maxTextChars: 20_000,
  minTextChars: 500,
  maxArtifactBytes: 2 * 1024 * 1024,
  maxTotalArtifactBytes: 20 * 1024 * 1024,
};
