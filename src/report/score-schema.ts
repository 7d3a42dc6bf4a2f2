/**
 * The pieces the report file formats share (schema.ts), and a run's score (`ScoreResult` with its judge
 * usage), which both report.json and the per-run detail file hold.
 */
import * as z from 'zod';
import { ERROR_CLASSES, JOB_STATUSES } from '../transcript/model.js';

export const count = z.number().int().min(0);
export const score100 = z.number().min(0).max(100);
export const unit = z.number().min(0).max(1);

// ---------------------------------------------------------------------------------------------
// Shared pieces

export const errorClass = z.enum(ERROR_CLASSES);

export const jobStatus = z.enum(JOB_STATUSES);

export const tokenUsage = z.strictObject({
  input: count,
  output: count,
  cacheReadInput: count,
  cacheWriteInput: count.optional(),
});

export const timings = z.strictObject({
  setupMs: z.number().min(0),
  agentMs: z.number().min(0),
  afterAgentMs: z.number().min(0),
  teardownMs: z.number().min(0),
});

/** Paths relative to the report directory, forward slashes. */
export const runFiles = z.strictObject({
  detail: z.string().optional(),
  raw: z.string().optional(),
  artifactsDir: z.string().optional(),
  debug: z.string().optional(),
  debugStderr: z.string().optional(),
  missing: z.array(z.string()).optional(),
});

// ---------------------------------------------------------------------------------------------
// Scores (ScoreResult + judge usage)

const weights = z.strictObject({
  goal_achievement: unit,
  environment: unit,
  service: unit,
  agent: unit,
});

const category = z.enum(['environment', 'service', 'agent']);

const audit = z.strictObject({
  interactionId: z.number().int(),
  category,
  success: unit.optional(),
  speed: unit.optional(),
  weight: unit.optional(),
  relevance: unit.optional(),
  rationale: z.string(),
  source: z.enum(['signal', 'judge', 'default']),
  unambiguous: z.boolean().optional(),
  fieldSources: z
    .strictObject({
      success: z.enum(['signal', 'judge']).optional(),
      speed: z.enum(['signal', 'judge']).optional(),
      weight: z.enum(['signal', 'judge']).optional(),
      relevance: z.enum(['signal', 'judge']).optional(),
    })
    .optional(),
  redundantOf: z.number().int().optional(),
});

const subScores = z.strictObject({
  success: score100.nullable(),
  speed: score100.nullable(),
  weight: score100.nullable(),
  relevance: score100.nullable(),
  necessity: score100.nullable(),
});

const dimensionScore = z.strictObject({
  score: score100.nullable(),
  notApplicable: z.boolean(),
  unscoredReason: z.string().optional(),
  raw: unit.nullable(),
  dimensions: subScores,
  audits: z.array(audit),
  interactionCount: count,
  auditedCount: count,
  judgedCount: count,
});

const scoredCriterion = z.strictObject({
  check: z.string(),
  weight: unit,
  score: z.number().min(0).max(10).nullable(),
  rationale: z.string(),
  kind: z.enum(['judge', 'deterministic']),
});

const necessity = z.strictObject({
  score: unit,
  unnecessaryIds: z.array(z.number().int()),
  rationale: z.string(),
  judgeScore: unit.optional(),
  deterministic: z
    .strictObject({ bound: unit, redundantIds: z.array(z.number().int()), rationale: z.string() })
    .optional(),
});

const interruption = z.strictObject({
  kind: z.enum(['ask_tool', 'question', 'permission', 'confirmation', 'no_action']),
  blocking: z.boolean(),
  evidence: z.string(),
  interactionIds: z.array(z.number().int()),
});

const interactionRecord = z.strictObject({
  id: z.number().int(),
  type: z.enum(['reasoning', 'tool', 'error']),
  tool: z.string().optional(),
  categories: z.array(category),
  rule: z.string(),
  unclassified: z.boolean(),
});

const pattern = z.strictObject({
  kind: z.enum(['retry', 'redundancy', 'waste', 'other']),
  description: z.string(),
  interactionIds: z.array(z.number().int()),
  severity: z.enum(['low', 'medium', 'high']),
  source: z.enum(['signal', 'judge']),
});

export const judgeTokens = z.strictObject({ input: count, output: count });

const judgeCall = z.strictObject({
  name: z.string(),
  status: z.enum(['ok', 'cached', 'failed']),
  calls: count,
  requests: count,
  repaired: z.boolean(),
  inputChars: count,
  tokens: judgeTokens,
  costUsd: z.number().min(0).optional(),
  model: z.string().optional(),
  error: z.string().optional(),
  incomplete: z.array(z.string()).optional(),
});

const judgeSummary = z.strictObject({
  provider: z.string(),
  model: z.string(),
  label: z.string(),
  warning: z.string().optional(),
  calls: count,
  requests: count,
  cached: count,
  tokens: judgeTokens,
  costUsd: z.number().min(0).optional(),
  simulated: z.literal(true).optional(),
  inputChars: count,
  judges: z.array(judgeCall),
});

/** A run's score: `status` says whether the numbers mean anything (`unscored`/`failed` carry `reason`). */
export const runScoreSchema = z.strictObject({
  status: z.enum(['scored', 'unscored', 'failed']),
  reason: z.string().optional(),
  axisScore: score100.nullable(),
  goalAchievement: z.strictObject({
    score: score100.nullable(),
    notApplicable: z.boolean(),
    unscoredReason: z.string().optional(),
    criteria: z.array(scoredCriterion),
    uncappedScore: score100.optional(),
  }),
  environment: dimensionScore,
  service: dimensionScore,
  agent: dimensionScore,
  weights,
  configuredWeights: weights,
  notApplicable: z.array(z.enum(['goal_achievement', 'environment', 'service', 'agent'])),
  patterns: z.array(pattern),
  necessity: necessity.nullable(),
  interruption: interruption.nullable().optional(),
  cap: z.strictObject({ score: score100, reason: z.string(), uncapped: score100 }).optional(),
  interactions: z.array(interactionRecord).optional(),
  judge: judgeSummary.nullable(),
});
