/**
 * The view-model embedded in report.html. It is independent of report.json's on-disk shape: the
 * mapper (`map.ts`) turns a report into this, the page (`client/*.ts`) reads only this. Every string in
 * here is untrusted text except the notes' `*Html`, which the mapper has already sanitized.
 */

/** Bumped when the page can no longer read older data. */
export const HTML_REPORT_SCHEMA = 1;

/**
 * `cancelled`: stopped before it could finish (Ctrl-C, a run limit); not counted against reliability.
 * `completed`: finished and not judged (`--no-score`); it counts as completed for reliability, as in
 * every other view. `unscored`: finished, but judging failed.
 */
export type RunStatus = 'scored' | 'completed' | 'unscored' | 'failed' | 'cancelled';
export type CategoryId = 'environment' | 'service' | 'agent';
export type SubId = 'success' | 'speed' | 'weight' | 'relevance' | 'necessity';

export interface HtmlReportData {
  schema: number;
  report: HtmlReportHeader;
  summary: HtmlSummary;
  pairs: HtmlPair[];
  /** The AXIS Result over the stored reports (history.ts); absent when the page was built without it. */
  trend?: HtmlTrend;
}

/** `values[i]` belongs to `pairs[i]`; every list runs over `reports`, oldest first, this report last. */
export interface HtmlTrend {
  /** The most reports drawn. */
  limit: number;
  /** Stored reports older than the ones drawn. */
  olderNotShown: number;
  reports: { id: string; timestamp?: string }[];
  /** Each report's average AXIS Result (as `axis history` prints it). */
  average: (number | null)[];
  /** Per pair of this report, its AXIS Result in each report (null: not there or not scored). */
  values: (number | null)[][];
}

export interface HtmlReportHeader {
  id: string;
  name?: string;
  /** ISO time the run started. */
  timestamp: string;
  durationMs: number | null;
  /** The run was interrupted: some pairs never ran or finished. */
  incomplete: boolean;
  incompleteReason?: string;
  /** The afterAll hook failed (the run exited 1 for it): its message. */
  afterAllError?: string;
  /** An `axis run --shard` report: one shard of the run's jobs. */
  shard?: { index: number; total: number };
  /** Sanitized HTML rendered from the config's beforeAll/afterAll $AXIS_OUTPUT markdown. */
  notes?: { beforeAllHtml?: string; afterAllHtml?: string };
  /** The CI gate's verdict from report.json; absent in old reports and while the run is going. */
  gate?: HtmlGate;
}

/** The gate in `axis reports <id>`' words: `Gate: fail · baseline main`, `✗ <scenario> · <agent>: <reason>`. */
export interface HtmlGate {
  pass: boolean;
  line: string;
  failures: string[];
}

export interface HtmlSummary {
  /** Mean composite over scored pairs; null when none was scored. */
  averageAxisScore: number | null;
  /**
   * Counts of (scenario, agent) pairs as report.json counts them (`cancelled`: stopped before any run
   * finished, neither completed nor failed); `skipped` counts scenarios left out (`skip: true`).
   */
  pairs: { total: number; completed: number; failed: number; cancelled: number; skipped?: number };
  runs: { total: number; failed: number; cancelled: number };
  /** The pairs the average is over, and those left out, as `axis reports` counts them; absent when not scored. */
  scoredPairs?: { scored: number; unscored: number; failed: number };
  /** Over all runs, as `axis run` and `axis reports` print it; absent when not scored. */
  reliabilityText?: string;
  /** The agent cost over the runs that reported one (a lower bound when `cost.note` names runs without). */
  totalCostUsd: number | null;
  /** The Cost card, in `axis reports`' words (src/report/cost-total.ts): `≥ $1.2300`, `2 of 5 runs without a cost`. */
  cost: { value: string; note: string };
  totalTokens: number | null;
}

export interface HtmlPair {
  scenarioKey: string;
  scenarioName: string;
  variant?: string;
  agentName: string;
  /** Index into `runs` of the run the pair reports (the representative run). */
  representative: number;
  /** Spread of the scored runs' composites; only with more than one scored run. */
  /** `scored`: how many runs the values are over (the rest failed, went unscored or were cancelled). */
  spread?: { scored: number; median: number; min: number; max: number; sigma: number };
  /** completed ÷ (runs − unscored − cancelled) (src/scoring/runs.ts); null when no run counts. */
  reliability: number | null;
  /** The same sentence the terminal prints: `reliability 75% (3/4 runs completed; 1 unscored not counted)`. */
  reliabilityText: string;
  runs: HtmlRun[];
}

