/**
 * Environment, service and agent dimension scores from per-interaction audits
 * (docs/scoring.md#dimensions). Audits come from the signals and, for what needs judgement, from judges;
 * this module merges them, aggregates each sub-dimension with severity weighting and calibrates.
 */
import { severityWeightedMean, weightedMean } from './aggregate.js';
import { DEFAULT_CALIBRATION, mapScore, percent, type CalibrationParams } from './calibration.js';
import type {
  Audit,
  AuditField,
  Category,
  ClassifiedInteraction,
  DimensionScore,
  Necessity,
  SubScores,
} from './types.js';
import { AUDIT_FIELDS } from './types.js';

export type SubDimension = keyof SubScores;

export const SUB_WEIGHTS: Readonly<Record<Category, Readonly<Record<SubDimension, number>>>> = {
  environment: { success: 0.7, speed: 0.3, weight: 0, relevance: 0, necessity: 0 },
  service: { success: 0.7, speed: 0.3, weight: 0, relevance: 0, necessity: 0 },
  agent: { necessity: 0.4, relevance: 0.2, weight: 0.2, success: 0.1, speed: 0.1 },
};

/** Sub-dimensions that may go unmeasured (no durations); their weight then goes to the others. */
const OPTIONAL: ReadonlySet<SubDimension> = new Set(['speed']);
const SUB_ORDER: readonly SubDimension[] = ['success', 'speed', 'weight', 'relevance', 'necessity'];

export interface DimensionInputs {
  interactions: readonly ClassifiedInteraction[];
  /** Signal audits (evaluateSignals) and judge audits, any order. */
  audits: readonly Audit[];
  /** The agent judge's run-level verdict; without it the agent dimension is unscored. */
  necessity?: Necessity | null;
  calibration?: CalibrationParams;
}

export function scoreDimensions(inputs: DimensionInputs): Record<Category, DimensionScore> {
  return {
    environment: scoreDimension('environment', inputs),
    service: scoreDimension('service', inputs),
    agent: scoreDimension('agent', inputs),
  };
}

export function scoreDimension(category: Category, inputs: DimensionInputs): DimensionScore {
  // poolsOf(ix) is ix's categories without `agent`, plus `agent`: tested without building the list.
  const pool =
    category === 'agent'
      ? inputs.interactions.slice()
      : inputs.interactions.filter((ix) => ix.categories.includes(category));
  if (pool.length === 0) return notApplicable();
  // The agent dimension is decision quality across the agent's tool calls: with none, nothing to audit.
  if (category === 'agent' && !pool.some((ix) => ix.type === 'tool')) return notApplicable();

  const audits = mergeAudits(category, pool, inputs.audits);
  const values: Record<SubDimension, number | null> = {
    success: null,
    speed: null,
    weight: null,
    relevance: null,
    necessity: null,
  };
  for (const field of AUDIT_FIELDS) {
    const list: number[] = [];
    for (const a of audits) if (a[field] !== undefined) list.push(a[field]!);
    values[field] = severityWeightedMean(list);
  }
  if (category === 'agent' && inputs.necessity) values.necessity = checkNecessity(inputs.necessity).score;

  const weights = SUB_WEIGHTS[category];
  const missing = SUB_ORDER.filter((s) => weights[s] > 0 && values[s] === null && !OPTIONAL.has(s));
  const dimensions: SubScores = {
    success: null,
    speed: null,
    weight: null,
    relevance: null,
    necessity: null,
  };
  for (const s of SUB_ORDER) if (weights[s] > 0 && values[s] !== null) dimensions[s] = percent(values[s]!);

  const auditedCount = audits.filter((a) => a.source !== 'default').length;
  const judgedCount = audits.filter((a) => a.source === 'judge').length;
  const base = {
    notApplicable: false,
    dimensions,
    audits,
    interactionCount: pool.length,
    auditedCount,
    judgedCount,
  };
  if (missing.length > 0)
    return { ...base, score: null, raw: null, unscoredReason: `no verdict for ${missing.join(', ')}` };
  const uncovered = uncoveredFields(category, pool, inputs.audits);
  if (uncovered.length > 0) return { ...base, score: null, raw: null, unscoredReason: uncovered.join('; ') };

  const raw = weightedMean(SUB_ORDER.map((s) => ({ value: values[s], weight: weights[s] })))!;
  return { ...base, score: mapScore(raw, inputs.calibration ?? DEFAULT_CALIBRATION), raw };
}

/**
 * One audit per pool interaction. Per field the value comes from, in order: an unambiguous signal, a
 * judge, an ambiguous signal (its best guess), a caller-supplied default. First audit wins within a rank.
 */
