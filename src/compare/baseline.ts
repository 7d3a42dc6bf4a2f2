/**
 * The baseline file model (`.axis/baselines/<name>.json`, docs/reports.md#baselines): built from report
 * data, merged across partial runs, written with a stable key order so a change reads well in a diff.
 * Pure: the file I/O is in baseline-store.ts.
 */
import * as z from 'zod';
import type { ReportManifest } from '../report/manifest.js';
import { AxisError } from '../util/errors.js';
import { METRICS, readPair, roundTo, sampleSd, type PairData } from './pair-data.js';
import { jsonErrorAt, parseJson } from '../util/json.js';

export const DEFAULT_BASELINE_NAME = 'main';
export const BASELINE_VERSION = 1;

export interface BaselinePair extends PairData {
  fromReportId: string;
  /** ISO time of the report the pair came from. */
  timestamp: string;
}

export interface Baseline {
  version: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  /** scenarioKey → agent name → pair. */
  results: Record<string, Record<string, BaselinePair>>;
}

/** A pair a report could not contribute, and why (failed, unscored, cancelled). */
export interface SkippedPair {
  scenarioKey: string;
  agentName: string;
  reason: string;
}

/** A (scenario, agent) pair by name. */
export interface PairName {
  scenarioKey: string;
  agentName: string;
}

export interface MergeOutcome {
  baseline: Baseline;
  /** Pairs written from the report. */
  merged: PairName[];
  skipped: SkippedPair[];
  /** Pairs of the existing baseline the report did not write, kept as they were (without `replace`). */
  kept: PairName[];
  /** Pairs of the existing baseline the new one no longer holds (with `replace`). */
  dropped: PairName[];
}

const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

/** Names become file names: 1-64 letters, digits, `.`, `_`, `-`, not starting with `.`. Exit 2 otherwise. */
export function validateBaselineName(name: string): string {
  if (!NAME.test(name) || name.includes('..'))
    throw new AxisError(
      `Invalid baseline name ${JSON.stringify(name)}: expected 1-64 letters, digits, ".", "_" or "-", not starting with "." (e.g. main, v1.0)`,
      { exitCode: 2 },
    );
  return name;
}

/**
 * Upserts every pair of `manifest` with a scored headline into `existing` (or a new baseline); pairs
 * the report does not hold are kept, so baselines accumulate across partial runs. With `replace` the
 * baseline becomes exactly the report's scored pairs (a removed scenario leaves it).
 */
export function mergeBaseline(
  existing: Baseline | undefined,
  manifest: Pick<ReportManifest, 'reportId' | 'timestamp' | 'results'>,
  name: string,
  now: Date,
  options: { replace?: boolean } = {},
): MergeOutcome {
  const results: Baseline['results'] = options.replace ? {} : structuredClone(existing?.results ?? {});
  const merged: MergeOutcome['merged'] = [];
  const skipped: SkippedPair[] = [];
  for (const e of manifest.results) {
    const read = readPair(e);
    if (!read.ok) {
      skipped.push({
        scenarioKey: e.scenarioKey,
        agentName: e.agentName,
        reason: `${read.why}: ${read.reason}`,
      });
      continue;
    }
    // Own properties only: `??=` found Object.prototype.constructor for a scenario named "constructor".
    if (!Object.hasOwn(results, e.scenarioKey)) results[e.scenarioKey] = {};
    results[e.scenarioKey]![e.agentName] = {
      ...read.data,
      fromReportId: manifest.reportId,
      timestamp: manifest.timestamp,
    };
    merged.push({ scenarioKey: e.scenarioKey, agentName: e.agentName });
  }
  const stamp = now.toISOString();
  const written = new Set(merged.map(pairId));
  const before = pairNames(existing?.results ?? {}).filter((p) => !written.has(pairId(p)));
  return {
    baseline: {
      version: BASELINE_VERSION,
      name,
      createdAt: existing?.createdAt ?? stamp,
      updatedAt: merged.length > 0 || !existing ? stamp : existing.updatedAt,
      results,
    },
    merged,
    skipped,
    kept: options.replace ? [] : before,
    dropped: options.replace ? before : [],
  };
}

function pairId(p: PairName): string {
  return JSON.stringify([p.scenarioKey, p.agentName]);
}

function pairNames(results: Baseline['results']): PairName[] {
  return Object.entries(results).flatMap(([scenarioKey, agents]) =>
    Object.keys(agents).map((agentName) => ({ scenarioKey, agentName })),
  );
}

const PAIR_KEYS = [
  'axisScore',
  'goalAchievement',
  'environment',
  'service',
  'agent',
  'durationMs',
  'tokens',
  'reliability',
  'runs',
  'sigma',
  'samples',
  'fromReportId',
  'timestamp',
] as const;

