/**
 * Builds report.json's manifest (pure): a run's job results grouped into one entry per (scenario, agent)
 * pair, in plan order, counted, and their scores applied (scores.ts).
 */
import { pairStatus, runState } from '../scoring/runs.js';
import type { TokenUsage } from '../transcript/model.js';
import type { JobResult } from './job-result.js';
import { REPORT_VERSION, type ReportManifest, type ReportResultEntry, type RunSummary } from './manifest.js';
import { applyScores } from './scores.js';

export interface ManifestInput {
  reportId: string;
  name?: string;
  startedAt: Date;
  now: Date;
  incomplete: boolean;
  incompleteReason?: string;
  config: string;
  profile?: string;
  settings: ReportManifest['settings'];
  /** Finished results, any order. */
  results: readonly JobResult[];
  skippedScenarios: readonly string[];
  hooks?: ReportManifest['hooks'];
  rerunOf?: string;
  shard?: ReportManifest['shard'];
}

export function runSummary(r: JobResult): RunSummary {
  const out: RunSummary = {
    run: r.run,
    status: r.status,
    durationMs: r.durationMs,
    exitCode: r.transcript.exitCode,
    tokenUsage: pickUsage(r.transcript.usage),
    timings: r.timings,
    rawLineCount: r.rawLineCount,
    artifactCount: r.artifacts.filter((a) => !a.skipped).length,
  };
  if (r.reason) out.reason = r.reason;
  if (r.errorClass) out.errorClass = r.errorClass;
  if (r.transcript.costUsd !== undefined) out.costUsd = r.transcript.costUsd;
  if (r.simulator) out.simulatorEvents = r.simulator.events.length;
  if (r.files) out.files = r.files;
  return out;
}

function pickUsage(u: TokenUsage): TokenUsage {
  const out: TokenUsage = { input: u.input, output: u.output, cacheReadInput: u.cacheReadInput };
  // Cache writes count in every total (job line, summary, axis reports, JUnit, the token limits).
  if (u.cacheWriteInput) out.cacheWriteInput = u.cacheWriteInput;
  return out;
}

/** Groups results into pairs (in plan order) and counts them. */
export function buildManifest(input: ManifestInput): ReportManifest {
  const pairs = new Map<string, JobResult[]>();
  for (const r of [...input.results].sort((a, b) => a.index - b.index)) {
    const key = `${r.scenarioKey}\u0000${r.agentName}`;
    const list = pairs.get(key) ?? [];
    list.push(r);
    pairs.set(key, list);
  }
  const results = [...pairs.values()].map(pairEntry);
  const runs = results.flatMap((e) => e.runs);
  const completed = results.filter((e) => e.status === 'completed').length;
  const cancelled = results.filter((e) => e.status === 'cancelled').length;
  const runsCancelled = runs.filter((r) => r.status === 'cancelled').length;
  const manifest: ReportManifest = {
    version: REPORT_VERSION,
    reportId: input.reportId,
    ...(input.name ? { name: input.name } : {}),
    timestamp: input.startedAt.toISOString(),
    updatedAt: input.now.toISOString(),
    durationMs: Math.max(0, input.now.getTime() - input.startedAt.getTime()),
    ...(input.incomplete ? { incomplete: true as const } : {}),
    ...(input.incomplete && input.incompleteReason ? { incompleteReason: input.incompleteReason } : {}),
    config: input.config,
    ...(input.profile ? { profile: input.profile } : {}),
    settings: input.settings,
    summary: {
      total: results.length,
      completed,
      failed: results.length - completed - cancelled,
      cancelled,
      runsTotal: runs.length,
      runsFailed: runs.filter((r) => r.status !== 'completed').length - runsCancelled,
      runsCancelled,
      skipped: input.skippedScenarios.length,
    },
    results,
  };
  if (input.skippedScenarios.length) manifest.skippedScenarios = [...input.skippedScenarios];
  if (input.hooks) manifest.hooks = input.hooks;
  if (input.rerunOf) manifest.rerunOf = input.rerunOf;
  if (input.shard) manifest.shard = input.shard;
  applyScores(manifest, input.results);
  return manifest;
}

function pairEntry(list: JobResult[]): ReportResultEntry {
  const runs = list.sort((a, b) => a.run - b.run);
  const first = runs[0]!;
  const rep = runs.find((r) => r.status === 'completed') ?? first;
  const notDone = runs.filter((r) => r.status !== 'completed');
  const crashed = runs.filter((r) => runState(r) === 'crashed');
  const entry: ReportResultEntry = {
    scenarioKey: first.scenarioKey,
    scenarioName: first.scenarioName,
    ...(first.variant ? { variant: first.variant } : {}),
    agentName: first.agentName,
    agent: first.agent.agent,
    ...(first.agent.model ? { model: first.agent.model } : {}),
    status: pairStatus(runs),
    durationMs: rep.durationMs,
    exitCode: rep.transcript.exitCode,
    tokenUsage: pickUsage(rep.transcript.usage),
    representativeRun: rep.run,
    runsCompleted: runs.length - notDone.length,
    runsFailed: crashed.length,
    runsCancelled: notDone.length - crashed.length,
    runs: runs.map(runSummary),
  };
  if (rep.transcript.costUsd !== undefined) entry.costUsd = rep.transcript.costUsd;
  if (runs.some((r) => r.simulated)) entry.simulated = true;
  const bad = crashed[0] ?? notDone[0];
  if (bad) {
    if (bad.errorClass) entry.errorClass = bad.errorClass;
    const why = bad.reason ?? bad.status;
    entry.reason =
      first.runs === 1
        ? why
        : notDone.length === 1
          ? `run ${bad.run} of ${first.runs}: ${why}`
          : `${notDone.length} of ${first.runs} runs did not complete; run ${bad.run}: ${why}`;
  }
  return entry;
}
