/**
 * Scores in report.json: each pair's headline score (the representative run), its spread over repeated
 * runs, per-run composites, the summary's average and the judge's usage. Applied by `buildManifest`
 * (build-manifest.ts) whenever the results carry scores (not with `--no-score`).
 */
import { interruptionNote } from '../scoring/interruption.js';
import type {
  DimensionScores,
  JudgeTotals,
  ReportManifest,
  ReportResultEntry,
  ScoreSpread,
} from './manifest.js';
import type { JobResult } from './job-result.js';
import type { RunScore } from '../scoring/types.js';
import { failedScore } from '../scoring/composite.js';
import { reliability, type RunStateInput } from '../scoring/runs.js';
import { summarizeScores } from '../scoring/summary.js';
import { costTotal } from './cost-total.js';

export function applyScores(manifest: ReportManifest, results: readonly JobResult[]): void {
  if (!results.some((r) => r.score)) return;
  // Jobs that never reached scoring (setup failed, a crash) are failed runs too; cancelled ones stay
  // cancelled, without a score even when one was stored (an older run, `axis score`): nobody let them
  // finish, so they say nothing about the agent.
  const scoredResults = results.map((r) => {
    if (r.status === 'cancelled') return r.score ? { ...r, score: undefined } : r;
    if (r.score || r.status === 'completed') return r;
    return {
      ...r,
      score: { ...failedScore(r.reason ?? `the run ended with status ${r.status}`), judge: null },
    };
  });
  const byPair = new Map<string, JobResult[]>();
  for (const r of scoredResults) {
    const key = `${r.scenarioKey}\u0000${r.agentName}`;
    byPair.set(key, [...(byPair.get(key) ?? []), r]);
  }
  const headline: RunScore[] = [];
  for (const entry of manifest.results) {
    const runs = (byPair.get(`${entry.scenarioKey}\u0000${entry.agentName}`) ?? []).sort(
      (a, b) => a.run - b.run,
    );
    if (!runs.some((r) => r.score)) {
      // Not scored this time (`axis score` could not rescore or rewrite its runs): its stored score counts.
      if (entry.score) headline.push(entry.score);
      continue;
    }
    for (const s of entry.runs) {
      if (s.status === 'cancelled') {
        delete s.axisScore;
        delete s.scoreStatus;
        delete s.dimensionScores;
        continue;
      }
      const score = runs.find((r) => r.run === s.run)?.score;
      if (!score) continue;
      Object.assign(s, { axisScore: score.axisScore, scoreStatus: score.status });
      if (score.status !== 'failed') s.dimensionScores = dimensionScores(score);
    }
    const rep = representative(runs);
    setHeadline(entry, rep.run);
    entry.score = rep.score;
    if (entry.runs.length > 1) entry.spread = spread(withKept(entry, runs));
    if (rep.score) headline.push(rep.score);
  }
  const summary = summarizeScores(headline, manifest.results.flatMap(runStates));
  manifest.summary.averageAxisScore = summary.averageAxisScore;
  manifest.summary.scores = { ...summary, judge: judgeTotals(results) };
}

/**
 * `runs` plus the pair's runs not among them (`axis score` could not read or rewrite their per-run
 * files), each with the score report.json keeps for it, so the spread counts every run `runs[]` lists.
 */
function withKept(
  entry: ReportResultEntry,
  runs: readonly JobResult[],
): (Pick<JobResult, 'status'> & { score?: Pick<RunScore, 'status' | 'axisScore'> })[] {
  const kept = entry.runs
    .filter((s) => !runs.some((r) => r.run === s.run))
    .map((s) => ({
      status: s.status,
      ...(s.scoreStatus ? { score: { status: s.scoreStatus, axisScore: s.axisScore ?? null } } : {}),
    }));
  return [...runs, ...kept];
}

/** A run's four dimension scores (null where not applicable or unscored), kept per run for baselines. */
export function dimensionScores(score: RunScore): DimensionScores {
  return {
    goalAchievement: score.goalAchievement.score,
    environment: score.environment.score,
    service: score.service.score,
    agent: score.agent.score,
  };
}

/** Every run of a pair as `runState` reads it (a run scored as failed counts as crashed). */
export function runStates(entry: ReportResultEntry): RunStateInput[] {
  return entry.runs.map((r) => ({ status: r.status, scoreStatus: r.scoreStatus }));
}

/**
 * The run a pair's headline describes: among scored runs, the one whose composite sits nearest their
 * median. A tie (an even number of scored runs left after crashes or unscored runs) goes to the lower
 * composite, so a headline never flatters; equal composites go to the earlier run. Without a scored
 * run: the first completed one, else the first.
 */
export function representative<
  T extends Pick<JobResult, 'run' | 'status'> & { score?: Pick<RunScore, 'status' | 'axisScore'> },
