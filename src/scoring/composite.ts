/**
 * Goal achievement, the composite AXIS score and the run's scoring status (docs/scoring.md#composite).
 */
import { percent, roundScore } from './calibration.js';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import type {
  Criterion,
  DimensionName,
  DimensionScore,
  GoalAchievement,
  Interruption,
  Necessity,
  Pattern,
  ScoreResult,
  ScoringWeights,
} from './types.js';

export const DEFAULT_WEIGHTS: Readonly<ScoringWeights> = Object.freeze({
  goal_achievement: 0.4,
  environment: 0.2,
  service: 0.2,
  agent: 0.2,
});
const WEIGHT_KEYS: readonly DimensionName[] = ['goal_achievement', 'environment', 'service', 'agent'];
/** Configured weights must sum to 1 within this tolerance (configs written for upstream AXIS pass). */
export const WEIGHT_SUM_TOLERANCE = 0.01;

/**
 * Problems with `settings.scoring_weights`. Missing keys take their default; every value must be a
 * number from 0 to 1 and, with defaults filled in, the four must sum to 1 (± 0.01).
 */
export function validateScoringWeights(
  input: unknown,
  file = 'axis.config',
  path = 'settings.scoring_weights',
): ValidationIssue[] {
  if (input === undefined) return [];
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return [{ file, path, message: `expected an object of weights, found ${describe(input)}` }];
  const issues: ValidationIssue[] = [];
  const rec = input as Record<string, unknown>;
  for (const key of Object.keys(rec))
    if (!WEIGHT_KEYS.includes(key as DimensionName))
      issues.push({
        file,
        path: `${path}.${key}`,
        message: `unknown weight; expected one of ${WEIGHT_KEYS.join(', ')}`,
      });
  let sum = 0;
  const parts: string[] = [];
  for (const key of WEIGHT_KEYS) {
    const v = rec[key] ?? DEFAULT_WEIGHTS[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
      issues.push({
        file,
        path: `${path}.${key}`,
        message: `expected a number from 0 to 1, found ${describe(v)}`,
      });
      continue;
    }
    sum += v;
    parts.push(rec[key] === undefined ? `${key} ${v} (default)` : `${key} ${v}`);
  }
  if (issues.length === 0 && Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE)
    issues.push({
      file,
      path,
      message: `weights must sum to 1, found ${Number(sum.toFixed(4))} (${parts.join(' + ')})`,
    });
  return issues;
}

/** Configured weights with defaults filled in, normalised to sum exactly 1. Throws ConfigError. */
export function resolveScoringWeights(input?: unknown, file?: string): ScoringWeights {
  const issues = validateScoringWeights(input, file);
  if (issues.length > 0) throw new ConfigError(issues);
  const rec = (input ?? {}) as Partial<ScoringWeights>;
  const w = {} as ScoringWeights;
  let sum = 0;
  for (const key of WEIGHT_KEYS) sum += w[key] = rec[key] ?? DEFAULT_WEIGHTS[key];
  for (const key of WEIGHT_KEYS) w[key] = w[key] / sum;
  return w;
}

/** Goal achievement: weighted mean of the criteria's 0..10 grades, as 0-100. */
export function scoreGoal(criteria: readonly Criterion[]): GoalAchievement {
  const list = criteria.map((c) => ({ ...c }));
  if (list.length === 0) return { score: null, notApplicable: true, criteria: list };
  let sum = 0;
  let weights = 0;
  const ungraded: number[] = [];
  list.forEach((c, i) => {
    if (!Number.isFinite(c.weight) || c.weight < 0)
      throw new RangeError(`criteria[${i}].weight must be a number ≥ 0, found ${c.weight}`);
    if (c.score === null) return void ungraded.push(i);
    if (!Number.isFinite(c.score) || c.score < 0 || c.score > 10)
      throw new RangeError(`criteria[${i}].score must be between 0 and 10, found ${c.score}`);
    sum += (c.score / 10) * c.weight;
    weights += c.weight;
  });
  if (ungraded.length > 0)
    return {
      score: null,
      notApplicable: false,
      unscoredReason: `no grade for criteria ${ungraded.map((i) => `#${i + 1}`).join(', ')}`,
      criteria: list,
    };
  if (weights === 0)
    throw new RangeError('criteria weights sum to 0: at least one criterion needs a weight above 0');
  return { score: percent(sum / weights), notApplicable: false, criteria: list };
}

export interface CompositeInputs {
  goal: GoalAchievement;
  environment: DimensionScore;
  service: DimensionScore;
  agent: DimensionScore;
  /** Already resolved (resolveScoringWeights); defaults when omitted. */
  weights?: ScoringWeights;
  necessity?: Necessity | null;
  patterns?: readonly Pattern[];
  /** Set when a judge failed: the run is unscored with this reason, whatever numbers exist. */
  judgeFailure?: string;
  /** A hand-back to a person; a blocking one caps goal achievement and the composite at HAND_BACK_CAP. */
  interruption?: Interruption | null;
}

/** Highest score a run that handed the task back can get: in CI nobody answers, the task is not done. */
export const HAND_BACK_CAP = 10;

