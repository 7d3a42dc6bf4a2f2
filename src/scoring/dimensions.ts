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
  // One pass, the fields by name (a keyed load per field and audit cost as much as the merge).
  const lists: Record<AuditField, number[]> = { success: [], speed: [], weight: [], relevance: [] };
  let auditedCount = 0;
  let judgedCount = 0;
  for (const a of audits) {
    if (a.success !== undefined) lists.success.push(a.success);
    if (a.speed !== undefined) lists.speed.push(a.speed);
    if (a.weight !== undefined) lists.weight.push(a.weight);
    if (a.relevance !== undefined) lists.relevance.push(a.relevance);
    if (a.source !== 'default') auditedCount++;
    if (a.source === 'judge') judgedCount++;
  }
  for (const field of AUDIT_FIELDS) values[field] = severityWeightedMean(lists[field]);
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
  return pool.map((ix) => {
    const found = byId.get(ix.id);
    if (found === undefined) return unaudited(ix.id, category);
    return found.length === 1 ? fromOne(ix.id, category, found[0]!) : fromMany(ix.id, category, found);
  });
}

/** An interaction no audit speaks of. */
function unaudited(interactionId: number, category: Category): Audit {
  return { interactionId, category, rationale: 'not audited', source: 'default' };
}

/**
 * fromMany for the common single candidate (most interactions have one audit per dimension): the
 * same audit, with the same key order, without the candidate arrays; the fields by name, since a
 * keyed load over AUDIT_FIELDS was a fifth of the 20 MB run's dimension time.
 */
function fromOne(interactionId: number, category: Category, a: Audit): Audit {
  const merged: Audit = { interactionId, category, rationale: '', source: 'default' };
  let picked = false;
  if (a.success !== undefined) {
    merged.success = a.success;
    picked = true;
  }
  if (a.speed !== undefined) {
    merged.speed = a.speed;
    picked = true;
  }
  if (a.weight !== undefined) {
    merged.weight = a.weight;
    picked = true;
  }
  if (a.relevance !== undefined) {
    merged.relevance = a.relevance;
    picked = true;
  }
  if (picked && a.source !== 'default') {
    merged.source = a.source;
    const from = a.source;
    const fieldSources: Partial<Record<AuditField, 'signal' | 'judge'>> = {};
    if (a.success !== undefined) fieldSources.success = from;
    if (a.speed !== undefined) fieldSources.speed = from;
    if (a.weight !== undefined) fieldSources.weight = from;
    if (a.relevance !== undefined) fieldSources.relevance = from;
    merged.fieldSources = fieldSources;
  }
  merged.rationale = picked && a.rationale !== '' ? a.rationale : 'not audited';
  creditSpeedBySuccess(merged);
  return merged;
}

const rank = (a: Audit): number =>
  a.source === 'signal' ? (a.unambiguous ? 0 : 2) : a.source === 'judge' ? 1 : 3;

function fromMany(interactionId: number, category: Category, found: readonly Audit[]): Audit {
  // Two candidates (a signal's and a judge's audit) is the usual case: ordered without a sort.
  const candidates =
    found.length === 2
      ? rank(found[1]!) < rank(found[0]!)
        ? [found[1]!, found[0]!]
        : found
      : found.slice().sort((a, b) => rank(a) - rank(b));
  // Per field, the first candidate (by rank) that has it; one pass, the fields by name.
  let success: Audit | undefined;
  let speed: Audit | undefined;
  let weight: Audit | undefined;
  let relevance: Audit | undefined;
  for (const a of candidates) {
    if (success === undefined && a.success !== undefined) success = a;
    if (speed === undefined && a.speed !== undefined) speed = a;
    if (weight === undefined && a.weight !== undefined) weight = a;
    if (relevance === undefined && a.relevance !== undefined) relevance = a;
  }
  const merged: Audit = { interactionId, category, rationale: '', source: 'default' };
  const fieldSources: Partial<Record<AuditField, 'signal' | 'judge'>> = {};
  const used: Audit[] = [];
  let judged = false;
  let signalled = false;
  const take = (field: AuditField, pick: Audit) => {
    if (pick.source !== 'default') {
      fieldSources[field] = pick.source;
      if (pick.source === 'judge') judged = true;
      else signalled = true;
    }
    if (!used.includes(pick)) used.push(pick);
  };
  if (success) {
    merged.success = success.success!;
    take('success', success);
  }
  if (speed) {
    merged.speed = speed.speed!;
    take('speed', speed);
  }
  if (weight) {
    merged.weight = weight.weight!;
    take('weight', weight);
  }
  if (relevance) {
    merged.relevance = relevance.relevance!;
    take('relevance', relevance);
  }
  merged.source = judged ? 'judge' : signalled ? 'signal' : 'default';
  if (judged || signalled) merged.fieldSources = fieldSources;
  merged.rationale = rationaleOf(used);
  creditSpeedBySuccess(merged);
  return merged;
}

