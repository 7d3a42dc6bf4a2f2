/**
 * What each judge must answer, as zod schemas, plus the completeness rules a schema cannot express
 * (one grade per criterion, one audit per interaction asked about). A failed check is shown to the judge
 * in the one repair attempt.
 */
import * as z from 'zod';
import { eachJsonCandidate, isObject } from './extract.js';

/** Numbers may arrive as numeric strings ("0.8"); anything else stays as is and fails validation. */
const num = (min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    z.number().min(min).max(max),
  );
const id = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*#?\d+\s*$/.test(v) ? Number(v.replace('#', '')) : v),
    z.number().int().min(0),
  );
const rationale = () => z.string().default('');

export const goalAnswerSchema = z.object({
  grades: z.array(z.object({ criterion_index: id(), score: num(0, 10), rationale: rationale() })),
});
export type GoalAnswer = z.infer<typeof goalAnswerSchema>;

const severity = z.preprocess(
  (v) => (typeof v === 'string' ? v.toLowerCase() : v),
  z.enum(['low', 'medium', 'high']).catch('medium'),
);
const patternKind = z.preprocess(
  (v) => (typeof v === 'string' ? v.toLowerCase() : v),
  z.enum(['retry', 'redundancy', 'waste', 'other']).catch('other'),
);
const patternSchema = z.object({
  kind: patternKind.optional(),
  description: z.string().min(1),
  interactionIds: z.array(id()).default([]),
  severity: severity.optional(),
});
export type PatternAnswer = z.infer<typeof patternSchema>;

export const categoryAnswerSchema = z.object({
  audits: z.array(z.object({ id: id(), success: num(0, 1), rationale: rationale() })),
});
export type CategoryAnswer = z.infer<typeof categoryAnswerSchema>;

const agentAudit = z.preprocess(
  // Upstream AXIS called relevance `contextRelevance`; judges prompted elsewhere may still use it.
  (v) =>
    v && typeof v === 'object' && !('relevance' in v) && 'contextRelevance' in v
      ? { ...v, relevance: (v as Record<string, unknown>).contextRelevance }
      : v,
  z.object({
    id: id(),
    success: num(0, 1).optional(),
    weight: num(0, 1),
    relevance: num(0, 1),
    rationale: rationale(),
  }),
);

export const agentAnswerSchema = z.object({
  audits: z.array(agentAudit),
  necessity: z.object({
    score: num(0, 1),
    unnecessaryIds: z.array(id()).default([]),
    rationale: rationale(),
  }),
  patterns: z.array(patternSchema).default([]),
});
export type AgentAnswer = z.infer<typeof agentAnswerSchema>;

/** One kind of judge question: its schema and what a complete answer must contain. */
export interface AnswerSpec<T> {
  name: string;
  schema: z.ZodType<T>;
  /** Problems a schema cannot see (missing grades or audits); empty when complete. */
  completeness(value: T): string[];
  /**
   * Audit answers: the ids asked about. Audits of other ids are still validated (an invalid one fails
   * the answer, as before) but left out of the value: nothing may use them.
   */
  asked?: ReadonlySet<number>;
}

export function goalSpec(indices: readonly number[]): AnswerSpec<GoalAnswer> {
  return {
    name: 'goal',
    schema: goalAnswerSchema,
    completeness: (v) =>
      missing(
        'criterion_index',
        indices,
        v.grades.map((g) => g.criterion_index),
      ),
  };
}

export function categorySpec(name: string, ids: readonly number[]): AnswerSpec<CategoryAnswer> {
  return {
    name,
    asked: new Set(ids),
    schema: categoryAnswerSchema,
    completeness: (v) =>
      missing(
        'id',
        ids,
        v.audits.map((a) => a.id),
      ),
  };
}

