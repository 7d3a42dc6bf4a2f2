// Public programmatic API of AXIS.
export * from './util/errors.js';
export type * from './transcript/model.js';
export * from './config/index.js';
export * from './plan/index.js';
export * from './sim/index.js';
export { run, parseRuns, type RunOptions, type RunOutcome } from './runner/run.js';
export type { RunEvent, RunEventType, JobRef } from './runner/events.js';
export type { JobResult, JobStatus, JobTimings, RunFiles, SimulatorRecord, AgentSnapshot } from './runner/job-result.js';
export type { AfterAgentHook, AfterAgentContext } from './runner/job.js';
export {
  listReportIds,
  readManifest,
  resolveReportId,
  failedPairs,
  type ReportManifest,
  type ReportResultEntry,
  type ReportSummary,
  type RunSummary,
} from './report/store.js';
