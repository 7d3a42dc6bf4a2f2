/**
 * `settings.thresholds` and a scenario's `thresholds`: minimums for the AXIS Result, each dimension and
 * reliability (docs/configuration.md#thresholds). The scenario's value wins. Pure.
 */
import type { Minimums } from '../config/types.js';
import type { ReportResultEntry } from '../report/manifest.js';
import { reliability, reliabilityPercent } from '../scoring/runs.js';
import type { GateFailure } from './verdict-types.js';

export const MINIMUM_KEYS = [
  'axis_score',
  'goal_achievement',
  'environment',
  'service',
  'agent',
  'reliability',
] as const satisfies readonly (keyof Minimums)[];

const LABEL: Record<(typeof MINIMUM_KEYS)[number], string> = {
  axis_score: 'AXIS Result',
  goal_achievement: 'Goal Achievement',
  environment: 'Environment',
  service: 'Service',
  agent: 'Agent',
  reliability: 'Reliability',
};

/** The minimums that apply to one scenario: the settings', overridden field by field by the scenario's. */
export function minimumsFor(settings: Minimums | undefined, scenario: Minimums | undefined): Minimums {
  const out: Minimums = {};
  for (const k of MINIMUM_KEYS) {
    const v = scenario?.[k] ?? settings?.[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * Every minimum a pair does not reach, with the metric and the value. A pair without a scored headline
 * cannot show it reaches a score minimum, so each one set fails; a dimension that did not apply to the
 * run (n/a) is not held to its minimum.
 */
export function thresholdFailures(e: ReportResultEntry, min: Minimums): GateFailure[] {
  const out: GateFailure[] = [];
  const score = e.score;
  const scored = e.status === 'completed' && score?.status === 'scored';
  const values: Record<Exclude<(typeof MINIMUM_KEYS)[number], 'reliability'>, number | null | 'n/a'> = {
    axis_score: scored ? score!.axisScore : null,
    goal_achievement: dim(scored, score?.goalAchievement),
    environment: dim(scored, score?.environment),
    service: dim(scored, score?.service),
    agent: dim(scored, score?.agent),
  };
  for (const k of MINIMUM_KEYS) {
    const limit = min[k];
    if (limit === undefined) continue;
    if (k === 'reliability') {
      // A cancelled pair never finished: the incomplete run fails the gate, no pair is blamed for it.
      if (e.status === 'cancelled') continue;
      const rel = reliability(e.runs.map((x) => ({ status: x.status, scoreStatus: x.scoreStatus })));
      const r = rel.value;
      // The stored value is rounded to the nearest (2/3 → 0.667): the exact share meets the limit or not.
      if (r === null || rel.completed / rel.counted < limit)
        out.push({
          kind: 'threshold',
          metric: k,
          ...(r === null ? {} : { value: r }),
          limit,
          message:
            r === null
              ? `Reliability cannot be measured (no run counted), so it cannot be shown to reach ${limitPercent(limit)}`
              : `Reliability ${reliabilityPercent(r)} is below the threshold ${limitPercent(limit)}`,
        });
      continue;
    }
    const v = values[k];
    if (v === 'n/a') continue;
    if (v === null) {
      if (e.status !== 'completed') continue; // the pair failed: that is its failure
      out.push({
        kind: 'threshold',
        metric: k,
        limit,
        message: `${LABEL[k]} is unscored (${oneLineReason(score?.reason)}), so it cannot be shown to reach the threshold ${limit}`,
      });
    } else if (v < limit)
      out.push({
        kind: 'threshold',
        metric: k,
        value: v,
        limit,
        message: `${LABEL[k]} ${v} is below the threshold ${limit}`,
      });
  }
  return out;
}

function dim(
  scored: boolean,
  d: { score: number | null; notApplicable: boolean } | undefined,
): number | null | 'n/a' {
  if (!scored || !d) return null;
  return d.notApplicable ? 'n/a' : d.score;
}

/**
 * A configured limit as the percent it was written as (0.675 → 67.5%); the value beside it is rounded
 * down to a whole percent, so the two never print the same (66% below 67%, never 67% below 67%).
 */
export const limitPercent = (v: number): string => `${Number((v * 100).toPrecision(12))}%`;
const oneLineReason = (r: string | undefined) => (r ?? 'not scored').split('\n')[0]!.slice(0, 160);