>(runs: readonly T[]): T {
  const scored = runs.filter((r) => r.score?.status === 'scored');
  if (scored.length > 0) {
    const m = median(scored.map((r) => r.score!.axisScore!))!;
    let best = scored[0]!;
    for (const r of scored) {
      const d = Math.abs(r.score!.axisScore! - m);
      const bestD = Math.abs(best.score!.axisScore! - m);
      if (d < bestD || (d === bestD && r.score!.axisScore! < best.score!.axisScore!)) best = r;
    }
    return best;
  }
  return runs.find((r) => r.status === 'completed') ?? runs[0]!;
}

export function spread(
  runs: readonly (Pick<JobResult, 'status'> & { score?: Pick<RunScore, 'status' | 'axisScore'> })[],
): ScoreSpread {
  const values = runs.filter((r) => r.score?.status === 'scored').map((r) => r.score!.axisScore!);
  const rel = reliability(runs.map((r) => ({ status: r.status, scoreStatus: r.score?.status })));
  const m = median(values);
  let sigma: number | null = null;
  if (values.length === 1) sigma = 0;
  else if (values.length > 1) {
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    sigma = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
  }
  return {
    runs: runs.length,
    scored: values.length,
    unscored: rel.unscored,
    failed: rel.crashed,
    cancelled: rel.cancelled,
    median: m,
    min: values.length ? Math.min(...values) : null,
    max: values.length ? Math.max(...values) : null,
    sigma: sigma === null ? null : Math.round(sigma * 10) / 10,
    reliability: rel.value,
  };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function judgeTotals(results: readonly Pick<JobResult, 'score'>[]): JudgeTotals {
  const judged = results.map((r) => r.score?.judge).filter((j) => j != null);
  // A run answered wholly from the cache asked nothing billed; a simulator judge has no real cost.
  const cost = costTotal(
    judged.map((j) => ({ costUsd: j.costUsd, simulated: j.simulated, free: j.calls === 0 })),
  );
  const warnings = [...new Set(judged.map((j) => j.warning).filter((w): w is string => !!w))];
  return {
    runs: judged.length,
    calls: judged.reduce((n, j) => n + j.calls, 0),
    requests: judged.reduce((n, j) => n + j.requests, 0),
    cached: judged.reduce((n, j) => n + j.cached, 0),
    tokens: {
      input: judged.reduce((n, j) => n + j.tokens.input, 0),
      output: judged.reduce((n, j) => n + j.tokens.output, 0),
    },
    ...(cost.usd !== null ? { costUsd: cost.usd } : {}),
    ...(cost.usd !== null && cost.withoutCost > 0 ? { runsWithoutCost: cost.withoutCost } : {}),
    inputChars: judged.reduce((n, j) => n + j.inputChars, 0),
    judges: [...new Set(judged.map((j) => j.label))],
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** Headline fields of a pair come from its representative run. */
function setHeadline(entry: ReportResultEntry, run: number): void {
  const s = entry.runs.find((r) => r.run === run);
  if (!s) return;
  entry.representativeRun = run;
  entry.durationMs = s.durationMs;
  entry.exitCode = s.exitCode;
  entry.tokenUsage = s.tokenUsage;
  if (s.costUsd !== undefined) entry.costUsd = s.costUsd;
  else delete entry.costUsd;
}

/**
 * One-line form for terminals: `AXIS 88 · goal 83 · env 100 · svc n/a · agent 87` (n/a: nothing exercised it), `unscored: <reason>`,
 * `failed: <reason>` (a run that did not complete has no score to show, not a 0).
 */
export function scoreText(
  score: Pick<
    RunScore,
    'status' | 'axisScore' | 'reason' | 'goalAchievement' | 'environment' | 'service' | 'agent'
  > &
    Partial<Pick<RunScore, 'interruption' | 'cap'>>,
): string {
  const reasonOf = (fallback: string) => {
    const reason = (score.reason ?? fallback).split('\n')[0]!;
    return reason.length > 160 ? `${reason.slice(0, 159)}…` : reason;
  };
  if (score.status === 'failed') return `failed: ${reasonOf('the run did not complete')}`;
  const dim = (d: { score: number | null; notApplicable?: boolean }) =>
    d.notApplicable ? 'n/a' : (d.score ?? '–');
  const dims = [
    `goal ${dim(score.goalAchievement)}`,
    `env ${dim(score.environment)}`,
    `svc ${dim(score.service)}`,
    `agent ${dim(score.agent)}`,
  ].join(' · ');
  const note = interruptionNote(score, 160);
  if (score.status === 'scored') return `AXIS ${score.axisScore} · ${dims}${note ? `\n      ⚠ ${note}` : ''}`;
  return `unscored: ${reasonOf('not scored')}`;
}
