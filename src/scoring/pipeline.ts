/**
 * Scoring one run: group → classify → signals → (checks, already run) → judges → dimensions →
 * composite (docs/scoring.md#the-scoring-pipeline). Judges are asked only what the deterministic layer
 * could not settle, in parallel. A judge that fails after its retries makes the run `unscored` with the
 * reason; an agent that crashed makes it `failed` without any judge call. Never a fake 0 or 100.
 */
import type { Criterion as ConfigCriterion } from '../config/types.js';
import type { JobStatus } from '../transcript/model.js';
import type { Transcript } from '../transcript/model.js';
import type { JudgeCache } from './cache.js';
import type { CheckOutcome } from './checks/types.js';
import { classifyInteractions, type ClassifyContext } from './classify.js';
import { composeScore, failedScore, scoreGoal } from './composite.js';
import { scoreDimensions } from './dimensions.js';
import { groupTranscript } from './interactions.js';
import { keepInteractions } from './kept-interactions.js';
import {
  askRunJudges,
  goalCriteria,
  judgeFailures,
  judgeFindings,
  judgeRecords,
  needsJudge,
  runQuestions,
  type RunQuestions,
} from './judge-answers.js';
import type { JudgeCallRecord } from './judges/ask.js';
import type { RunView } from './judges/prompt-details.js';
import type { JudgeChoice } from './judges/resolve.js';
import type { JudgeClient } from './judges/types.js';
import { evaluateSignals } from './signals/index.js';
import { identicalRepeats, necessityBound } from './signals/repeated-call.js';
import { detectInterruption, taskNeedsAction } from './interruption.js';
import { buildSparseIndex } from './sparse-index.js';
import type {
  Audit,
  ClassifiedInteraction,
  InteractionRecord,
  Interruption,
  JudgeSummary,
  Necessity,
  RunScore,
  ScoringWeights,
} from './types.js';

/** What scoring reads from a job result (a JobResult fits). */
export interface ScoreRunInput {
  scenarioKey: string;
  scenarioName: string;
  agentName: string;
  prompt: string;
  criteria: readonly ConfigCriterion[];
  status: JobStatus;
  reason?: string;
  transcript: Transcript;
  /** Outcomes of the deterministic checks (run in the workspace, or stored from the original run). */
  checks?: readonly CheckOutcome[];
  /** Where the run's tools come from: the agent's adapter, configured MCP servers, `classify` rules. */
  classify?: ClassifyContext;
}

export interface ScoreRunContext {
  /** Resolved only when a judge question is needed (a crashed run or a run with nothing to judge asks none). */
  judge: () => Promise<JudgeChoice>;
  cache: JudgeCache;
  weights: ScoringWeights;
  signal?: AbortSignal;
}

export interface ScoreRunOutput {
  score: RunScore;
  sparseIndex: string;
}

export async function scoreRun(input: ScoreRunInput, ctx: ScoreRunContext): Promise<ScoreRunOutput> {
  const t = input.transcript;
  const interactions = classifyInteractions(groupTranscript(t), input.classify);
  keepInteractions(t, interactions);
  const sparseIndex = buildSparseIndex(interactions, {
    scenarioKey: input.scenarioKey,
    agentName: input.agentName,
  });
  if (input.status !== 'completed') return failedRun(input, ctx.weights, interactions, sparseIndex);

  const signals = evaluateSignals(interactions);
  const view = runView(input, interactions, sparseIndex);
  const questions = runQuestions(input.criteria, input.checks, interactions, signals);

  const { choice, resolveError } = await chooseJudge(questions, ctx);
  const answers = await askRunJudges(view, questions, signals.patterns, {
    choice,
    cache: ctx.cache,
    signal: ctx.signal,
  });

  const criteria = goalCriteria(
    input.criteria,
    input.checks,
    answers.goal?.value,
    answers.goal?.record.error ?? resolveError,
  );
  const judged = judgeFindings(answers, interactions);
  const necessity = combineNecessity(judged.necessities, necessityBound(interactions));
  const records = judgeRecords(answers);
  const failures = judgeFailures(records, answers, questions, resolveError);

  const dims = scoreDimensions({ interactions, audits: [...signals.audits, ...judged.audits], necessity });
  markRedundant(dims.agent.audits, interactions);
  const interruption = runInterruption(input, interactions);
  const composed = composeScore({
    goal: scoreGoal(criteria),
    ...dims,
    weights: ctx.weights,
    necessity,
    patterns: [...signals.patterns, ...judged.patterns],
    interruption,
    ...(failures.length > 0 ? { judgeFailure: failures.join('; ') } : {}),
  });
  return {
    score: {
      ...composed,
      interactions: interactionRecords(interactions),
      judge: summarize(choice, records),
    },
    sparseIndex,
  };
}

/** A run that did not complete: failed with its reason, no judge asked. */
function failedRun(
  input: ScoreRunInput,
  weights: ScoringWeights,
  interactions: readonly ClassifiedInteraction[],
  sparseIndex: string,
): ScoreRunOutput {
  const reason = input.reason ?? `the run ended with status ${input.status}`;
  const failed = failedScore(reason, {
    criteria: input.criteria.map((c) => ({
      check: c.kind === 'judge' ? c.check : c.label,
      weight: c.weight,
      kind: c.kind === 'judge' ? ('judge' as const) : ('deterministic' as const),
    })),
    weights,
  });
  return { score: { ...failed, interactions: interactionRecords(interactions), judge: null }, sparseIndex };
}

