/**
 * Types of the deterministic scoring core. The report (`score.*` in report.json) is built straight from
 * `ScoreResult`, so field names here are part of the report format.
 */
import type { ErrorClass } from '../transcript/model.js';
import type { JudgeCallRecord } from './judges/ask.js';
import type { JudgeTokens } from './judges/types.js';

/** The three interaction dimensions (goal achievement is judged on the run as a whole). */
export type Category = 'environment' | 'service' | 'agent';
export const CATEGORIES: readonly Category[] = ['environment', 'service', 'agent'];

export type InteractionType = 'reasoning' | 'tool' | 'error';
/** `no_result`: a tool call whose result never arrived (run killed, agent gave up, parser saw none). */
export type Outcome = 'ok' | 'error' | 'no_result';
/** Which clock a duration was measured on; `none` = not measured (never guessed from receipt gaps). */
export type DurationSource = 'agent' | 'received' | 'none';

export type FailureKind = 'permission_denied' | 'http_status' | 'exit_code' | 'is_error' | 'agent_error';

export interface Failure {
  kind: FailureKind;
  /** Short, human-readable: `exit code 2`, `HTTP 404`, `permission denied`, `tool reported an error`. */
  detail: string;
  exitCode?: number;
  httpStatus?: number;
  errorClass?: ErrorClass;
}

export interface ToolDetail {
  name: string;
  callId: string;
  input: unknown;
  /** Result text (several results for one call are kept in `extraOutputs`); null when none arrived. */
  output: string | null;
  extraOutputs?: string[];
  exitCode?: number;
  httpStatus?: number;
  permissionDenied?: boolean;
  /** ACP-style kind the agent declared for the tool, when it did. */
  declaredKind?: string;
  /** How the result was found: by call id, by the documented order fallback, or not at all. */
  pairing: 'id' | 'order' | 'none';
}

/** One step of the run: a stretch of reasoning, one tool call with its result, or one error. */
export interface Interaction {
  /** 1-based, in transcript order. */
  id: number;
  type: InteractionType;
  /** Indices into the transcript's `events` that make up this interaction. */
  entryIndices: number[];
  /** ms from the run start (transcript.startedAt, else the first timestamp); null without a timestamp. */
  startMs: number | null;
  durationMs: number | null;
  durationSource: DurationSource;
  /** UTF-8 bytes that went through the context: JSON input + output for tools, text for reasoning/errors. */
  contextBytes: number;
  outcome: Outcome;
  failure?: Failure;
  /** Start of the reasoning text or error message (≤ 200 chars, raw). */
  summary?: string;
  /** Reasoning made only of thinking blocks. */
  thinkingOnly?: boolean;
  tool?: ToolDetail;
}

/** What kind of operation a tool performs; drives a few rules (agent-config reads, redundancy). */
export type ToolKind =
  | 'shell'
  | 'read'
  | 'write'
  | 'search'
  | 'fetch'
  | 'mcp'
  | 'plan'
  | 'delegate'
  | 'memory'
  | 'skill'
  | 'ask'
  | 'discovery'
  | 'unknown';

export interface Classification {
  /** Primary category first; a shell call to an HTTP client is `['environment', 'service']`. */
  categories: Category[];
  /** True when no rule recognised the tool and it defaulted to `service` (shown in reports). */
  unclassified: boolean;
  /** Which rule decided, e.g. `table:bash`, `network-command:curl`, `agent-config`, `heuristic:fetch`. */
  rule: string;
  toolKind?: ToolKind;
}

export interface ClassifiedInteraction extends Interaction {
  categories: Category[];
  unclassified: boolean;
  classifiedBy: string;
  toolKind?: ToolKind;
}

/** Audit fields scored per interaction (necessity is run-level). */
export type AuditField = 'success' | 'speed' | 'weight' | 'relevance';
export const AUDIT_FIELDS: readonly AuditField[] = ['success', 'speed', 'weight', 'relevance'];

export type AuditSource = 'signal' | 'judge' | 'default';

/**
 * One verdict on one interaction for one dimension (`category`). Values are 0..1.
 * Signal audits also say whether their evidence is unambiguous; judges fill in the rest.
 */
export interface Audit {
  interactionId: number;
  category: Category;
  success?: number;
  speed?: number;
  weight?: number;
  relevance?: number;
  rationale: string;
  source: AuditSource;
  /** Signal audits only: true when the evidence settles the value and no judge is needed. */
  unambiguous?: boolean;
  /** Merged audits only: where each value came from. */
  fieldSources?: Partial<Record<AuditField, 'signal' | 'judge'>>;
  /** Agent audits of a call identical to an earlier one (same tool, input and result): that one's id. */
  redundantOf?: number;
}

export interface Necessity {
  /** 0..1: share of the run's interactions that were needed (min of the judge and the deterministic bound). */
  score: number;
  unnecessaryIds: number[];
  rationale: string;
  /** The judge's own score, when the deterministic bound lowered it. */
  judgeScore?: number;
  /** Identical repeated calls found without a judge: they bound necessity from above. */
  deterministic?: { bound: number; redundantIds: number[]; rationale: string };
}

