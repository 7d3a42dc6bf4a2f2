/**
 * Scoring one run: group → classify → signals → (checks, already run) → judges → dimensions →
 * composite (docs/scoring.md#the-scoring-pipeline). Judges are asked only what the deterministic layer
 * could not settle, in parallel. A judge that fails after its retries makes the run `unscored` with the
 * reason; an agent that crashed makes it `failed` without any judge call. Never a fake 0 or 100.
 */
import type { Criterion as ConfigCriterion } from '../config/types.js';
import type { JobStatus } from '../runner/job-result.js';
import type { Transcript } from '../transcript/model.js';
import type { JudgeCache } from './cache.js';
import type { CheckOutcome } from './checks/types.js';
import { classifyInteractions, type ClassifyContext } from './classify.js';
import { composeScore, failedScore, scoreGoal } from './composite.js';
import { scoreDimensions } from './dimensions.js';
import { groupTranscript } from './interactions.js';
import { keepInteractions } from './kept-interactions.js';
import { askJudge, type JudgeCallRecord } from './judges/ask.js';
import {
  agentPrompt,
  categoryPrompt,
  goalPrompt,
  SYSTEM_PROMPT,
  type CheckView,
  type GoalCriterionView,
  type RunView,
} from './judges/prompts.js';
import type { JudgeChoice } from './judges/resolve.js';
import {
  agentSpec,
  categorySpec,
  goalSpec,
  type AgentAnswer,
  type CategoryAnswer,
} from './judges/schemas.js';
import type { JudgeClient, JudgeTokens } from './judges/types.js';
import { evaluateSignals } from './signals/index.js';
import { identicalRepeats, necessityBound } from './signals/repeated-call.js';
import { detectInterruption, taskNeedsAction } from './interruption.js';
import { askInBatches, batchSize, questionPicker, type BatchedAnswer } from './judges/batch.js';
import { buildSparseIndex } from './sparse-index.js';
import type {
  Audit,
  ClassifiedInteraction,
  Criterion,
  InteractionRecord,
  Necessity,
  Pattern,
  ScoreResult,
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

/** Judge usage of one run: what was asked, what it cost, what failed. */
export interface JudgeSummary {
  provider: string;
  model: string;
  label: string;
  warning?: string;
  /** Questions answered by a judge call (a repair counts as a second call). */
  calls: number;
  /** HTTP requests (or agent runs), including transport retries. */
  requests: number;
  /** Questions answered from the cache. */
  cached: number;
  tokens: JudgeTokens;
  costUsd?: number;
  /** Characters sent to the judge over all calls of this run. */
  inputChars: number;
  judges: JudgeCallRecord[];
}

/** ScoreResult plus how it was judged; what `score` holds in report files. */
export type RunScore = ScoreResult & { judge: JudgeSummary | null };

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

  if (input.status !== 'completed') {
    const reason = input.reason ?? `the run ended with status ${input.status}`;
    const failed = failedScore(reason, {
      criteria: input.criteria.map((c) => ({
        check: c.kind === 'judge' ? c.check : c.label,
        weight: c.weight,
        kind: c.kind === 'judge' ? ('judge' as const) : ('deterministic' as const),
      })),
      weights: ctx.weights,
    });
    return { score: { ...failed, interactions: interactionRecords(interactions), judge: null }, sparseIndex };
  }

  const signals = evaluateSignals(interactions);
  const view: RunView = {
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

  const judged = input.criteria.filter((c) => c.kind === 'judge');
  const goalViews: GoalCriterionView[] = judged.map((c, i) => ({
    index: i,
    check: c.check as string,
    weight: c.weight,
  }));
  const checkViews: CheckView[] = (input.checks ?? []).map((c) => ({
    label: c.label,
    passed: c.passed,
    evidence: c.rationale.replace(/^(Passed|Failed): /, ''),
  }));
  // A run with no tool call made no decision to audit: the agent dimension is n/a, its judge not asked.
  const anyTool = interactions.some((ix) => ix.type === 'tool');
  const envQ = signals.needsJudgement.filter((q) => q.category === 'environment');
  const svcQ = signals.needsJudgement.filter((q) => q.category === 'service');
  const agentQ = anyTool ? signals.needsJudgement.filter((q) => q.category === 'agent') : [];
  const needJudge = goalViews.length > 0 || envQ.length > 0 || svcQ.length > 0 || agentQ.length > 0;

  let choice: JudgeChoice | undefined;
  let resolveError: string | undefined;
  if (needJudge) {
    try {
      choice = await ctx.judge();
    } catch (err) {
      resolveError = `no judge available: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  const ask = <T>(spec: Parameters<typeof askJudge<T>>[0]['spec'], prompt: string) =>
    askJudge<T>({
      client: choice!.client,
      cache: ctx.cache,
      spec,
      system: SYSTEM_PROMPT,
      prompt,
      signal: ctx.signal,
    });
  const none = { values: [], asked: [], records: [], missing: [] };
  const categoryAsk = (category: 'environment' | 'service', qs: typeof envQ) => {
    if (qs.length === 0 || !choice) return Promise.resolve<BatchedAnswer<CategoryAnswer>>(none);
    const questionsFor = questionPicker(qs);
    return askInBatches<CategoryAnswer>({
      ids: qs.map((q) => q.interactionId),
      size: batchSize('category'),
      ask: (ids) => {
        const batch = questionsFor(ids);
        return ask(categorySpec(category, ids), categoryPrompt(view, category, batch));
      },
      answered: (v, asked) => {
        const set = new Set(asked);
        return v.audits.map((a) => a.id).filter((id) => set.has(id));
      },
    });
  };
  const agentQuestionsFor = questionPicker(agentQ);
  const agentBatched = agentQ.length > batchSize('agent');
  const successIds = new Set(agentQ.filter((q) => q.fields.includes('success')).map((q) => q.interactionId));
  const [goalRes, envRes, svcRes, agentRes] = await Promise.all([
    choice && goalViews.length > 0
      ? ask(goalSpec(goalViews.map((g) => g.index)), goalPrompt(view, goalViews, checkViews))
      : undefined,
    categoryAsk('environment', envQ),
    categoryAsk('service', svcQ),
    agentQ.length === 0 || !choice
      ? Promise.resolve<BatchedAnswer<AgentAnswer>>(none)
      : askInBatches<AgentAnswer>({
          ids: agentQ.map((q) => q.interactionId),
          size: batchSize('agent'),
          ask: (ids) => {
            const batch = agentQuestionsFor(ids);
            return ask(
              agentSpec(
                ids,
                ids.filter((i) => successIds.has(i)),
              ),
              agentPrompt(view, batch, signals.patterns, agentBatched),
            );
          },
          answered: (v, asked) => {
            const set = new Set(asked);
            return v.audits
              .filter((a) => set.has(a.id) && (a.success !== undefined || !successIds.has(a.id)))
              .map((a) => a.id);
          },
        }),
  ]);

  // Goal criteria in scenario order: judge grades and check outcomes.
  const grades = new Map<number, { score: number; rationale: string }>();
  for (const g of goalRes?.value?.grades ?? [])
    if (!grades.has(g.criterion_index)) grades.set(g.criterion_index, g);
  const goalFailure = goalRes?.record.error ?? resolveError;
  let judgedIndex = 0;
  const criteria: Criterion[] = input.criteria.map((c) => {
    if (c.kind === 'judge') {
      const g = grades.get(judgedIndex++);
      return {
        check: c.check,
        weight: c.weight,
        score: g ? g.score : null,
        rationale: g
          ? g.rationale
          : goalFailure
            ? `Not graded: ${goalFailure}`
            : 'Not graded: the judge gave no grade',
        kind: 'judge',
      };
    }
    const outcome = input.checks?.find((o) => o.index === c.index);
    return {
      check: c.label,
      weight: c.weight,
      score: outcome ? outcome.score : null,
      rationale: outcome ? outcome.rationale : 'Not run: the check has no recorded result',
      kind: 'deterministic',
    };
  });

  const judgeAudits: Audit[] = [];
  const categoryAudits = (res: BatchedAnswer<CategoryAnswer>, category: 'environment' | 'service') => {
    for (const [i, v] of res.values.entries()) {
      const ids = new Set(res.asked[i]);
      for (const a of v.audits)
        if (ids.has(a.id))
          judgeAudits.push({
            interactionId: a.id,
            category,
            success: a.success,
            rationale: a.rationale,
            source: 'judge',
          });
    }
  };
  categoryAudits(envRes, 'environment');
  categoryAudits(svcRes, 'service');

  const known = new Set(interactions.map((ix) => ix.id));
  const judgePatterns: Pattern[] = [];
  const necessities: Necessity[] = [];
  for (const [i, answer] of agentRes.values.entries()) {
    const agentIds = new Set(agentRes.asked[i]);
    for (const a of answer.audits) {
      if (!agentIds.has(a.id)) continue;
      judgeAudits.push({
        interactionId: a.id,
        category: 'agent',
        weight: a.weight,
        relevance: a.relevance,
        ...(a.success !== undefined ? { success: a.success } : {}),
        rationale: a.rationale,
        source: 'judge',
      });
    }
    necessities.push({
      score: answer.necessity.score,
      unnecessaryIds: answer.necessity.unnecessaryIds.filter((i) => known.has(i)),
      rationale: answer.necessity.rationale,
    });
    for (const p of answer.patterns)
      if (!judgePatterns.some((q) => q.description === p.description))
        judgePatterns.push({
          kind: p.kind ?? 'other',
          description: p.description,
          interactionIds: p.interactionIds.filter((i) => known.has(i)),
          severity: p.severity ?? 'medium',
          source: 'judge',
        });
  }
  const necessity = combineNecessity(necessities, necessityBound(interactions));

  const judgeRecords = [
    ...(goalRes ? [goalRes.record] : []),
    ...envRes.records,
    ...svcRes.records,
    ...agentRes.records,
  ];
  const failures = judgeRecords
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.name} judge failed: ${r.error}`);
  if (resolveError) failures.push(resolveError);
  for (const [name, res, qs] of [
    ['environment', envRes, envQ],
    ['service', svcRes, svcQ],
    ['agent', agentRes, agentQ],
  ] as const)
    if (res.missing.length > 0 && !res.records.some((r) => r.status === 'failed'))
      failures.push(
        `${name} judge audited ${qs.length - res.missing.length} of ${qs.length} interactions ` +
          `(no verdict for ${idList(res.missing)}, also after asking again)`,
      );

  const dims = scoreDimensions({ interactions, audits: [...signals.audits, ...judgeAudits], necessity });
  markRedundant(dims.agent.audits, interactions);
  const interruption = detectInterruption({
    interactions,
    finalAnswer: t.result,
    needsAction: taskNeedsAction(
      input.prompt,
      input.criteria.flatMap((c) => (c.kind === 'check' ? [c.check] : [])),
    ),
  });
  const composed = composeScore({
    goal: scoreGoal(criteria),
    ...dims,
    weights: ctx.weights,
    necessity,
    patterns: [...signals.patterns, ...judgePatterns],
    interruption,
    ...(failures.length > 0 ? { judgeFailure: failures.join('; ') } : {}),
  });
  return {
    score: {
      ...composed,
      interactions: interactionRecords(interactions),
      judge: summarize(choice, judgeRecords),
    },
    sparseIndex,
  };
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

function idList(ids: readonly number[]): string {
  const shown = ids.slice(0, 12).map((i) => `#${i}`);
  return ids.length > 12 ? `${shown.join(', ')} … (${ids.length} in all)` : shown.join(', ');
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
    inputChars: records.reduce((n, r) => n + r.inputChars, 0),
    judges: records,
  };
}

function statsLine(input: ScoreRunInput): string {
  const t = input.transcript;
  const u = t.usage;
  const total = u.input + u.output + u.cacheReadInput + (u.cacheWriteInput ?? 0);
  const secs = Number((t.durationMs / 1000).toFixed(1));
  const parts = [`input ${u.input}`, `output ${u.output}`];
  if (u.cacheReadInput) parts.push(`cached ${u.cacheReadInput}`);
  return `${input.status} · ${secs} s · ${total} tokens (${parts.join(', ')}) · exit code ${t.exitCode ?? 'none'}`;
}
