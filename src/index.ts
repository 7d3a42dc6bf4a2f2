// Public programmatic API of AXIS.
export * from './util/errors.js';
export type * from './transcript/model.js';
export * from './config/index.js';
export * from './plan/index.js';
export * from './sim/index.js';
export * from './adapters/index.js';
export { run, parseRuns } from './runner/run.js';
export type { RunOptions, RunOutcome } from './runner/run-options.js';
export type { RunEvent, RunEventType, JobRef } from './runner/events.js';
export type { JobResult, JobTimings, RunFiles, SimulatorRecord, AgentSnapshot } from './report/job-result.js';
export type { AfterAgentHook, AfterAgentContext } from './runner/job-types.js';
export {
  createScoringStage,
  scoreStored,
  type ScoringStage,
  type ScoringStageOptions,
} from './runner/scoring-stage.js';
export {
  rescoreReport,
  type RescoreOptions,
  type RescoreOutcome,
  type RescoredRun,
} from './runner/rescore.js';
export { scoreRun, type ScoreRunInput, type ScoreRunContext } from './scoring/pipeline.js';
export type { RunScore, JudgeSummary } from './scoring/types.js';
export { resolveJudge, type JudgeChoice } from './scoring/judges/resolve.js';
export type { CheckOutcome } from './scoring/checks/types.js';
export { listReportIds, readManifest, resolveReportId } from './report/locate.js';
export {
  failedPairs,
  type ReportManifest,
  type ReportResultEntry,
  type ReportSummary,
  type RunSummary,
} from './report/manifest.js';
export {
  reportManifestSchema,
  runDetailSchema,
  reportJsonSchemas,
  type ReportManifestFile,
  type RunDetailFile,
} from './report/schema.js';
export {
  findProjectDir,
  listReports,
  readReport,
  readScenario,
  type ReportListEntry,
  type PairView,
  type RunView,
} from './report/read.js';
export {
  writeReportHtml,
  renderReportHtml,
  toHtmlReportData,
  type HtmlReportData,
  type MapOptions as HtmlReportOptions,
} from './report/html/index.js';
export * from './compare/index.js';
export {
  reliability,
  reliabilityText,
  pairStatus,
  runState,
  type Reliability,
  type RunState,
  type RunStateInput,
} from './scoring/runs.js';
export { mergeBlobs, type MergeOptions, type MergeOutcome } from './report/blob/merge.js';
export { BLOB_FORMAT, BLOB_VERSION, blobManifestSchema, type BlobManifest } from './report/blob/format.js';
export type { MergedFrom } from './report/manifest.js';