export function agentSpec(ids: readonly number[], successIds: readonly number[]): AnswerSpec<AgentAnswer> {
  return {
    name: 'agent',
    asked: new Set(ids),
    schema: agentAnswerSchema,
    completeness: (v) => {
      const problems = missing(
        'id',
        ids,
        v.audits.map((a) => a.id),
      );
      const asked = new Set(ids);
      const withSuccess = new Set(v.audits.filter((a) => a.success !== undefined).map((a) => a.id));
      const noSuccess = successIds.filter((i) => asked.has(i) && !withSuccess.has(i));
      if (noSuccess.length > 0 && problems.length === 0)
        problems.push(`audits without "success" for ids ${list(noSuccess)}`);
      return problems;
    },
  };
}

export type Validation<T> = { ok: true; value: T; incomplete: string[] } | { ok: false; error: string };

/**
 * Validates a judge's text. A reply that is one JSON object is that object. Otherwise every candidate
 * that passes the schema is kept, and the answer is refused when they differ: the judge may quote a
 * schema-shaped object from the run it grades (an agent can print one to fool it), and neither the first
 * nor the last can be trusted to be the judge's own. The caller's repair asks for one object only.
 * `incomplete` lists missing grades or audits (the answer is still usable; the caller decides whether
 * to ask again).
 */
export function validateAnswer<T>(text: string, spec: AnswerSpec<T>): Validation<T> {
  let firstError: string | undefined;
  let any = false;
  // Fitting candidates; compared as JSON only once there is a second (a whole-text answer has one).
  const valid: T[] = [];
  for (const candidate of eachJsonCandidate(text)) {
    any = true;
    const parsed = parseAnswer(spec.schema, candidate, spec.asked);
    if (parsed.success) valid.push(parsed.data);
    else firstError ??= formatIssues(parsed.error);
  }
  const distinct = valid.length > 1 ? new Set(valid.map((v) => JSON.stringify(v))).size : valid.length;
  if (distinct > 1) return { ok: false, error: ambiguous(distinct) };
  const value = valid[0];
  if (value !== undefined) return { ok: true, value, incomplete: spec.completeness(value) };
  if (!any) return { ok: false, error: 'the answer contains no JSON object' };
  return { ok: false, error: firstError ?? 'invalid answer' };
}

function ambiguous(n: number): string {
  return `the answer holds ${n} different JSON objects in the asked format, so which one is the verdict is unclear (a quoted example or a quote from the run counts too)`;
}

/**
 * `schema.safeParse`, with an answer's `audits` list checked by hand when every audit in it is plainly
 * valid (integer id, numbers in range, string or absent rationale, no renamed field): the same value
 * zod gives, at a fraction of the cost for answers with thousands of audits. A goal answer's grades, and
 * an agent answer's necessity when it has no patterns, are checked the same way. Anything else (numeric
 * strings, `#12` ids, `contextRelevance`, out-of-range values) is left to zod, so errors never differ.
 * With `asked`, audits of other ids are validated but not kept.
 */
function parseAnswer<T>(schema: z.ZodType<T>, candidate: unknown, asked?: ReadonlySet<number>) {
  const c = candidate as Record<string, unknown>;
  if (schema === (goalAnswerSchema as z.ZodType)) {
    const plain = plainGoal(c);
    if (plain) return { success: true as const, data: plain as T };
    return schema.safeParse(candidate);
  }
  const kind =
    schema === (agentAnswerSchema as z.ZodType)
      ? 'agent'
      : schema === (categoryAnswerSchema as z.ZodType)
        ? 'category'
        : null;
  const audits =
    kind !== null && Array.isArray(c.audits) ? plainAudits(c.audits, kind === 'agent', asked) : undefined;
  if (audits && kind === 'agent') {
    const rest = plainAgentRest(c);
    if (rest) return { success: true as const, data: { audits, ...rest } as T };
  }
  const rest = audits ? schema.safeParse({ ...c, audits: [] }) : undefined;
  if (audits && rest?.success) {
    (rest.data as { audits: unknown[] }).audits = audits;
    return rest;
  }
  const full = schema.safeParse(candidate);
  if (full.success && asked && kind !== null) {
    const data = full.data as { audits: Array<{ id: number }> };
    data.audits = data.audits.filter((a) => asked.has(a.id));
  }
  return full;
}

