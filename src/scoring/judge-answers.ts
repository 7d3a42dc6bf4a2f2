/**
 * The judges of one run: which questions the deterministic layer left them, asking them (in parallel,
 * long runs in batches), and what their answers give the score: the goal criteria's grades, audits,
 * necessity verdicts, patterns, and why a judge's part is missing.
 */
import type { Criterion as ConfigCriterion } from '../config/types.js';
import type { CheckOutcome } from './checks/types.js';
import type { JudgeCache } from './cache.js';
import { askJudge, type AskResult, type JudgeCallRecord } from './judges/ask.js';
import { askInBatches, batchSize, questionPicker, type BatchedAnswer } from './judges/batch.js';
import {
  agentPrompt,
  categoryPrompt,
  goalPrompt,
  SYSTEM_PROMPT,
  type CheckView,
  type GoalCriterionView,
} from './judges/prompts.js';
import type { RunView } from './judges/prompt-details.js';
import type { JudgeChoice } from './judges/resolve.js';
import {
  agentSpec,
  categorySpec,
  goalSpec,
  type AgentAnswer,
  type CategoryAnswer,
  type GoalAnswer,
} from './judges/schemas.js';
import type { JudgeRequest, SignalReport } from './signals/index.js';
import type { Audit, ClassifiedInteraction, Criterion, Necessity, Pattern } from './types.js';

/** What a run's judges are asked: goal criteria (with the checks' outcomes as evidence) and audits. */
export interface RunQuestions {
  goal: GoalCriterionView[];
  checks: CheckView[];
  environment: JudgeRequest[];
  service: JudgeRequest[];
  agent: JudgeRequest[];
}

export function runQuestions(
  criteria: readonly ConfigCriterion[],
  checks: readonly CheckOutcome[] | undefined,
  interactions: readonly ClassifiedInteraction[],
  signals: SignalReport,
): RunQuestions {
  const judged = criteria.filter((c) => c.kind === 'judge');
  // A run with no tool call made no decision to audit: the agent dimension is n/a, its judge not asked.
  const anyTool = interactions.some((ix) => ix.type === 'tool');
  return {
    goal: judged.map((c, i) => ({ index: i, check: c.check as string, weight: c.weight })),
    checks: (checks ?? []).map((c) => ({
      label: c.label,
      passed: c.passed,
      evidence: c.rationale.replace(/^(Passed|Failed): /, ''),
    })),
    environment: signals.needsJudgement.filter((q) => q.category === 'environment'),
    service: signals.needsJudgement.filter((q) => q.category === 'service'),
    agent: anyTool ? signals.needsJudgement.filter((q) => q.category === 'agent') : [],
  };
}

export function needsJudge(q: RunQuestions): boolean {
  return q.goal.length > 0 || q.environment.length > 0 || q.service.length > 0 || q.agent.length > 0;
}

export interface RunAnswers {
  goal: AskResult<GoalAnswer> | undefined;
  environment: BatchedAnswer<CategoryAnswer>;
  service: BatchedAnswer<CategoryAnswer>;
  agent: BatchedAnswer<AgentAnswer>;
}

export interface AskContext {
  /** The judge; none when it could not be resolved (nothing is asked). */
  choice: JudgeChoice | undefined;
  cache: JudgeCache;
  signal?: AbortSignal;
}