/**
 * Composite = Σ weightᵢ · scoreᵢ over the applicable dimensions, using the displayed (rounded) dimension
 * scores so the composite can be recomputed from the report. A not-applicable dimension's weight is shared
 * among the others in proportion to their weights.
 */
export function composeScore(inputs: CompositeInputs): ScoreResult {
  const configured = inputs.weights ?? { ...DEFAULT_WEIGHTS };
  const handBack = inputs.interruption?.blocking ? inputs.interruption : undefined;
  const goal = handBack ? capGoal(inputs.goal) : inputs.goal;
  const scores: Record<DimensionName, { score: number | null; notApplicable: boolean; reason?: string }> = {
    goal_achievement: {
      score: goal.score,
      notApplicable: goal.notApplicable,
      reason: goal.unscoredReason,
    },
    environment: dim(inputs.environment),
    service: dim(inputs.service),
    agent: dim(inputs.agent),
  };
  const notApplicable = WEIGHT_KEYS.filter((k) => scores[k].notApplicable);
  const applicableWeight = WEIGHT_KEYS.filter((k) => !scores[k].notApplicable).reduce(
    (s, k) => s + configured[k],
    0,
  );
  const weights = {} as ScoringWeights;
  for (const k of WEIGHT_KEYS)
    weights[k] = scores[k].notApplicable || applicableWeight === 0 ? 0 : configured[k] / applicableWeight;

  const base = {
    goalAchievement: goal,
    environment: inputs.environment,
    service: inputs.service,
    agent: inputs.agent,
    weights,
    configuredWeights: { ...configured },
    notApplicable,
    patterns: [...(inputs.patterns ?? [])],
    necessity: inputs.necessity ?? null,
    ...(inputs.interruption !== undefined ? { interruption: inputs.interruption } : {}),
  };

  const reasons: string[] = [];
  if (inputs.judgeFailure) reasons.push(inputs.judgeFailure);
  for (const k of WEIGHT_KEYS) {
    const s = scores[k];
    if (!s.notApplicable && s.score === null) reasons.push(`${k}: ${s.reason ?? 'not scored'}`);
  }
  if (applicableWeight === 0) reasons.push('no applicable dimension has a weight above 0');
  if (reasons.length > 0) return { status: 'unscored', reason: reasons.join('; '), axisScore: null, ...base };

  const composite = (goalScore: number | null) => {
    let total = 0;
    for (const k of WEIGHT_KEYS)
      if (weights[k] > 0) total += weights[k] * (k === 'goal_achievement' ? goalScore! : scores[k].score!);
    return roundScore(total);
  };
  const axisScore = composite(goal.score);
  if (!handBack) return { status: 'scored', axisScore, ...base };
  const uncapped = composite(inputs.goal.score);
  return {
    status: 'scored',
    axisScore: Math.min(axisScore, HAND_BACK_CAP),
    ...base,
    cap: { score: HAND_BACK_CAP, reason: handBackReason(handBack), uncapped },
  };
}

function capGoal(goal: GoalAchievement): GoalAchievement {
  if (goal.score === null || goal.score <= HAND_BACK_CAP) return goal;
  return { ...goal, score: HAND_BACK_CAP, uncappedScore: goal.score };
}

export function handBackReason(i: Interruption): string {
  const what =
    i.kind === 'no_action'
      ? 'the agent did nothing on a task that asks for action'
      : i.kind === 'ask_tool'
        ? 'the agent stopped to ask the user'
        : `the agent handed the task back (${i.kind})`;
  return `${what}: ${i.evidence}`;
}

/**
 * A run that crashed before it could be judged: axisScore 0 with the reason, no dimension numbers.
 * It counts against reliability and stays out of score averages (summary.ts).
 */
export function failedScore(
  reason: string,
  options: { criteria?: readonly Omit<Criterion, 'score' | 'rationale'>[]; weights?: ScoringWeights } = {},
): ScoreResult {
  const configured = options.weights ?? { ...DEFAULT_WEIGHTS };
  const failedDim = (): DimensionScore => ({
    score: null,
    notApplicable: false,
    unscoredReason: `run failed: ${reason}`,
    raw: null,
    dimensions: { success: null, speed: null, weight: null, relevance: null, necessity: null },
    audits: [],
    interactionCount: 0,
    auditedCount: 0,
    judgedCount: 0,
  });
  return {
    status: 'failed',
    reason,
    axisScore: 0,
    goalAchievement: {
      score: null,
      notApplicable: false,
      unscoredReason: `run failed: ${reason}`,
      criteria: (options.criteria ?? []).map((c) => ({
        ...c,
        score: null,
        rationale: `Run failed: ${reason}`,
      })),
    },
    environment: failedDim(),
    service: failedDim(),
    agent: failedDim(),
    weights: { ...configured },
    configuredWeights: { ...configured },
    notApplicable: [],
    patterns: [],
    necessity: null,
  };
}

function dim(d: DimensionScore): { score: number | null; notApplicable: boolean; reason?: string } {
  return { score: d.score, notApplicable: d.notApplicable, reason: d.unscoredReason };
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : String(v);
}
