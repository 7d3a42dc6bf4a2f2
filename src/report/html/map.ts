/**
 * report.json + per-run detail files → the HTML view-model. Pure: the caller reads the files (including
 * artifact bytes, see write.ts) and passes them in. The input types are in map-input.ts.
 */
import { interruptionNote } from '../../scoring/interruption.js';
import { classifyInteractions, groupInteractions, redact, takeInteractions } from '../../scoring/index.js';
import type { JobStatus, TokenUsage } from '../../transcript/model.js';
import { totalTokens } from '../job-result.js';
import { costAmountText, costGapText, costTotal, type CostTotal } from '../cost-total.js';
import { reliability, reliabilityOfSummary, reliabilityText } from '../../scoring/runs.js';
import type { ClassifiedInteraction } from '../../scoring/types.js';
import type { Trend } from '../history.js';
import { mapEvents } from './events.js';
import { toHtmlGate } from './map-gate.js';
import { computeInsights } from './insights.js';
import {
  MAP_DEFAULTS,
  type ArtifactInput,
  type ManifestInput,
  type MapOptions,
  type PairInput,
  type RunInput,
} from './map-input.js';
import { hookNotes, hooksHaveNotes, runHasNotes, runNotes, type NotesRenderer } from './map-notes.js';
import { scoreParts, toInteraction, toScores } from './map-score.js';
import {
  HTML_REPORT_SCHEMA,
  type HtmlArtifact,
  type HtmlPair,
  type HtmlReportData,
  type HtmlRun,
  type HtmlScores,
  type HtmlTokens,
  type HtmlTrend,
  type RunStatus,
} from './model.js';

export { MAP_DEFAULTS };
export type { ArtifactInput, ManifestInput, MapOptions, PairInput, RunInput };

/**
 * `details[i]` holds the runs of `manifest.results[i]` in run order (the per-run detail files). When
 * missing, the pair's run summaries stand in (no transcript), else the entry itself is its only run.
 * `renderNotes` turns notes into HTML; it must be given when the report has notes (`hasNotes`). The
 * public `toHtmlReportData` (index.ts) gives marked's.
 */
export function toHtmlReportData(
  manifest: ManifestInput,
  details: readonly (readonly RunInput[] | undefined)[] = [],
  options: MapOptions = {},
  trend?: Trend,
  renderNotes?: NotesRenderer,
): HtmlReportData {
  const opts = { ...MAP_DEFAULTS, ...options };
  const budget = { artifactBytes: opts.maxTotalArtifactBytes };
  const pairs = manifest.results.map((entry, i) =>
    toPair(entry, runsOf(entry, details[i]), opts, budget, renderNotes),
  );
  // Texts are as the run has them: the page encoding closes the bidi controls one leaves open (render.ts).
  return {
    schema: HTML_REPORT_SCHEMA,
    report: {
      id: manifest.reportId,
      ...(manifest.name ? { name: manifest.name } : {}),
      timestamp: manifest.timestamp,
      durationMs: num(manifest.durationMs),
      incomplete: manifest.incomplete === true,
      ...(manifest.incomplete && manifest.incompleteReason
        ? { incompleteReason: manifest.incompleteReason }
        : {}),
      ...(manifest.hooks?.afterAll?.ok === false
        ? { afterAllError: manifest.hooks.afterAll.error ?? 'afterAll failed' }
        : {}),
      ...(manifest.shard ? { shard: { index: manifest.shard.index, total: manifest.shard.total } } : {}),
      ...hookNotes(manifest.hooks, renderNotes),
      ...toHtmlGate(manifest.verdict),
    },
    summary: summarize(manifest, pairs),
    pairs,
    ...(trend ? { trend: toHtmlTrend(trend) } : {}),
  };
}

/** `trend.pairs` are built from `manifest.results`, so their order is the page's pair order. */
function toHtmlTrend(trend: Trend): HtmlTrend {
  return {
    limit: trend.limit,
    olderNotShown: trend.olderNotShown,
    reports: trend.reports.map((r) => ({
      id: r.reportId,
      ...(r.timestamp ? { timestamp: r.timestamp } : {}),
    })),
    average: trend.average,
    values: trend.pairs.map((p) => p.values),
  };
}