export interface HtmlTokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** input + output + cache reads + cache writes: the count every other view shows (totalTokens). */
  total: number;
}

export interface HtmlRun {
  /** 1-based run number (AXIS_RUN_INDEX). */
  index: number;
  /** Report-relative path of the run's detail JSON, when known. */
  file?: string;
  status: RunStatus;
  /** Why the run is unscored or failed. */
  reason?: string;
  durationMs: number | null;
  exitCode: number | null;
  tokens: HtmlTokens | null;
  costUsd: number | null;
  /** Played against the model simulator: there is no real cost (the page says "simulated"). */
  simulated?: boolean;
  /** The run handed the task back to a person: one line of evidence (and the cap, when applied). */
  handBack?: string;
  /** Null when the run was never scored (failed, or --no-score). */
  scores: HtmlScores | null;
  /** Who judged the run (`anthropic claude-sonnet-4-5`), when a judge was asked. */
  judge?: string;
  /** Things worth knowing that did not change the status: a failed teardown, a judge warning. */
  warnings: string[];
  criteria: HtmlCriterion[];
  dimensions: HtmlDimension[];
  necessity: { score: number | null; unnecessaryIds: number[]; rationale: string } | null;
  patterns: { kind: string; severity: string; description: string; interactionIds: number[] }[];
  insights: HtmlInsight[];
  interactions: HtmlInteraction[];
  events: HtmlEvent[];
  /** Sanitized HTML rendered from the lifecycle scripts' $AXIS_OUTPUT markdown. */
  notes: { setupHtml?: string; teardownHtml?: string };
  artifacts: HtmlArtifact[];
}

/** A dimension score: a number, or why there is none. */
export interface HtmlScore {
  score: number | null;
  notApplicable: boolean;
  reason?: string;
  /** Effective weight in the composite, 0..1. */
  weight: number;
  /** Not known: only the run's summary was available (its detail file was not). */
  unknown?: boolean;
}

export interface HtmlScores {
  axis: number | null;
  goal: HtmlScore;
  environment: HtmlScore;
  service: HtmlScore;
  agent: HtmlScore;
}

export interface HtmlCriterion {
  check: string;
  weight: number;
  /** 0..10, null when the judge gave no grade. */
  score: number | null;
  rationale: string;
  kind: string;
}

export interface HtmlAudit {
  interactionId: number;
  /** 0..1 each, absent when not measured. */
  success?: number;
  speed?: number;
  weight?: number;
  relevance?: number;
  rationale: string;
  source: string;
}

export interface HtmlDimension {
  id: CategoryId;
  score: number | null;
  notApplicable: boolean;
  reason?: string;
  /** Sub-dimension values 0-100, null where unused or unmeasured. */
  sub: Record<SubId, number | null>;
  interactionCount: number;
  auditedCount: number;
  judgedCount: number;
  audits: HtmlAudit[];
}

export interface HtmlInsight {
  /** `goal` or a category. */
  dimension: string;
  score: number;
  /** Short sentences naming the weakest signals, worst first. */
  signals: string[];
}

export interface HtmlInteraction {
  id: number;
  type: string;
  categories: CategoryId[];
  unclassified: boolean;
  /** The classification rule that chose the categories (`table:bash`, `mcp-server:linear`, …). */
  rule?: string;
  /** One line: `Bash(command: ls -la)` or the start of the reasoning text. */
  label: string;
  startMs: number | null;
  durationMs: number | null;
  /** `received` durations were measured on AXIS's clock, not the agent's. */
  durationSource: string;
  outcome: string;
  failure?: string;
  /** Indices into the run's `events`. */
  events: number[];
}

export interface HtmlEvent {
  kind: string;
  /** ms since the run started, when known. */
  t?: number;
  /** user/text/thinking text, error message, system subtype. */
  text?: string;
  /** tool_call: name and pretty JSON input; tool_result: the call id it answers. */
  name?: string;
  callId?: string;
  input?: string;
  /** tool_result output. */
  output?: string;
  isError?: boolean;
  exitCode?: number;
  /** Characters cut from `text`/`input`/`output` to keep the page small. */
  truncated?: number;
}

export interface HtmlArtifact {
  path: string;
  size: number;
  mimeType: string;
  /** Why the file was not captured. */
  skipped?: string;
  /** Base64 content; absent when skipped or too large to embed (`omitted` says why). */
  content?: string;
  omitted?: string;
}