/** The distinct rationales of the audits a merge used, in the order it used them. */
function rationaleOf(used: readonly Audit[]): string {
  let out = '';
  for (let k = 0; k < used.length; k++) {
    const r = used[k]!.rationale;
    if (r === '') continue;
    let seen = false;
    for (let j = 0; j < k; j++) if (used[j]!.rationale === r) seen = true;
    if (!seen) out = out === '' ? r : `${out}; ${r}`;
  }
  return out === '' ? 'not audited' : out;
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
  const covered = coveredBy(category, pool, audits, fields);
  const all = (1 << fields.length) - 1;
  const lacking: number[][] = fields.map(() => []);
  const lackingCount: number[] = fields.map(() => 0);
  // One pass; a plain loop, as this runs once per dimension over a long run's pool in V8's first tiers.
  for (let i = 0; i < pool.length; i++) {
    const id = pool[i]!.id;
    const got = covered.dense ? (covered.dense[id] ?? 0) : (covered.sparse.get(id) ?? 0);
    if (got === all) continue;
    for (let k = 0; k < fields.length; k++) {
      if ((got & (1 << k)) !== 0) continue;
      if (lackingCount[k]! < 10) lacking[k]!.push(id);
      lackingCount[k]!++;
    }
  }
  const out: string[] = [];
  fields.forEach((f, k) => {
    const n = lackingCount[k]!;
    if (n === 0) return;
    const shown = lacking[k]!.map((id) => `#${id}`);
    out.push(
      `no ${f} verdict for ${n} of ${pool.length} interactions (${shown.join(', ')}${n > 10 ? ', …' : ''})`,
    );
  });
  return out;
}

/** Per interaction id, a bit per field (`fields[k]` is bit k) for the fields some audit gives a verdict on. */
type Coverage =
  { dense: Uint8Array; sparse?: undefined } | { dense?: undefined; sparse: Map<number, number> };

/**
 * Which fields each interaction has a verdict for. Interaction ids are small integers from 1, so the
 * bits are kept in an array indexed by id (a set of ids per field cost a tenth of a long run's
 * dimension time); any other id falls back to a map. The fields are read by name: a keyed load per
 * field and audit was most of this function on a long run.
 */
function coveredBy(
  category: Category,
  pool: readonly ClassifiedInteraction[],
  audits: readonly Audit[],
  fields: readonly AuditField[],
): Coverage {
  const bit = (f: AuditField) => (fields.includes(f) ? 1 << fields.indexOf(f) : 0);
  const [bSuccess, bSpeed, bWeight, bRelevance] = [
    bit('success'),
    bit('speed'),
    bit('weight'),
    bit('relevance'),
  ];
  let maxId = 0;
  for (const ix of pool) maxId = Number.isInteger(ix.id) && ix.id >= 0 ? Math.max(maxId, ix.id) : Infinity;
  const dense = maxId <= 4 * pool.length + 1024 ? new Uint8Array(maxId + 1) : undefined;
  const sparse = new Map<number, number>();
  for (let i = 0; i < audits.length; i++) {
    const a = audits[i]!;
    if (a.category !== category || (a.source === 'signal' && a.unambiguous !== true)) continue;
    const got =
      (a.success !== undefined ? bSuccess : 0) |
      (a.speed !== undefined ? bSpeed : 0) |
      (a.weight !== undefined ? bWeight : 0) |
      (a.relevance !== undefined ? bRelevance : 0);
    if (got === 0) continue;
    const id = a.interactionId;
    if (!dense) sparse.set(id, (sparse.get(id) ?? 0) | got);
    else if (id >= 0 && id <= maxId) dense[id]! |= got;
  }
  return dense ? { dense } : { sparse };
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
