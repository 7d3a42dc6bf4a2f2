/**
 * Score insights: for each dimension scoring under the threshold, the weakest signals behind it, worst
 * first, as short sentences (the criteria a judge failed, the weakest sub-dimension, the audits that
 * pulled it down, unnecessary calls, high-severity patterns).
 */
import type { HtmlCriterion, HtmlDimension, HtmlInsight, HtmlInteraction, HtmlRun, SubId } from './model.js';
import { closeBidi } from './bidi.js';
import { toHundred, partLabel, PART_QUESTION } from './client/labels.js';
import { collapseSpaces } from '../../util/spaces.js';

export const INSIGHT_THRESHOLD = 75;
const MAX_SIGNALS = 4;
const RATIONALE_CHARS = 160;

const AUDIT_FIELDS = ['success', 'speed', 'weight', 'relevance'] as const;

type InsightInput = Pick<
  HtmlRun,
  'scores' | 'criteria' | 'dimensions' | 'necessity' | 'patterns' | 'interactions'
>;

export function computeInsights(run: InsightInput, threshold = INSIGHT_THRESHOLD): HtmlInsight[] {
  const out: HtmlInsight[] = [];
  const goal = run.scores?.goal.score;
  if (typeof goal === 'number' && goal < threshold) {
    out.push({ dimension: 'goal', score: goal, signals: goalSignals(run.criteria) });
  }
  const byId = new Map(run.interactions.map((ix) => [ix.id, ix]));
  for (const dim of run.dimensions) {
    if (dim.score === null || dim.notApplicable || dim.score >= threshold) continue;
    out.push({ dimension: dim.id, score: dim.score, signals: dimensionSignals(dim, run, byId) });
  }
  return out.sort((a, b) => a.score - b.score);
}

function goalSignals(criteria: readonly HtmlCriterion[]): string[] {
  return criteria
    .filter((c): c is HtmlCriterion & { score: number } => c.score !== null && c.score < 10)
    .sort((a, b) => a.score - b.score || b.weight - a.weight)
    .slice(0, MAX_SIGNALS)
    .map(
      (c) =>
        `"${short(c.check, 80)}" scored ${c.score} out of 10${c.rationale ? `: ${short(c.rationale)}` : ''}`,
    );
}

function dimensionSignals(
  dim: HtmlDimension,
  run: InsightInput,
  byId: ReadonlyMap<number, HtmlInteraction>,
): string[] {
  const signals: string[] = [];
  const weakest = (Object.entries(dim.sub) as [SubId, number | null][])
    .filter((e): e is [SubId, number] => e[1] !== null && e[1] < 90)
    .sort((a, b) => a[1] - b[1])[0];
  if (weakest)
    signals.push(
      `Weakest part: "${partLabel(weakest[0])}" at ${Math.round(weakest[1])}/100 (${PART_QUESTION[weakest[0]]})`,
    );

  const unneeded = dim.id === 'agent' ? (run.necessity?.unnecessaryIds ?? []) : [];
  if (unneeded.length > 0) {
    const ids = unneeded.slice(0, 8).map((id) => `#${id}`);
    const more = unneeded.length > 8 ? ', …' : '';
    signals.push(
      `${unneeded.length === 1 ? '1 interaction was' : `${unneeded.length} interactions were`} not needed: ${ids.join(', ')}${more}`,
    );
  }

  const worst = dim.audits
    .map((a) => ({ a, low: lowest(a) }))
    .filter(
      (x): x is { a: (typeof dim.audits)[number]; low: [string, number] } => x.low !== null && x.low[1] < 1,
    )
    .sort((x, y) => x.low[1] - y.low[1] || x.a.interactionId - y.a.interactionId);
  for (const { a, low } of worst) {
    if (signals.length >= MAX_SIGNALS) break;
    const ix = byId.get(a.interactionId);
    const what = ix ? `Interaction #${ix.id} ${short(ix.label, 60)}` : `Interaction #${a.interactionId}`;
    const why = a.rationale ? `: ${short(a.rationale)}` : '';
    signals.push(`${what} scored ${toHundred(low[1])}/100 for "${partLabel(low[0])}"${why}`);
  }

  for (const p of run.patterns) {
    if (signals.length >= MAX_SIGNALS) break;
    const touches = p.interactionIds.some((id) => byId.get(id)?.categories.includes(dim.id));
    if (p.severity === 'high' && touches) signals.push(`Costly pattern: ${short(p.description)}`);
  }
  return signals;
}

function lowest(a: HtmlDimension['audits'][number]): [string, number] | null {
  let best: [string, number] | null = null;
  for (const f of AUDIT_FIELDS) {
    const v = a[f];
    if (typeof v === 'number' && (best === null || v < best[1])) best = [f, v];
  }
  return best;
}

function short(s: string, max = RATIONALE_CHARS): string {
  const flat = collapseSpaces(s).trim();
  // Closed here: the sentence goes on after the quoted text.
  return closeBidi(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
