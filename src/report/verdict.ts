/**
 * The CI gate's verdict (computed once by src/compare, stored in report.json as `verdict`): for every pair,
 * the reasons (if any) it fails the gate, and the words every view draws it with (the `axis run` summary,
 * `axis reports`, the reporters), so they all tell the same story.
 */
import { oneLine } from '../util/one-line.js';
import { foldLine } from '../util/fold.js';

export type GateFailureKind = 'failed' | 'threshold' | 'regression' | 'missing';

export interface GateFailure {
  kind: GateFailureKind;
  /** `axis_score`, `goal_achievement`, `environment`, `service`, `agent`, `reliability`, `duration`, `tokens`. */
  metric?: string;
  value?: number;
  limit?: number;
  /** One plain sentence for people, e.g. "AXIS Result 71 is below the threshold 80". */
  message: string;
}

export interface PairVerdict {
  scenarioKey: string;
  agent: string;
  failures: GateFailure[];
}

/** The baseline a run was compared with (`--compare-baseline`), and the band's floor it used. */
export interface VerdictBaseline {
  name: string;
  tolerance: number;
}

export type ThresholdMetric =
  'axis_score' | 'goal_achievement' | 'environment' | 'service' | 'agent' | 'reliability';

/** The minimums the gate held pairs to: each metric at least one pair had one for, and their config. */
export interface VerdictThresholds {
  /** The config file (and profile) they came from, e.g. `axis.config.json, profile ci`. */
  source: string;
  metrics: ThresholdMetric[];
}

export interface RunVerdict {
  /** true when no pair has a failure and the run finished. */
  pass: boolean;
  /**
   * The minimums applied; null when none was (no config, none set, or not the shards' config). Absent
   * in verdicts stored before AXIS recorded it: what they checked is unknown.
   */
  thresholds?: VerdictThresholds | null;
  /** The baseline compared against; null when the run was not compared with one. */
  baseline: VerdictBaseline | null;
  pairs: PairVerdict[];
  /** Why the run did not finish (a run limit, Ctrl-C, a partial merge): it fails with no pair to blame. */
  incomplete?: string;
  /** Why no pair has a score though judging ran (the judge failed on every one): it fails, no pair blamed. */
  unscored?: string;
}

/** `pass`, `fail`, or `fail (<why the run fails with no pair to blame>)`. */
export function gateWord(v: RunVerdict): string {
  if (v.pass) return 'pass';
  const why = runFailure(v);
  return why === undefined ? 'fail' : `fail (${why})`;
}

/** `Gate: pass · <what it checked>`, `Gate: fail (…) · <what it checked>`. */
export function gateLine(v: RunVerdict): string {
  const checks = gateChecks(v);
  return `Gate: ${gateWord(v)}${checks ? ` · ${checks}` : ''}`;
}

/** The width the gate is folded to where no terminal says another: a CI log, `axis reports`. */
export const GATE_WIDTH = 80;

/**
 * {@link gateLine} folded to `width` columns ({@link foldLine}): with every threshold metric, a profile
 * and a baseline it passes 150. The lines after the first are indented under its text.
 */
export function gateLines(v: RunVerdict, width = GATE_WIDTH): string[] {
  return foldLine(gateLine(v), width, 'Gate: '.length);
}

/** In place of the thresholds of a verdict stored before AXIS recorded them: unknown, never none. */
export const THRESHOLDS_NOT_RECORDED = 'thresholds not recorded';

/**
 * What the gate checked beyond completion, in the words every output uses: `thresholds <metrics>
 * (<config>) · baseline <name> (tolerance floor <n>)`, `no thresholds` / `no baseline` when it did not,
 * `thresholds not recorded` for a verdict stored before AXIS recorded them.
 */
export function gateChecks(v: RunVerdict): string {
  const name = v.baseline ? `baseline ${oneLine(v.baseline.name, 64)}` : undefined;
  const t = v.thresholds;
  const min =
    t === undefined
      ? THRESHOLDS_NOT_RECORDED
      : t
        ? `thresholds ${t.metrics.join(', ')} (${oneLine(t.source, 120)})`
        : 'no thresholds';
  const base = name ? `${name} (tolerance floor ${v.baseline!.tolerance})` : 'no baseline';
  return `${min} · ${base}${t === null && !name ? ' (checked only that pairs completed)' : ''}`;
}

/** The run-level reason the gate fails, if any: it did not finish, or nothing in it was scored. */
function runFailure(v: RunVerdict): string | undefined {
  if (v.incomplete !== undefined) return `the run is incomplete: ${oneLine(v.incomplete, 200)}`;
  if (v.unscored !== undefined) return `no pair was scored: ${oneLine(v.unscored, 200)}`;
  return undefined;
}

/** `  ✗ <scenario> · <agent>: <reason>`, one per failure of every failing pair, whole (report.html). */
export function failureLines(v: RunVerdict): string[] {
  return v.pairs.flatMap((p) =>
    p.failures.map(
      (f) => `  ✗ ${oneLine(p.scenarioKey, 80)} · ${oneLine(p.agent, 60)}: ${oneLine(f.message, 240)}`,
    ),
  );
}

/** Where a `  ✗ ` line's text starts: its continuation lines are indented to it. */
export const CROSS_INDENT = '  ✗ '.length;

/** {@link failureLines} as the terminal views show them: each folded to `width` columns. */
export function foldedFailureLines(v: RunVerdict, width = GATE_WIDTH): string[] {
  return failureLines(v).flatMap((l) => foldLine(l, width, CROSS_INDENT));
}

/** The lines `axis run` prints under its summary when the gate fails (nothing when it passes). */
export function formatVerdict(v: RunVerdict, width = GATE_WIDTH): string {
  const failing = v.pairs.filter((p) => p.failures.length > 0);
  const why = runFailure(v);
  if (failing.length === 0)
    return why === undefined
      ? ''
      : `${foldLine(`CI gate: fail: ${why}`, width, 'CI gate: '.length).join('\n')}\n`;
  const lines = [`CI gate: ${failing.length} pair${failing.length === 1 ? '' : 's'} fail`];
  if (why !== undefined) lines.push(...foldLine(`  ✗ ${why}`, width, CROSS_INDENT));
  lines.push(...foldedFailureLines(v, width));
  return `${lines.join('\n')}\n`;
}
