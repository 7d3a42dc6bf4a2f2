/** The score parts of a run for the page: composite, dimensions with audits, interactions. */
import { inputSummary, redact } from '../../scoring/index.js';
import type { Audit, ClassifiedInteraction, DimensionScore, ScoreResult } from '../../scoring/types.js';
import { collapseSpaces } from '../../util/spaces.js';
import { toHundred } from './client/labels.js';
import type {
  CategoryId,
  HtmlAudit,
  HtmlDimension,
  HtmlInteraction,
  HtmlRun,
  HtmlScore,
  HtmlScores,
} from './model.js';

const CATS: readonly CategoryId[] = ['environment', 'service', 'agent'];

export function toScores(score: ScoreResult): HtmlScores {
  const w = score.weights;
  const dim = (
    d: { score: number | null; notApplicable: boolean; unscoredReason?: string },
    weight: number,
  ) => {
    const s: HtmlScore = { score: d.score, notApplicable: d.notApplicable, weight };
    if (d.unscoredReason) s.reason = redact(d.unscoredReason);
    return s;
  };
  return {
    axis: score.axisScore,
    goal: dim(score.goalAchievement, w.goal_achievement),
    environment: dim(score.environment, w.environment),
    service: dim(score.service, w.service),
    agent: dim(score.agent, w.agent),
  };
}

/** Everything of a score the page shows besides the numbers in `toScores`. */
export function scoreParts(
  score: ScoreResult | null,
): Pick<HtmlRun, 'criteria' | 'dimensions' | 'necessity' | 'patterns'> {
  const usable = score !== null && score.status !== 'failed';
  return {
    criteria: (score?.goalAchievement.criteria ?? []).map((c) => ({
      check: c.check,
      weight: c.weight,
      score: c.score,
      rationale: redact(c.rationale),
      kind: c.kind,
    })),
    dimensions: usable ? CATS.map((id) => toDimension(id, score[id])) : [],
    necessity: score?.necessity
      ? {
          score: toHundred(score.necessity.score),
          unnecessaryIds: [...score.necessity.unnecessaryIds],
          rationale: redact(
            score.necessity.deterministic
              ? `${score.necessity.rationale}${score.necessity.rationale ? ' · ' : ''}${score.necessity.deterministic.rationale}` +
                  (score.necessity.judgeScore !== undefined
                    ? ` (the judge said ${toHundred(score.necessity.judgeScore)})`
                    : '')
              : score.necessity.rationale,
          ),
        }
      : null,
    patterns: (score?.patterns ?? []).map((p) => ({
      kind: p.kind,
      severity: p.severity,
      description: redact(p.description),
      interactionIds: [...p.interactionIds],
    })),
  };
}

function toDimension(id: CategoryId, d: DimensionScore): HtmlDimension {
  return {
    id,
    score: d.score,
    notApplicable: d.notApplicable,
    ...(d.unscoredReason ? { reason: redact(d.unscoredReason) } : {}),
    sub: { ...d.dimensions },
    interactionCount: d.interactionCount,
    auditedCount: d.auditedCount,
    judgedCount: d.judgedCount,
    audits: d.audits.map(toAudit),
  };
}

/**
 * One literal with every field, an unmeasured one `undefined`, which JSON leaves out as it left out the
 * spread of an empty literal before: that spread per field took twice as long on a long run's 13,000
 * audits (about 6 against 3 ms, each in a fresh process).
 */
function toAudit(a: Audit): HtmlAudit {
  return {
    interactionId: a.interactionId,
    success: a.success,
    speed: a.speed,
    weight: a.weight,
    relevance: a.relevance,
    rationale: redact(a.rationale),
    source: a.source,
  };
}

export function toInteraction(ix: ClassifiedInteraction): HtmlInteraction {
  const out: HtmlInteraction = {
    id: ix.id,
    type: ix.type,
    categories: [...ix.categories],
    unclassified: ix.unclassified,
    rule: ix.classifiedBy,
    label: interactionLabel(ix),
    startMs: ix.startMs,
    durationMs: ix.durationMs,
    durationSource: ix.durationSource,
    outcome: ix.outcome,
    events: [...ix.entryIndices],
  };
  if (ix.failure) out.failure = ix.failure.detail;
  return out;
}

function interactionLabel(ix: ClassifiedInteraction): string {
  if (ix.type === 'tool')
    return `${oneLine(ix.tool?.name || '(unknown tool)', 60)}(${inputSummary(ix.tool?.input, 80)})`;
  const text = oneLine(redact(ix.summary ?? ''), 100);
  if (ix.type === 'reasoning' && ix.thinkingOnly) return text ? `(thinking) ${text}` : '(thinking)';
  return text || ix.type;
}

function oneLine(s: string, max: number): string {
  const flat = collapseSpaces(s).trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