/** Whether the page has notes to show, from the same runs as `toHtmlReportData`'s. */
export function hasNotes(
  manifest: ManifestInput,
  details: readonly (readonly RunInput[] | undefined)[] = [],
): boolean {
  if (hooksHaveNotes(manifest.hooks)) return true;
  return manifest.results.some((entry, i) => runsOf(entry, details[i]).some(runHasNotes));
}

function runsOf(entry: PairInput, details: readonly RunInput[] | undefined): readonly RunInput[] {
  if (details && details.length > 0) return details;
  if (entry.runs && entry.runs.length > 0)
    return entry.runs.map((r) =>
      r.run === entry.representativeRun && entry.score ? { ...r, score: entry.score } : r,
    );
  return [entry];
}

function toPair(
  entry: PairInput,
  inputs: readonly RunInput[],
  opts: Required<MapOptions>,
  budget: Budget,
  renderNotes: NotesRenderer | undefined,
): HtmlPair {
  const runs = inputs.map((input, i) => toRun(input, i + 1, opts, budget, renderNotes));
  const rep = runs.findIndex((r) => r.index === entry.representativeRun);
  const rel = reliability(
    inputs.map((r) => ({
      status: (r.status ?? 'completed') as JobStatus,
      scoreStatus: r.score?.status ?? r.scoreStatus,
    })),
  );
  const scored = runs.map((r) => r.scores?.axis).filter((v): v is number => typeof v === 'number');
  const sp = entry.spread ?? spreadOf(scored);
  return {
    scenarioKey: entry.scenarioKey,
    scenarioName: entry.scenarioName ?? entry.scenarioKey,
    ...(entry.variant ? { variant: entry.variant } : {}),
    agentName: entry.agentName,
    representative: rep === -1 ? 0 : rep,
    ...(runs.length > 1 && sp && sp.median !== null && sp.min !== null && sp.max !== null
      ? {
          spread: {
            scored: sp.scored ?? scored.length,
            median: sp.median,
            min: sp.min,
            max: sp.max,
            sigma: sp.sigma ?? 0,
          },
        }
      : {}),
    reliability: rel.value,
    reliabilityText: reliabilityText(rel),
    runs,
  };
}

type Budget = { artifactBytes: number };

function toRun(
  input: RunInput,
  position: number,
  opts: Required<MapOptions>,
  budget: Budget,
  renderNotes: NotesRenderer | undefined,
): HtmlRun {
  const score = input.score ?? null;
  const jobFailed = input.status !== undefined && input.status !== 'completed';
  const summaryOnly = !score && input.scoreStatus !== undefined;
  const status: RunStatus =
    input.status === 'cancelled'
      ? 'cancelled'
      : (score?.status ?? input.scoreStatus ?? notScoredStatus(input, jobFailed));
  const said = score?.reason ?? input.reason;
  const reason =
    said !== undefined
      ? redact(said)
      : jobFailed
        ? input.status
        : score || summaryOnly
          ? undefined
          : 'not scored (--no-score)';
  const transcript = input.transcript ?? null;
  const interactions = runInteractions(input, score);
  const usage = transcript?.usage ?? input.tokenUsage ?? null;
  const warnings = runWarnings(input, score, status, jobFailed, summaryOnly);

  const run: HtmlRun = {
    index: input.run ?? position,
    ...(input.files?.detail ? { file: input.files.detail } : {}),
    status,
    ...(reason && status !== 'scored' ? { reason } : {}),
    durationMs: num(input.durationMs),
    exitCode: num(transcript?.exitCode ?? input.exitCode),
    tokens: usage ? htmlTokens(usage) : null,
    costUsd: input.simulated ? null : num(transcript?.costUsd ?? input.costUsd),
    ...(input.simulated ? { simulated: true } : {}),
    ...(score && interruptionNote(score, 300) ? { handBack: interruptionNote(score, 300)! } : {}),
    scores:
      score && status !== 'failed'
        ? toScores(score)
        : summaryOnly && status !== 'failed'
          ? summaryScores(input.axisScore)
          : null,
    ...(score?.judge?.label ? { judge: score.judge.label } : {}),
    warnings,
    ...scoreParts(score),
    insights: [],
    interactions: interactions.map(toInteraction),
    events: transcript ? mapEvents(transcript.events, transcript.startedAt, opts) : [],
    notes: runNotes(input, renderNotes),
    artifacts: (input.artifacts ?? []).map((a) => toArtifact(a, opts, budget)),
  };
  if (status !== 'failed' && status !== 'cancelled') run.insights = computeInsights(run);
  return run;
}

