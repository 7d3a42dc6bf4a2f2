/** The compare stage: baselines, matching, band, statistics, thresholds, the CI verdict. */
export * from './verdict-types.js';
export { welchTest, significance, mean, variance, stdDev, ALPHA, LARGE_EFFECT } from './stats.js';
export type { WelchResult, Significance, SignificanceLevel, Direction } from './stats.js';
export {
  METRICS,
  readPair,
  type MetricId,
  type MetricInfo,
  type PairData,
  type PairReading,
  type Samples,
} from './pair-data.js';
export {
  DEFAULT_BASELINE_NAME,
  BASELINE_VERSION,
  mergeBaseline,
  parseBaseline,
  serializeBaseline,
  validateBaselineName,
  type Baseline,
  type BaselinePair,
  type MergeOutcome,
  type SkippedPair,
} from './baseline.js';
export {
  baselinesDir,
  baselinePath,
  deleteBaseline,
  listBaselines,
  readBaseline,
  requireBaseline,
  writeBaseline,
  type BaselineListEntry,
} from './baseline-store.js';
export {
  compare,
  comparePair,
  compareMetrics,
  band,
  DEFAULT_TOLERANCE,
  type Band,
  type Change,
  type Comparison,
  type ComparisonEntry,
  type ComparisonSummary,
  type CompareOptions,
  type MetricComparison,
  type MetricSignificance,
  type PairComparison,
  type Regression,
  type RegressionKind,
  type SignificantTally,
} from './compare.js';
export { formatComparison, formatComparisonRows } from './format.js';
export { minimumsFor, thresholdFailures, MINIMUM_KEYS } from './thresholds.js';
export { runVerdict, formatVerdict, gateChecks, gateLine, gateWord, type VerdictInput } from './verdict.js';
export {
  compareAb,
  abVerdict,
  splitVariant,
  type AbComparison,
  type AbEntry,
  type AbMode,
  type AbNotComparable,
  type AbSelection,
  type AbVerdict,
} from './ab.js';
export { formatAbComparison } from './format-ab.js';