/** Pretty JSON + newline; keys in a fixed order, scenarios and agents sorted, samples on one line each. */
export function serializeBaseline(b: Baseline): string {
  const results: Record<string, Record<string, unknown>> = {};
  for (const key of Object.keys(b.results).sort()) {
    const agents: Record<string, unknown> = {};
    for (const agent of Object.keys(b.results[key]!).sort())
      agents[agent] = orderedPair(b.results[key]![agent]!);
    results[key] = agents;
  }
  const doc = { version: b.version, name: b.name, createdAt: b.createdAt, updatedAt: b.updatedAt, results };
  // Number arrays (samples) on one line: a rerun changes one line per metric in a diff, not one per run.
  const text = JSON.stringify(doc, null, 2).replace(
    /\[\s*(-?\d[\d.e+-]*(?:,\s*-?\d[\d.e+-]*)*)\s*\]/g,
    (_, items: string) => `[${items.split(/,\s*/).join(', ')}]`,
  );
  return `${text}\n`;
}

function orderedPair(p: BaselinePair): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of PAIR_KEYS) {
    if (p[k] === undefined) continue;
    if (k === 'samples') {
      const samples: Record<string, number[]> = {};
      for (const m of METRICS) if (p.samples![m.id]) samples[m.id] = p.samples![m.id]!;
      out.samples = samples;
    } else out[k] = p[k];
  }
  return out;
}

/**
 * The baseline file's schema, built at its first use: a run with no baseline never reads one, and
 * zod's objects cost their construction at module load (a few ms of every `axis run`'s start).
 */
let schema: ReturnType<typeof buildBaselineSchema> | undefined;
const baselineSchema = () => (schema ??= buildBaselineSchema());

function buildBaselineSchema() {
  const num = z.number().finite();
  const score = num.min(0).max(100);
  const count = num.min(0).max(Number.MAX_SAFE_INTEGER);
  const pairSchema = z.object({
    axisScore: score,
    goalAchievement: score.nullable(),
    environment: score.nullable(),
    service: score.nullable(),
    agent: score.nullable(),
    durationMs: num.min(0),
    tokens: num.min(0),
    // Upstream (netlify/axis) baselines have no reliability, runs or samples: one run, fully reliable.
    // Never null: a scored pair has one, and null would switch the reliability check off.
    reliability: num.min(0).max(1).default(1),
    runs: z.number().int().min(1).default(1),
    sigma: num.min(0).optional(),
    // Each metric's values in its own range: out-of-range ones made the t-test NaN (p=NaN).
    samples: z
      .object({
        axisScore: z.array(score),
        goalAchievement: z.array(score),
        environment: z.array(score),
        service: z.array(score),
        agent: z.array(score),
        durationMs: z.array(count),
        tokens: z.array(count),
      })
      .partial()
      .strict()
      .optional(),
    fromReportId: z.string(),
    timestamp: z.string(),
  });
  return z.object({
    version: z
      .number()
      .int()
      .min(1)
      .refine((v) => v <= BASELINE_VERSION, {
        error: (i) =>
          `format ${String(i.input)} is newer than this AXIS reads (${BASELINE_VERSION}); upgrade AXIS, or set the baseline again with this one`,
      })
      .default(BASELINE_VERSION),
    name: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    results: z.record(z.string(), z.record(z.string(), pairSchema.superRefine(sigmaMatchesSamples))),
  });
}

/** The band widens to 2σ: a σ its own samples do not bear out would widen it on trust. */
function sigmaMatchesSamples(
  p: { sigma?: number; samples?: { axisScore?: number[] } },
  ctx: z.RefinementCtx,
) {
  const values = p.samples?.axisScore;
  if (p.sigma === undefined) return;
  // `set` writes σ only beside the runs it was measured on; alone it cannot be checked.
  if (!values || values.length < 2) {
    ctx.addIssue({
      code: 'custom',
      path: ['sigma'],
      message: `${p.sigma} has no samples.axisScore of 2 or more runs to bear it out; remove sigma or re-run \`axis baseline set\``,
    });
    return;
  }
  const measured = roundTo(sampleSd(values), 2);
  if (Math.abs(p.sigma - measured) > 0.011)
    ctx.addIssue({
      code: 'custom',
      path: ['sigma'],
      message: `${p.sigma} does not match the spread of samples.axisScore (σ ${measured}); remove sigma or re-run \`axis baseline set\``,
    });
}

/** Parses a baseline file; a broken one is an AxisError naming the file and the field (exit 2). */
export function parseBaseline(text: string, file: string): Baseline {
  let raw: unknown;
  try {
    raw = parseJson(text);
  } catch (err) {
    throw new AxisError(`${file}: not valid JSON ${jsonErrorAt(err)}`, {
      exitCode: 2,
    });
  }
  const parsed = baselineSchema().safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues
      .slice(0, 5)
      .map((i) => `  ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new AxisError(`${file}: not an AXIS baseline:\n${lines.join('\n')}`, { exitCode: 2 });
  }
  return parsed.data as Baseline;
}
