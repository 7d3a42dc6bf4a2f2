/** Report manifests built through the real buildManifest from compact run lists. */
import { buildManifest } from '../../../src/report/build-manifest.js';
import type { ReportManifest } from '../../../src/report/manifest.js';
import type { JobResult } from '../../../src/report/job-result.js';
import type { JobStatus } from '../../../src/transcript/model.js';
import { composeScore, failedScore } from '../../../src/scoring/composite.js';
import type { RunScore } from '../../../src/scoring/types.js';
import type { DimensionScore } from '../../../src/scoring/types.js';

/** A number is a scored run whose every dimension is that number; `{axis, goal…}` for more control. */
export type RunSpec =
  | number
  | { axis: number; goal?: number; durationMs?: number; tokens?: number }
  | 'crash'
  | 'unscored'
  | 'cancelled';

export interface PairSpec {
  key: string;
  agent?: string;
  runs: RunSpec[];
}

const dim = (score: number): DimensionScore => ({
  score,
  notApplicable: false,
  raw: null,
  dimensions: { success: null, speed: null, weight: null, relevance: null, necessity: null },
  audits: [],
  interactionCount: 1,
  auditedCount: 0,
  judgedCount: 0,
});

function scoreOf(spec: RunSpec): RunScore | undefined {
  if (spec === 'cancelled') return undefined;
  if (spec === 'crash') return { ...failedScore('Agent exited with code 1'), judge: null };
  if (spec === 'unscored')
    return {
      ...composeScore({
        goal: { score: 50, notApplicable: false, criteria: [] },
        environment: dim(50),
        service: dim(50),
        agent: dim(50),
        judgeFailure: 'goal judge failed: HTTP 500',
      }),
      judge: null,
    };
  const axis = typeof spec === 'number' ? spec : spec.axis;
  const goal = typeof spec === 'number' ? axis : (spec.goal ?? axis);
  // Dimensions chosen so the composite (weights 0.4/0.2/0.2/0.2) is exactly `axis`.
  const rest = (axis - 0.4 * goal) / 0.6;
  return {
    ...composeScore({
      goal: { score: goal, notApplicable: false, criteria: [] },
      environment: dim(rest),
      service: dim(rest),
      agent: dim(rest),
    }),
    judge: null,
  };
}

export function job(
  key: string,
  agent: string,
  run: number,
  runs: number,
  spec: RunSpec,
  index: number,
): JobResult {
  const score = scoreOf(spec);
  const status: JobStatus = spec === 'crash' ? 'failed' : spec === 'cancelled' ? 'cancelled' : 'completed';
  const durationMs =
    typeof spec === 'object' && spec.durationMs !== undefined ? spec.durationMs : 60_000 + run * 1000;
  const tokens = typeof spec === 'object' && spec.tokens !== undefined ? spec.tokens : 150_000 + run * 100;
  return {
    index,
    scenarioKey: key,
    scenarioBaseKey: key.split('@')[0]!,
    scenarioName: key,
    ...(key.includes('@') ? { variant: key.split('@')[1]! } : {}),
    agentName: agent,
    agent: { name: agent, agent: 'command', flags: {}, env: {}, skills: [], args: [] },
    run,
    runs,
    prompt: 'p',
    criteria: [],
    limits: { time_minutes: 5 },
    status,
    ...(status !== 'completed'
      ? { reason: status === 'failed' ? 'Agent exited with code 1' : 'Run cancelled by SIGINT' }
      : {}),
    startedAt: new Date(0).toISOString(),
    endedAt: new Date(durationMs).toISOString(),
    durationMs,
    timings: { setupMs: 0, agentMs: durationMs, afterAgentMs: 0, teardownMs: 0 },
    transcript: {
      agent: agent,
      events: [],
      result: null,
      usage: { input: tokens - 1000, output: 1000, cacheReadInput: 0 },
      exitCode: status === 'failed' ? 1 : 0,
      startedAt: 0,
      endedAt: durationMs,
      durationMs,
    },
    rawLineCount: 0,
    artifacts: [],
    ...(score ? { score } : {}),
  } as JobResult;
}

let clock = 0;
export function manifest(pairs: PairSpec[], reportId = `2026-01-01-00000${clock++ % 10}`): ReportManifest {
  let index = 0;
  const results = pairs.flatMap((p) =>
    p.runs.map((spec, i) => job(p.key, p.agent ?? 'claude-code', i + 1, p.runs.length, spec, index++)),
  );
  return buildManifest({
    reportId,
    startedAt: new Date(Date.UTC(2026, 0, 1)),
    now: new Date(Date.UTC(2026, 0, 1, 0, 5)),
    incomplete: false,
    config: 'axis.config.json',
    settings: { concurrency: 1, runs: Math.max(...pairs.map((p) => p.runs.length)), simulate: true },
    results,
    skippedScenarios: [],
  });
}
