/** Deterministic scoring core: interactions → categories → signals → dimensions → composite. */
export * from './types.js';
export { KEEP_MIN_INTERACTIONS, keepInteractions, takeInteractions } from './kept-interactions.js';
export { groupInteractions, groupTranscript, resultFailure, type GroupOptions } from './interactions.js';
export {
  classifyInteraction,
  classifyInteractions,
  classifyTool,
  commandWords,
  shellCommand,
} from './classify.js';
export { TOOL_TABLE, HTTP_CLIENTS, READ_COMMANDS, type ToolRule } from './tool-table.js';
export {
  buildSparseIndex,
  sparseCounts,
  sparseLine,
  inputSummary,
  redact,
  type SparseCounts,
  type SparseIndexMeta,
} from './sparse-index.js';
export * from './signals/index.js';
export { SPEED_BUCKETS, SLOWEST, speedScore, speedCategory } from './signals/speed.js';
export {
  calibrate,
  mapScore,
  percent,
  roundScore,
  validateCalibration,
  DEFAULT_CALIBRATION,
  type CalibrationParams,
} from './calibration.js';
export { severityWeightedMean, severityWeight, weightedMean, SEVERITY } from './aggregate.js';
export {
  scoreDimension,
  scoreDimensions,
  mergeAudits,
  SUB_WEIGHTS,
  type DimensionInputs,
} from './dimensions.js';
export {
  composeScore,
  failedScore,
  scoreGoal,
  resolveScoringWeights,
  validateScoringWeights,
  DEFAULT_WEIGHTS,
  type CompositeInputs,
} from './composite.js';
export { summarizeScores, type ScoreSummary, type SummaryInput } from './summary.js';
