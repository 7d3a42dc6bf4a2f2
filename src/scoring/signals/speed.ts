/**
 * speed: how long each interaction took, in buckets per category (docs/scoring.md#speed).
 * An interaction without a measured duration is "not measured" (null), never a free 1.0.
 */
import type { Category, ClassifiedInteraction } from '../types.js';
import type { Signal, SignalValue } from './signal.js';

export interface SpeedBucket {
  /** Inclusive upper bound in ms. */
  maxMs: number;
  score: number;
}

/** Thresholds are inclusive; slower than the last bucket scores SLOWEST. */
export const SPEED_BUCKETS: Readonly<Record<Category, readonly SpeedBucket[]>> = {
  service: [
    { maxMs: 2_000, score: 1 },
    { maxMs: 5_000, score: 0.9 },
    { maxMs: 10_000, score: 0.8 },
    { maxMs: 25_000, score: 0.6 },
  ],
  environment: [
    { maxMs: 500, score: 1 },
    { maxMs: 2_000, score: 0.9 },
    { maxMs: 5_000, score: 0.8 },
    { maxMs: 10_000, score: 0.6 },
  ],
  agent: [
    { maxMs: 2_000, score: 1 },
    { maxMs: 5_000, score: 0.9 },
    { maxMs: 15_000, score: 0.8 },
    { maxMs: 30_000, score: 0.6 },
  ],
};
export const SLOWEST = 0.4;

/** Which bucket table applies: service first, then environment, else agent. */
export function speedCategory(categories: readonly Category[]): Category {
  if (categories.includes('service')) return 'service';
  if (categories.includes('environment')) return 'environment';
  return 'agent';
}

export function speedScore(durationMs: number, category: Category): number {
  for (const b of SPEED_BUCKETS[category]) if (durationMs <= b.maxMs) return b.score;
  return SLOWEST;
}

export const speed: Signal = {
  meta: {
    id: 'speed',
    title: 'Interactions are fast',
    failureTitle: 'Interactions are slow',
    description:
      'Duration of each interaction scored by per-category buckets (service, environment, agent); ' +
      'interactions without a measured duration are not scored.',
    field: 'speed',
  },
  evaluate(interactions) {
    const values: SignalValue[] = [];
    for (const ix of interactions) values.push(speedOf(ix));
    return { values, patterns: [] };
  },
};

function speedOf(ix: ClassifiedInteraction): SignalValue {
  if (ix.durationMs === null || ix.durationSource === 'none')
    return { interactionId: ix.id, value: null, unambiguous: true, evidence: 'duration not measured' };
  const category = speedCategory(ix.categories);
  const value = speedScore(ix.durationMs, category);
  const bucket = SPEED_BUCKETS[category].find((b) => ix.durationMs! <= b.maxMs);
  const limit = bucket ? `≤ ${seconds(bucket.maxMs)}` : `> ${seconds(SPEED_BUCKETS[category].at(-1)!.maxMs)}`;
  const clock = ix.durationSource === 'received' ? ' (AXIS receipt times)' : '';
  return {
    interactionId: ix.id,
    value,
    unambiguous: true,
    evidence: `${seconds(ix.durationMs)}${clock}: ${category} bucket ${limit} → ${value}`,
  };
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Number((ms / 1000).toFixed(1))}s`;
}
