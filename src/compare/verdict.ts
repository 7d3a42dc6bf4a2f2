/**
 * The CI verdict of a run (RunVerdict, verdict-types.ts): failed pairs, thresholds and the baseline
 * comparison folded into one list of reasons per pair. `axis run` takes its exit code from it and every
 * reporter draws it. Pure.
 */
import type { Minimums } from '../config/types.js';
import type { ReportResultEntry } from '../report/manifest.js';
import type { Comparison } from './compare.js';
import { MINIMUM_KEYS, minimumsFor, thresholdFailures } from './thresholds.js';
import type { GateFailure, PairVerdict, RunVerdict, VerdictThresholds } from './verdict-types.js';

export interface VerdictInput {
  results: readonly ReportResultEntry[];
  thresholds?: {
    settings?: Minimums;
    /** scenarioKey → the scenario's own minimums. */
    scenarios?: Readonly<Record<string, Minimums | undefined>>;
    /** Where they come from (the config file, its profile), recorded in the verdict. */
    source?: string;
  };
  comparison?: Comparison;
  /** The report is incomplete, and why: the gate fails even when every pair that ran passes. */
  incomplete?: string;
  /** Shards are missing: a baseline pair absent from the report may be theirs, so it is not blamed. */
  shardsMissing?: boolean;
}

export function runVerdict(input: VerdictInput): RunVerdict {
  const byPair = new Map(
    (input.comparison?.entries ?? []).map((c) => [`${c.scenarioKey}\u0000${c.agentName}`, c]),
  );
  const pairs: PairVerdict[] = input.results.map((e) => {
    const failures: GateFailure[] = [];
    if (e.status !== 'completed' && e.status !== 'cancelled')
      failures.push({
        kind: 'failed',
        message: `No run completed: ${(e.reason ?? e.status).split('\n')[0]!.slice(0, 200)}`,
      });
    const min = minimumsFor(input.thresholds?.settings, input.thresholds?.scenarios?.[e.scenarioKey]);
    failures.push(...thresholdFailures(e, min));
    const c = byPair.get(`${e.scenarioKey}\u0000${e.agentName}`);
    // A failed pair already says so; its comparison would only repeat it. A cancelled pair never
    // finished: the incomplete run is the reason, no pair is blamed for it.
    const said = e.status === 'cancelled' || failures.some((f) => f.kind === 'failed');
    for (const r of c?.regressions ?? [])
      if (!(r.kind === 'failed' && said))
        failures.push({
          kind: 'regression',
          ...(r.metric ? { metric: r.metric } : {}),
          ...(r.value !== undefined ? { value: r.value } : {}),
          ...(r.limit !== undefined ? { limit: r.limit } : {}),
          message: r.message,
        });
    return { scenarioKey: e.scenarioKey, agent: e.agentName, failures };
  });
  for (const c of input.comparison?.entries ?? [])
    if (c.change === 'missing' && !input.shardsMissing)
      pairs.push({
        scenarioKey: c.scenarioKey,
        agent: c.agentName,
        failures: c.regressions.map((r) => ({ kind: 'missing' as const, message: r.message })),
      });
  const incomplete = input.incomplete;
  const unscored = nothingScored(input.results);
  const pass =
    incomplete === undefined && unscored === undefined && pairs.every((p) => p.failures.length === 0);
  const c = input.comparison;
  return {
    pass,
    thresholds: appliedThresholds(input),
    baseline: c ? { name: c.baselineName, tolerance: c.tolerance } : null,
    pairs,
    ...(incomplete !== undefined ? { incomplete } : {}),
    ...(unscored !== undefined ? { unscored } : {}),
  };
}

/** The minimums at least one pair of the report was held to (null: none), for the verdict to say. */
function appliedThresholds(input: VerdictInput): VerdictThresholds | null {
  const t = input.thresholds;
  const set = new Set(
    input.results.flatMap((e) => Object.keys(minimumsFor(t?.settings, t?.scenarios?.[e.scenarioKey]))),
  );
  const metrics = MINIMUM_KEYS.filter((k) => set.has(k));
  return metrics.length ? { source: t?.source ?? 'the config', metrics } : null;
}

/**
 * Why no pair has a score though judging ran (every completed pair unscored: a wrong judge key, the judge
 * down): such a run measured nothing, so it must not pass. `--no-score` pairs carry no score status.
 */
export function nothingScored(results: readonly ReportResultEntry[]): string | undefined {
  const completed = results.filter((e) => e.status === 'completed');
  if (completed.length === 0 || !completed.every((e) => e.score?.status === 'unscored')) return undefined;
  return completed[0]!.score?.reason ?? 'not scored';
}

export {
  CROSS_INDENT,
  formatVerdict,
  gateChecks,
  gateLine,
  gateLines,
  gateWord,
  GATE_WIDTH,
} from '../report/verdict.js';