/** What zod's `id()` accepts without its string forms ("3", "#3"): those go to zod. */
const plainId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const inRange = (v: unknown, max: number): v is number => typeof v === 'number' && v >= 0 && v <= max;

/**
 * A goal answer whose grades are plainly valid (integer indices, numeric scores in range, string or
 * absent rationales): zod's value for it, built by hand (zod's parse was ~50 µs of a short job's two
 * questions). Anything else returns undefined and goes to zod.
 */
function plainGoal(c: unknown): GoalAnswer | undefined {
  if (!isObject(c) || !Array.isArray(c.grades)) return undefined;
  const grades: GoalAnswer['grades'] = [];
  for (const g of c.grades as unknown[]) {
    if (!isObject(g)) return undefined;
    const { criterion_index, score, rationale } = g;
    if (!plainId(criterion_index) || !inRange(score, 10)) return undefined;
    if (rationale !== undefined && typeof rationale !== 'string') return undefined;
    grades.push({ criterion_index, score, rationale: rationale ?? '' });
  }
  return { grades };
}

/** An agent answer's necessity and patterns, by hand when plainly valid and no pattern is given. */
function plainAgentRest(c: Record<string, unknown>): Omit<AgentAnswer, 'audits'> | undefined {
  const { necessity, patterns } = c;
  if (patterns !== undefined && !(Array.isArray(patterns) && patterns.length === 0)) return undefined;
  if (!isObject(necessity)) return undefined;
  const { score, unnecessaryIds, rationale } = necessity;
  if (!unit(score)) return undefined;
  if (rationale !== undefined && typeof rationale !== 'string') return undefined;
  if (unnecessaryIds !== undefined && !(Array.isArray(unnecessaryIds) && unnecessaryIds.every(plainId)))
    return undefined;
  return {
    necessity: {
      score,
      unnecessaryIds: unnecessaryIds ? [...unnecessaryIds] : [],
      rationale: rationale ?? '',
    },
    patterns: [],
  };
}

const unit = (v: unknown): v is number => inRange(v, 1);

function plainAudits(list: unknown[], agent: boolean, asked?: ReadonlySet<number>): unknown[] | undefined {
  const out: unknown[] = [];
  for (const item of list) {
    if (!isObject(item)) return undefined;
    const a = item;
    const { id, success, rationale } = a;
    if (!plainId(id)) return undefined;
    if (rationale !== undefined && typeof rationale !== 'string') return undefined;
    if (!agent) {
      if (!unit(success)) return undefined;
      if (!asked || asked.has(id)) out.push({ id, success, rationale: rationale ?? '' });
      continue;
    }
    const { weight, relevance } = a;
    if (!('relevance' in a) || !unit(weight) || !unit(relevance)) return undefined;
    if (success !== undefined && !unit(success)) return undefined;
    if (asked && !asked.has(id)) continue;
    out.push(
      success === undefined
        ? { id, weight, relevance, rationale: rationale ?? '' }
        : { id, success, weight, relevance, rationale: rationale ?? '' },
    );
  }
  return out;
}

function formatIssues(error: z.ZodError): string {
  const lines = error.issues.slice(0, 8).map((i) => {
    const path = i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    return `${path.replace(/^\./, '') || '(root)'}: ${i.message}`;
  });
  if (error.issues.length > 8) lines.push(`… and ${error.issues.length - 8} more problems`);
  return lines.join('; ');
}

function missing(field: string, expected: readonly number[], got: readonly number[]): string[] {
  const have = new Set(got);
  const absent = expected.filter((e) => !have.has(e));
  return absent.length > 0 ? [`missing entries for ${field} ${list(absent)}`] : [];
}

function list(ids: readonly number[]): string {
  return ids.length > 20 ? `${ids.slice(0, 20).join(', ')}, … (${ids.length} in all)` : ids.join(', ');
}