/** The run's interactions as scored, else classified again from its transcript. */
function runInteractions(input: RunInput, score: RunInput['score']): readonly ClassifiedInteraction[] {
  const transcript = input.transcript ?? null;
  const interactions =
    input.interactions ??
    (transcript
      ? (takeInteractions(transcript) ??
        classifyInteractions(
          groupInteractions(transcript.events, {
            startedAt: transcript.startedAt,
            endedAt: transcript.endedAt,
          }),
        ))
      : []);
  // The categories and rules the scoring stage chose (it knew the config); recomputing cannot.
  const stored = new Map((score?.interactions ?? []).map((r) => [r.id, r]));
  for (const ix of interactions) {
    const r = stored.get(ix.id);
    if (!r) continue;
    ix.categories = r.categories;
    ix.classifiedBy = r.rule;
    ix.unclassified = r.unclassified;
  }
  return interactions;
}

/**
 * A run without any score: failed when its job did; completed when its detail file shows it finished
 * unjudged (--no-score); unscored when only report.json's summary is left, which cannot say which.
 */
function notScoredStatus(input: RunInput, jobFailed: boolean): RunStatus {
  if (jobFailed) return 'failed';
  return input.status === 'completed' && input.transcript ? 'completed' : 'unscored';
}

function runWarnings(
  input: RunInput,
  score: RunInput['score'],
  status: RunStatus,
  jobFailed: boolean,
  summaryOnly: boolean,
): string[] {
  // Reasons and errors quote agent output and scripts' errors as they came, as the transcript does.
  return [
    jobFailed && status !== 'failed'
      ? `The run ended with status ${input.status}${input.reason ? `: ${input.reason}` : ''}`
      : '',
    input.teardownError ? `Teardown failed: ${input.teardownError}` : '',
    input.afterAgentError ? `Checks or scoring after the agent failed: ${input.afterAgentError}` : '',
    score?.judge?.warning ?? '',
    score && interruptionNote(score, 300) ? `⚠ ${interruptionNote(score, 300)}` : '',
    summaryOnly || (!input.transcript && input.status !== undefined)
      ? "This run's detail file could not be read: only its summary from report.json is shown"
      : '',
  ]
    .filter((w) => w !== '')
    .map(redact);
}

/** What a run summary tells: the composite, and nothing about the dimensions. */
function summaryScores(axis: number | null | undefined): HtmlScores {
  const unknown = { score: null, notApplicable: false, weight: 0, unknown: true };
  return { axis: axis ?? null, goal: unknown, environment: unknown, service: unknown, agent: unknown };
}

function toArtifact(a: ArtifactInput, opts: Required<MapOptions>, budget: Budget): HtmlArtifact {
  const out: HtmlArtifact = { path: a.path, size: a.size, mimeType: a.mimeType };
  if (a.skipped) {
    out.skipped = a.skipped;
    return out;
  }
  if (a.content === undefined || a.content === null) {
    out.omitted = a.omitted ?? 'content not available';
    return out;
  }
  const bytes = typeof a.content === 'string' ? Math.floor((a.content.length * 3) / 4) : a.content.byteLength;
  const why = artifactRefusal(bytes, opts, budget);
  if (why) out.omitted = why;
  else {
    budget.artifactBytes -= bytes;
    out.content = typeof a.content === 'string' ? a.content : Buffer.from(a.content).toString('base64');
  }
  return out;
}