/** Every judge of the run at once; a judge with nothing to ask (or no judge at all) answers nothing. */
export async function askRunJudges(
  view: RunView,
  q: RunQuestions,
  patterns: readonly Pattern[],
  ctx: AskContext,
): Promise<RunAnswers> {
  const { choice } = ctx;
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
  const categoryAsk = (category: 'environment' | 'service', qs: readonly JudgeRequest[]) => {
    if (qs.length === 0 || !choice) return Promise.resolve<BatchedAnswer<CategoryAnswer>>(none);
    const questionsFor = questionPicker(qs);
    return askInBatches<CategoryAnswer>({
      ids: qs.map((x) => x.interactionId),
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
  const agentQ = q.agent;
  const agentQuestionsFor = questionPicker(agentQ);
  const agentBatched = agentQ.length > batchSize('agent');
  const successIds = new Set(agentQ.filter((x) => x.fields.includes('success')).map((x) => x.interactionId));
  const [goal, environment, service, agent] = await Promise.all([
    choice && q.goal.length > 0
      ? ask(goalSpec(q.goal.map((g) => g.index)), goalPrompt(view, q.goal, q.checks))
      : undefined,
    categoryAsk('environment', q.environment),
    categoryAsk('service', q.service),
    agentQ.length === 0 || !choice
      ? Promise.resolve<BatchedAnswer<AgentAnswer>>(none)
      : askInBatches<AgentAnswer>({
          ids: agentQ.map((x) => x.interactionId),
          size: batchSize('agent'),
          ask: (ids) => {
            const batch = agentQuestionsFor(ids);
            return ask(
              agentSpec(
                ids,
                ids.filter((i) => successIds.has(i)),
              ),
              agentPrompt(view, batch, patterns, agentBatched),
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
  return { goal, environment, service, agent };
}

/**
 * The scenario's criteria in order: judge criteria with the goal judge's grades (`goalFailure` says
 * why one has none), checks with their recorded outcomes.
 */
export function goalCriteria(
  criteria: readonly ConfigCriterion[],
  checks: readonly CheckOutcome[] | undefined,
  answer: GoalAnswer | undefined,
  goalFailure: string | undefined,
): Criterion[] {
  const grades = new Map<number, { score: number; rationale: string }>();
  // A criterion graded twice keeps its lower grade: the answer's own order must not flatter.
  for (const g of answer?.grades ?? []) {
    const had = grades.get(g.criterion_index);
    if (!had || g.score < had.score) grades.set(g.criterion_index, g);
  }
  let judgedIndex = 0;
  return criteria.map((c) => {
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
    const outcome = checks?.find((o) => o.index === c.index);
    return {
      check: c.label,
      weight: c.weight,
      score: outcome ? outcome.score : null,
      rationale: outcome ? outcome.rationale : 'Not run: the check has no recorded result',
      kind: 'deterministic',
    };
  });
}

export interface JudgeFindings {
  audits: Audit[];
  patterns: Pattern[];
  /** The agent judge's necessity verdict, one per batch. */
  necessities: Necessity[];
}

/** The audits, patterns and necessity verdicts the judges gave, each batch only for the ids it asked. */
export function judgeFindings(
  answers: RunAnswers,
  interactions: readonly ClassifiedInteraction[],
): JudgeFindings {
  const audits: Audit[] = [];
  const categoryAudits = (res: BatchedAnswer<CategoryAnswer>, category: 'environment' | 'service') => {
    for (const [i, v] of res.values.entries()) {
      const ids = new Set(res.asked[i]);
      for (const a of v.audits)
        if (ids.has(a.id))
          audits.push({
            interactionId: a.id,
            category,
            success: a.success,
            rationale: a.rationale,
            source: 'judge',
          });
    }
  };
  categoryAudits(answers.environment, 'environment');
  categoryAudits(answers.service, 'service');

  const known = new Set(interactions.map((ix) => ix.id));
  const patterns: Pattern[] = [];
  const necessities: Necessity[] = [];
  for (const [i, answer] of answers.agent.values.entries()) {
    const agentIds = new Set(answers.agent.asked[i]);
    for (const a of answer.audits) {
      if (!agentIds.has(a.id)) continue;
      audits.push({
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
      if (!patterns.some((x) => x.description === p.description))
        patterns.push({
          kind: p.kind ?? 'other',
          description: p.description,
          interactionIds: p.interactionIds.filter((i) => known.has(i)),
          severity: p.severity ?? 'medium',
          source: 'judge',
        });
  }
  return { audits, patterns, necessities };
}

/** Every judge call of the run, goal first. */
export function judgeRecords(answers: RunAnswers): JudgeCallRecord[] {
  return [
    ...(answers.goal ? [answers.goal.record] : []),
    ...answers.environment.records,
    ...answers.service.records,
    ...answers.agent.records,
  ];
}

/** Why part of the judging is missing: failed calls, no judge, audits still missing after a re-ask. */
export function judgeFailures(
  records: readonly JudgeCallRecord[],
  answers: RunAnswers,
  q: RunQuestions,
  resolveError: string | undefined,
): string[] {
  const failures = records
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.name} judge failed: ${r.error}`);
  if (resolveError) failures.push(resolveError);
  for (const [name, res, qs] of [
    ['environment', answers.environment, q.environment],
    ['service', answers.service, q.service],
    ['agent', answers.agent, q.agent],
  ] as const)
    if (res.missing.length > 0 && !res.records.some((r) => r.status === 'failed'))
      failures.push(
        `${name} judge audited ${qs.length - res.missing.length} of ${qs.length} interactions ` +
          `(no verdict for ${idList(res.missing)}, also after asking again)`,
      );
  return failures;
}

function idList(ids: readonly number[]): string {
  const shown = ids.slice(0, 12).map((i) => `#${i}`);
  return ids.length > 12 ? `${shown.join(', ')} … (${ids.length} in all)` : shown.join(', ');
}
