/**
 * speed: how long each interaction took, scored per category by interpolating linearly between the
 * documented anchor points (docs/scoring.md#speed), so 494 ms and 515 ms differ by a hair, not a cliff.
 * An interaction without a measured duration is "not measured" (null), never a free 1.0.
 */
import type { Category, ClassifiedInteraction } from '../types.js';
import type { Signal, SignalValue } from './signal.js';

export interface SpeedBucket {
  /** Anchor point in ms: a duration of exactly `maxMs` scores `score`. */
  maxMs: number;
  score: number;
}

/**
 * Anchor points per table (upstream AXIS's bucket bounds): up to the first anchor scores 1, between
 * anchors the score is interpolated, from the last anchor it falls to SLOWEST at twice that duration.
 */
export const SPEED_BUCKETS: Readonly<Record<Category, readonly SpeedBucket[]>> = frozen({
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
});
export const SLOWEST = 0.4;

/** Frozen through: speedScore reads copies made once (POINTS), so the exported tables must not change. */
function frozen(tables: Record<Category, SpeedBucket[]>): Readonly<Record<Category, readonly SpeedBucket[]>> {
  for (const list of Object.values(tables)) {
    list.forEach((b) => Object.freeze(b));
    Object.freeze(list);
  }
  return Object.freeze(tables);
}

/** Which bucket table applies: service first, then environment, else agent. */
export function speedCategory(categories: readonly Category[]): Category {
  if (categories.includes('service')) return 'service';
  if (categories.includes('environment')) return 'environment';
  return 'agent';
}

/**
 * Each table's anchors with the last point (twice the last anchor, SLOWEST) appended, built once: spreading
 * them per call was half of this signal's time on a long run (a spread in cold code runs the iterator protocol).
 */
const POINTS: Readonly<Record<Category, readonly SpeedBucket[]>> = {
  service: withSlowest(SPEED_BUCKETS.service),
  environment: withSlowest(SPEED_BUCKETS.environment),
  agent: withSlowest(SPEED_BUCKETS.agent),
};

function withSlowest(anchors: readonly SpeedBucket[]): readonly SpeedBucket[] {
  return [...anchors, { maxMs: 2 * anchors.at(-1)!.maxMs, score: SLOWEST }];
}

export function speedScore(durationMs: number, category: Category): number {
  const points = POINTS[category];
  if (durationMs <= points[0]!.maxMs) return points[0]!.score;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (durationMs <= b.maxMs)
      return a.score + ((b.score - a.score) * (durationMs - a.maxMs)) / (b.maxMs - a.maxMs);
  }
  return SLOWEST;
}

export const speed: Signal = {
  meta: {
    id: 'speed',
    title: 'Interactions are fast',
    failureTitle: 'Interactions are slow',
    description:
      'How long each interaction took, against what is usual for its kind (service, environment, agent); ' +
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
  const clock = ix.durationSource === 'received' ? ' (timed as AXIS received the output)' : '';
  return {
    interactionId: ix.id,
    value,
    unambiguous: true,
    // People read 0–100 everywhere (terminal, HTML); the value itself stays 0–1.
    evidence: `took ${seconds(ix.durationMs)}${clock}: speed ${Math.floor(value * 100)}/100 for ${ARTICLE[category]} ${category} step`,
  };
}

const ARTICLE: Readonly<Record<Category, string>> = { service: 'a', environment: 'an', agent: 'an' };

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Number((ms / 1000).toFixed(1))}s`;
}
