/**
 * The signal registry and the step that turns signal values into audits, plus the list of what is
 * left for a judge (docs/scoring.md#signals).
 */
import type { Audit, AuditField, Category, ClassifiedInteraction, Pattern } from '../types.js';
import { repeatedCall } from './repeated-call.js';
import type { Signal, SignalMeta, SignalValue } from './signal.js';
import { speed } from './speed.js';
import { toolSuccess } from './tool-success.js';

export type { Signal, SignalMeta, SignalOutput, SignalValue } from './signal.js';

export const SIGNALS: readonly Signal[] = [toolSuccess, speed, repeatedCall];

/** Fields a judge is asked to fill per dimension unless a signal settled them. */
export const JUDGED_FIELDS: Readonly<Record<Category, readonly AuditField[]>> = {
  environment: ['success'],
  service: ['success'],
  agent: ['success', 'weight', 'relevance'],
};

export interface JudgeRequest {
  interactionId: number;
  category: Category;
  fields: AuditField[];
  /** Signal evidence worth showing the judge (ambiguous best guesses, patterns' hints). */
  hints: string[];
}

export interface SignalReport {
  results: Array<{ meta: SignalMeta; values: SignalValue[] }>;
  /** One audit per (signal value, dimension pool the interaction belongs to); `source: 'signal'`. */
  audits: Audit[];
  patterns: Pattern[];
  /** What still needs judgement, per interaction and dimension. Run-level necessity is always judged. */
  needsJudgement: JudgeRequest[];
}

/** Dimensions whose pool holds the interaction: its own categories, and always `agent`. */
export function poolsOf(ix: Pick<ClassifiedInteraction, 'categories'>): Category[] {
  const pools: Category[] = ix.categories.filter((c) => c !== 'agent');
  pools.push('agent');
  return pools;
}

export function evaluateSignals(
  interactions: readonly ClassifiedInteraction[],
  signals: readonly Signal[] = SIGNALS,
): SignalReport {
  const results: SignalReport['results'] = [];
  const patterns: Pattern[] = [];
  const byId = new Map<number, Array<{ field: AuditField; value: SignalValue }>>();
  for (const signal of signals) {
    const out = signal.evaluate(interactions);
    results.push({ meta: signal.meta, values: out.values });
    patterns.push(...out.patterns);
    const field = signal.meta.field;
    if (field === null) continue;
    for (const v of out.values) {
      const list = byId.get(v.interactionId);
      if (list) list.push({ field, value: v });
      else byId.set(v.interactionId, [{ field, value: v }]);
    }
  }

  const audits: Audit[] = [];
  const needsJudgement: JudgeRequest[] = [];
  const none: Array<{ field: AuditField; value: SignalValue }> = [];
  for (const ix of interactions) {
    const found = byId.get(ix.id) ?? none;
    // The hints and the settled fields are the same in every pool of the interaction.
    let hints: string[] | undefined;
    for (const category of poolsOf(ix)) {
      for (const { field, value } of found) {
        if (value.value === null) continue;
        const audit: Audit = {
          interactionId: ix.id,
          category,
          rationale: value.evidence,
          source: 'signal',
          unambiguous: value.unambiguous,
        };
        audit[field] = value.value;
        audits.push(audit);
      }
      // A field is left to the judge unless an unambiguous signal value settled it (a few values at most).
      const fields: AuditField[] = [];
      for (const f of JUDGED_FIELDS[category])
        if (!found.some((x) => x.field === f && x.value.unambiguous && x.value.value !== null))
          fields.push(f);
      if (fields.length > 0) {
        if (!hints) {
          hints = [];
          for (const x of found) if (!x.value.unambiguous) hints.push(`${x.field}: ${x.value.evidence}`);
        }
        needsJudgement.push({ interactionId: ix.id, category, fields, hints: hints.slice() });
      }
    }
  }
  return { results, audits, patterns, needsJudgement };
}