/** Why a file of `bytes` is not embedded, or null when it fits (write.ts asks before reading a file). */
export function artifactRefusal(bytes: number, opts: Required<MapOptions>, budget: Budget): string | null {
  if (bytes > opts.maxArtifactBytes)
    return `too large to embed (${mib(bytes)}); the file is in the report folder`;
  if (bytes > budget.artifactBytes)
    return `report embedding limit reached (${mib(opts.maxTotalArtifactBytes)}); the file is in the report folder`;
  return null;
}

function summarize(manifest: ManifestInput, pairs: readonly HtmlPair[]): HtmlReportData['summary'] {
  const s = manifest.summary ?? {};
  const reps = pairs.map((p) => p.runs[p.representative]!);
  const allRuns = pairs.flatMap((p) => p.runs);
  const scored = reps.map((r) => r.scores?.axis).filter((v): v is number => typeof v === 'number');
  const cost = costTotal(allRuns);
  const tokens = allRuns.map((r) => r.tokens).filter((t) => t !== null);
  // Only for reports without counts: a pair failed when none of its runs got past failing.
  const failedPairs = pairs.filter(
    (p) =>
      p.runs.some((r) => r.status === 'failed') &&
      p.runs.every((r) => r.status === 'failed' || r.status === 'cancelled'),
  ).length;
  return {
    averageAxisScore:
      s.averageAxisScore !== undefined
        ? s.averageAxisScore
        : scored.length > 0
          ? Math.floor(scored.reduce((a, b) => a + b, 0) / scored.length)
          : null,
    pairs: {
      total: s.total ?? pairs.length,
      completed: s.completed ?? pairs.length - failedPairs,
      failed: s.failed ?? failedPairs,
      cancelled: s.cancelled ?? 0,
      ...(s.skipped ? { skipped: s.skipped } : {}),
    },
    runs: {
      total: s.runsTotal ?? allRuns.length,
      failed: s.runsFailed ?? allRuns.filter((r) => r.status === 'failed').length,
      cancelled: s.runsCancelled ?? allRuns.filter((r) => r.status === 'cancelled').length,
    },
    ...(typeof s.scores?.scored === 'number'
      ? {
          scoredPairs: {
            scored: s.scores.scored,
            unscored: s.scores.unscored ?? 0,
            failed: s.scores.failed ?? 0,
          },
        }
      : {}),
    ...(s.scores?.runs
      ? { reliabilityText: reliabilityText(reliabilityOfSummary({ ...s.scores, runs: s.scores.runs })) }
      : {}),
    totalCostUsd: cost.usd,
    cost: { value: costAmountText(cost), note: costCardNote(cost) },
    totalTokens: tokens.length > 0 ? tokens.reduce((a, t) => a + t.total, 0) : null,
  };
}

/** Under the Cost card's amount: what it covers. */
function costCardNote(t: CostTotal): string {
  if (t.simulated && t.usd === null) return 'model simulator: no real cost';
  if (t.usd === null) return 'no run reported a cost';
  return costGapText(t) || 'all runs';
}

function spreadOf(values: readonly number[]): PairInput['spread'] | undefined {
  if (values.length < 2) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const variance = sorted.reduce((a, v) => a + (v - mean) ** 2, 0) / (sorted.length - 1);
  return {
    median,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    sigma: Math.round(Math.sqrt(variance) * 10) / 10,
  };
}

/** A run's tokens, with the total every other view counts (report/job-result.ts `totalTokens`). */
function htmlTokens(u: TokenUsage): HtmlTokens {
  return {
    input: u.input,
    output: u.output,
    cacheRead: u.cacheReadInput,
    cacheWrite: u.cacheWriteInput ?? 0,
    total: totalTokens(u),
  };
}

function num(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