/** The judge, resolved only when some question needs one; when none is available, why. */
async function chooseJudge(
  questions: RunQuestions,
  ctx: ScoreRunContext,
): Promise<{ choice?: JudgeChoice; resolveError?: string }> {
  if (!needsJudge(questions)) return {};
  try {
    return { choice: await ctx.judge() };
  } catch (err) {
    return { resolveError: `no judge available: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** What the judges are shown of the run. */
function runView(input: ScoreRunInput, interactions: ClassifiedInteraction[], sparseIndex: string): RunView {
  const t = input.transcript;
  return {
    scenarioKey: input.scenarioKey,
    scenarioName: input.scenarioName,
    agentName: input.agentName,
    prompt: input.prompt,
    finalAnswer: t.result,
    interactions,
    events: t.events,
    sparseIndex,
    stats: statsLine(input),
  };
}

/** Whether the agent handed back to the user before the task was done. */
function runInterruption(
  input: ScoreRunInput,
  interactions: readonly ClassifiedInteraction[],
): Interruption | null {
  return detectInterruption({
    interactions,
    finalAnswer: input.transcript.result,
    needsAction: taskNeedsAction(
      input.prompt,
      input.criteria.flatMap((c) => (c.kind === 'check' ? [c.check] : [])),
    ),
  });
}

/** The interactions as a score stores them. */
export function interactionRecords(interactions: readonly ClassifiedInteraction[]): InteractionRecord[] {
  return interactions.map((ix) => ({
    id: ix.id,
    type: ix.type,
    ...(ix.tool ? { tool: ix.tool.name } : {}),
    categories: ix.categories,
    rule: ix.classifiedBy,
    unclassified: ix.unclassified,
  }));
}

/** Necessity over batches (the lowest: never flatters) capped by the deterministic bound. */
function combineNecessity(
  judged: readonly Necessity[],
  bound: ReturnType<typeof necessityBound>,
): Necessity | null {
  if (judged.length === 0) return null;
  const lowest = judged.reduce((a, b) => (b.score < a.score ? b : a));
  const ids = new Set(judged.flatMap((n) => n.unnecessaryIds));
  if (!bound) return { ...lowest, unnecessaryIds: [...ids] };
  for (const id of bound.redundantIds) ids.add(id);
  const score = Math.min(lowest.score, bound.bound);
  return {
    score,
    unnecessaryIds: [...ids].sort((a, b) => a - b),
    rationale: lowest.rationale,
    ...(score < lowest.score ? { judgeScore: lowest.score } : {}),
    deterministic: bound,
  };
}

/** The agent audits of identical repeats say so, whatever the judge wrote. */
function markRedundant(audits: Audit[], interactions: readonly ClassifiedInteraction[]): void {
  const repeats = new Map(identicalRepeats(interactions).map((r) => [r.id, r.firstId]));
  for (const a of audits) {
    const first = repeats.get(a.interactionId);
    if (first === undefined) continue;
    const note = `unnecessary: identical to #${first} (same tool, input and result)`;
    a.rationale = a.rationale === 'not audited' ? note : `${note}; ${a.rationale}`;
    a.redundantOf = first;
  }
}

function summarize(choice: JudgeChoice | undefined, records: JudgeCallRecord[]): JudgeSummary | null {
  if (!choice) return null;
  const c: JudgeClient = choice.client;
  const costs = records.filter((r) => r.costUsd !== undefined);
  const model = records.find((r) => r.model)?.model ?? c.model;
  return {
    provider: c.provider,
    model,
    label: c.label,
    ...(choice.warning ? { warning: choice.warning } : {}),
    calls: records.reduce((n, r) => n + r.calls, 0),
    requests: records.reduce((n, r) => n + r.requests, 0),
    cached: records.filter((r) => r.status === 'cached').length,
    tokens: {
      input: records.reduce((n, r) => n + r.tokens.input, 0),
      output: records.reduce((n, r) => n + r.tokens.output, 0),
    },
    ...(costs.length > 0 ? { costUsd: costs.reduce((n, r) => n + r.costUsd!, 0) } : {}),
    ...(c.simulated ? { simulated: true as const } : {}),
    inputChars: records.reduce((n, r) => n + r.inputChars, 0),
    judges: records,
  };
}

function statsLine(input: ScoreRunInput): string {
  const t = input.transcript;
  const u = t.usage;
  const total = u.input + u.output + u.cacheReadInput; // cache writes are part of input
  const secs = Number((t.durationMs / 1000).toFixed(1));
  const parts = [`input ${u.input}`, `output ${u.output}`];
  if (u.cacheReadInput) parts.push(`cached ${u.cacheReadInput}`);
  return `${input.status} · ${secs} s · ${total} tokens (${parts.join(', ')}) · exit code ${t.exitCode ?? 'none'}`;
}
