import type { JobResult } from '../../../src/report/job-result.js';
import type { ReportManifest, ReportResultEntry } from '../../../src/report/manifest.js';
import type { RunBegin } from '../../../src/reporters/types.js';
import type { JobRef } from '../../../src/runner/events.js';

/** A job of the plan: run 1 of 1 by claude-code unless `over` says otherwise. */
export const jobRef = (index: number, scenarioKey: string, over: Partial<JobRef> = {}): JobRef => ({
  index,
  scenarioKey,
  scenarioName: scenarioKey,
  agentName: 'claude-code',
  run: 1,
  runs: 1,
  ...over,
});

/** The run's start as reporters get it: `jobs` on one agent, concurrency 2, not simulated, at time 0. */
export const runBegin = (jobs: JobRef[], scenarios: number, over: Partial<RunBegin> = {}): RunBegin => ({
  reportId: 'r',
  reportDir: '/r',
  jobs,
  scenarios,
  agents: 1,
  concurrency: 2,
  simulate: false,
  startedAt: 0,
  ...over,
});

/** `job` finished: completed in 1.2 s with 15 tokens. */
export const jobResult = (job: JobRef): JobResult =>
  ({
    ...job,
    agent: 'command',
    status: 'completed',
    durationMs: 1200,
    transcript: { usage: { input: 10, output: 5, cacheReadInput: 0 } },
  }) as unknown as JobResult;

const usage = { input: 1000, output: 200, cacheReadInput: 0 };
const timings = { setupMs: 1, agentMs: 2, afterAgentMs: 3, teardownMs: 4 };

function entry(
  over: Partial<ReportResultEntry> & Pick<ReportResultEntry, 'scenarioKey' | 'agentName'>,
): ReportResultEntry {
  const status = over.status ?? 'completed';
  return {
    scenarioName: over.scenarioKey,
    agent: 'command',
    status,
    durationMs: 1500,
    exitCode: status === 'completed' ? 0 : 1,
    tokenUsage: usage,
    representativeRun: 1,
    runsCompleted: status === 'completed' ? 1 : 0,
    runsFailed: status === 'completed' ? 0 : 1,
    runs: [
      {
        run: 1,
        status,
        ...(over.reason ? { reason: over.reason } : {}),
        durationMs: 1500,
        exitCode: 0,
        tokenUsage: usage,
        timings,
        rawLineCount: 3,
        artifactCount: 0,
      },
    ],
    ...over,
  };
}

/** A dimension as report.json holds it: what `axis reports <id>` and the shape check read. */
const dim = (score: number | null) => ({
  score,
  notApplicable: false,
  criteria: [],
  dimensions: { success: score, speed: score, weight: null, relevance: null, necessity: null },
  audits: [],
  interactionCount: 0,
  auditedCount: 0,
});

/** Two pairs: one scored 82, one whose agent was stopped by API failures. Names carry markup on purpose. */
export function sampleManifest(): ReportManifest {
  return {
    version: '1.0',
    reportId: '2026-12-01-101500',
    timestamp: '2026-12-01T10:15:00.000Z',
    updatedAt: '2026-12-01T10:15:09.000Z',
    durationMs: 9000,
    config: 'axis.config.json',
    settings: { concurrency: 2, runs: 1, simulate: false },
    summary: {
      total: 2,
      completed: 1,
      failed: 1,
      runsTotal: 2,
      runsFailed: 1,
      skipped: 0,
      averageAxisScore: 82,
    },
    results: [
      entry({
        scenarioKey: 'cms/<post>&"x"',
        agentName: 'claude-code',
        score: {
          status: 'scored',
          axisScore: 82,
          goalAchievement: dim(90),
          environment: dim(75),
          service: dim(null),
          agent: dim(70),
          judge: null,
        } as unknown as ReportResultEntry['score'],
      }),
      entry({
        scenarioKey: 'hello',
        agentName: 'codex',
        status: 'failed',
        errorClass: 'auth',
        reason:
          'API rejected the key (401) after 10 retries: stopped after 3m of failing provider calls (settings.limits.api_failures)',
      }),
    ],
  };
}
