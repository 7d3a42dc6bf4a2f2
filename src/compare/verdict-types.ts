/**
 * The CI gate's verdict types. They live with report.json (src/report/verdict.ts), which stores the
 * verdict; src/compare computes it.
 */
export type {
  GateFailure,
  GateFailureKind,
  PairVerdict,
  RunVerdict,
  VerdictBaseline,
  VerdictThresholds,
} from '../report/verdict.js';