export function mergeAudits(
  category: Category,
  pool: readonly ClassifiedInteraction[],
  audits: readonly Audit[],
): Audit[] {
  const byId = new Map<number, Audit[]>();
  for (const a of audits) {
    if (a.category !== category) continue;
    checkAudit(a);
    const list = byId.get(a.interactionId);
    if (list) list.push(a);
    else byId.set(a.interactionId, [a]);
  }
  const rank = (a: Audit): number =>
    a.source === 'signal' ? (a.unambiguous ? 0 : 2) : a.source === 'judge' ? 1 : 3;

  return pool.map((ix) => {
    const found = byId.get(ix.id) ?? [];
    const candidates = found.length < 2 ? found : found.slice().sort((a, b) => rank(a) - rank(b));
    const merged: Audit = { interactionId: ix.id, category, rationale: '', source: 'default' };
    const fieldSources: Partial<Record<AuditField, 'signal' | 'judge'>> = {};
    const used: Audit[] = [];
    let judged = false;
    let signalled = false;
    for (const field of AUDIT_FIELDS) {
      let pick: Audit | undefined;
      for (const a of candidates)
        if (a[field] !== undefined) {
          pick = a;
          break;
        }
      if (!pick) continue;
      merged[field] = pick[field]!;
      if (pick.source !== 'default') {
        fieldSources[field] = pick.source;
        if (pick.source === 'judge') judged = true;
        else signalled = true;
      }
      if (!used.includes(pick)) used.push(pick);
    }
    merged.source = judged ? 'judge' : signalled ? 'signal' : 'default';
    if (judged || signalled) merged.fieldSources = fieldSources;
    const said = used.filter((a) => a.rationale !== '');
    merged.rationale =
      said.length === 0
        ? 'not audited'
        : said.length === 1
          ? said[0]!.rationale
          : [...new Set(said.map((a) => a.rationale))].join('; ');
    creditSpeedBySuccess(merged);
    return merged;
  });
}

/**
 * A failed call earns no speed credit: speed counts in proportion to success (a fast failure is not fast
 * work), so a dimension whose every call failed scores about 0, not the speed share.
 */
function creditSpeedBySuccess(a: Audit): void {
  if (a.speed === undefined || a.success === undefined || a.success >= 1) return;
  const credited = a.speed * a.success;
  // People read 0–100 everywhere (terminal, HTML); the values themselves stay 0–1.
  const pct = (v: number) => Math.round(v * 100);
  a.rationale += `; speed ${pct(a.speed)}/100 counts as ${pct(credited)}/100 because it worked ${pct(a.success)}/100 (failed work earns no speed credit)`;
  a.speed = credited;
}

/**
 * Complete coverage: every pool interaction needs each weighted field from a judge, an unambiguous signal
 * or a caller default. A signal's best guess does not count: it stands in only for display.
 */
function uncoveredFields(
  category: Category,
  pool: readonly ClassifiedInteraction[],
  audits: readonly Audit[],
): string[] {
  const fields = AUDIT_FIELDS.filter((f) => SUB_WEIGHTS[category][f] > 0 && !OPTIONAL.has(f));
  const covered = new Map<AuditField, Set<number>>(fields.map((f) => [f, new Set<number>()]));
  for (const a of audits) {
    if (a.category !== category || (a.source === 'signal' && !a.unambiguous)) continue;
    for (const f of fields) if (a[f] !== undefined) covered.get(f)!.add(a.interactionId);
  }
  const out: string[] = [];
  for (const f of fields) {
    const lacking = pool.filter((ix) => !covered.get(f)!.has(ix.id)).map((ix) => `#${ix.id}`);
    if (lacking.length > 0)
      out.push(
        `no ${f} verdict for ${lacking.length} of ${pool.length} interactions (${lacking.slice(0, 10).join(', ')}${lacking.length > 10 ? ', …' : ''})`,
      );
  }
  return out;
}

function notApplicable(): DimensionScore {
  return {
    score: null,
    notApplicable: true,
    raw: null,
    dimensions: { success: null, speed: null, weight: null, relevance: null, necessity: null },
    audits: [],
    interactionCount: 0,
    auditedCount: 0,
    judgedCount: 0,
  };
}

function checkAudit(a: Audit): void {
  for (const field of AUDIT_FIELDS) {
    const v = a[field];
    if (v !== undefined && (!Number.isFinite(v) || v < 0 || v > 1))
      throw new RangeError(
        `audit of interaction #${a.interactionId} (${a.category}, ${a.source}): ${field} must be between 0 and 1, found ${v}`,
      );
  }
}

function checkNecessity(n: Necessity): Necessity {
  if (!Number.isFinite(n.score) || n.score < 0 || n.score > 1)
    throw new RangeError(`necessity.score must be between 0 and 1, found ${n.score}`);
  return n;
}