export type PatternKind = 'retry' | 'redundancy' | 'waste' | 'other';
export interface Pattern {
  kind: PatternKind;
  description: string;
  interactionIds: number[];
  severity: 'low' | 'medium' | 'high';
  source: 'signal' | 'judge';
}

/** Sub-dimension values, 0-100 each; null where the dimension does not use it or nothing measured it. */
export interface SubScores {
  success: number | null;
  speed: number | null;
  weight: number | null;
  relevance: number | null;
  necessity: number | null;
}

export interface DimensionScore {
  /** Calibrated 0-100; null when not applicable or not scorable (see `unscoredReason`). */
  score: number | null;
  /** No interaction of this category happened: the dimension is left out, never a free 100. */
  notApplicable: boolean;
  unscoredReason?: string;
  /** Weighted 0..1 value before calibration. */
  raw: number | null;
  dimensions: SubScores;
  /** One merged audit per interaction in the dimension's pool. */
  audits: Audit[];
  interactionCount: number;
  /** Interactions with at least one measured value (signal or judge). */
  auditedCount: number;
  /** Interactions whose audit holds at least one judge value. */
  judgedCount: number;
}

export type CriterionKind = 'judge' | 'deterministic';
export interface Criterion {
  check: string;
  weight: number;
  /** 0..10; null when no grade was given (then the goal is unscored, never 0). */
  score: number | null;
  rationale: string;
  kind: CriterionKind;
}

export interface GoalAchievement {
  score: number | null;
  notApplicable: boolean;
  unscoredReason?: string;
  criteria: Criterion[];
  /** The judged score before a hand-back cap lowered `score` (see ScoreResult.cap). */
  uncappedScore?: number;
}

/**
 * The run handed the task back to a person (docs/scoring.md#human-interruptions). `blocking`: the run ended
 * on it, with nothing done after; only then is the score capped.
 */
export interface Interruption {
  kind: 'ask_tool' | 'question' | 'permission' | 'confirmation' | 'no_action';
  blocking: boolean;
  /** What was seen: the tool and its question, or the sentence of the final answer. */
  evidence: string;
  /** The ask-the-user calls, when there were any. */
  interactionIds: number[];
}

/** One interaction's category and the rule that chose it, as stored in the run detail. */
export interface InteractionRecord {
  id: number;
  type: InteractionType;
  tool?: string;
  categories: Category[];
  /** `table:bash`, `mcp-server:linear`, `not-built-in:gemini`, `network-command:git push`, `config:acme_*`, … */
  rule: string;
  unclassified: boolean;
}

/** A deterministic ceiling the judges cannot lift. */
export interface ScoreCap {
  /** Highest composite (and goal achievement) allowed. */
  score: number;
  reason: string;
  /** The composite the dimensions gave before the cap. */
  uncapped: number;
}

export type DimensionName = 'goal_achievement' | Category;
export interface ScoringWeights {
  goal_achievement: number;
  environment: number;
  service: number;
  agent: number;
}

export type ScoreStatus = 'scored' | 'unscored' | 'failed';

export interface ScoreResult {
  status: ScoreStatus;
  /** Why the run is unscored or failed. */
  reason?: string;
  /** 0-100 composite; null when unscored, 0 when failed. */
  axisScore: number | null;
  goalAchievement: GoalAchievement;
  environment: DimensionScore;
  service: DimensionScore;
  agent: DimensionScore;
  /** Effective weights after not-applicable dimensions' weight was shared out (sum 1, or all 0). */
  weights: ScoringWeights;
  /** Weights as configured (defaults filled in). */
  configuredWeights: ScoringWeights;
  /** Dimensions left out because nothing in the run exercised them. */
  notApplicable: DimensionName[];
  patterns: Pattern[];
  necessity: Necessity | null;
  /** Set when the run handed the task back to a person (flagged even when not blocking). */
  interruption?: Interruption | null;
  /** Set when a deterministic rule capped the score (a blocking interruption). */
  cap?: ScoreCap;
  /** Every interaction's category and the rule that chose it. */
  interactions?: InteractionRecord[];
}

/** Judge usage of one run: what was asked, what it cost, what failed. */
export interface JudgeSummary {
  provider: string;
  model: string;
  label: string;
  warning?: string;
  /** Questions answered by a judge call (a repair counts as a second call). */
  calls: number;
  /** HTTP requests (or agent runs), including transport retries. */
  requests: number;
  /** Questions answered from the cache. */
  cached: number;
  tokens: JudgeTokens;
  costUsd?: number;
  /** The judge was the model simulator: no real cost, so none is missing. */
  simulated?: true;
  /** Characters sent to the judge over all calls of this run. */
  inputChars: number;
  judges: JudgeCallRecord[];
}

/** ScoreResult plus how it was judged; what `score` holds in report files. */
export type RunScore = ScoreResult & { judge: JudgeSummary | null };
