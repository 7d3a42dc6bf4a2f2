/**
 * The CI gate's verdict: for every pair, the reasons (if any) it fails the gate. Computed once in src/compare and
 * drawn by every reporter (terminal, json, junit, github), so they all tell the same story.
 */
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

export interface RunVerdict {
  /** true when no pair has a failure and the run finished. */
  pass: boolean;
  pairs: PairVerdict[];
  /** Why the run did not finish (a run limit, Ctrl-C, a partial merge): it fails with no pair to blame. */
  incomplete?: string;
  /** Why no pair has a score though judging ran (the judge failed on every one): it fails, no pair blamed. */
  unscored?: string;
}
