/**
 * report.json as earlier AXIS versions wrote it, brought to what this version's readers expect: the one
 * place it happens (parseManifest calls it), so `axis reports`, `axis history`, the trend, `axis compare`,
 * baselines, `axis score` and report.html read an old report the same way. What an old report does not
 * hold and cannot be derived stays absent, and each reader says so (`Gate –`: no verdict stored; a
 * verdict without `thresholds`, stored before AXIS recorded them: `thresholds not recorded`, gateChecks).
 */
import { costTotal, type JudgeCostFields } from './cost-total.js';

/** The fields read here, named without manifest.ts (which calls this): no import cycle. */
interface Readable {
  summary?: { scores?: { judge?: JudgeCostFields } };
  results: { score?: { judge?: { costUsd?: number; simulated?: boolean; calls: number } | null } }[];
}

export function upgradeManifest<M extends Readable>(m: M): M {
  const scores = m.summary?.scores;
  const judge = scores?.judge;
  // Before AXIS counted the judged runs without a judge cost, the total was a sum over the others with
  // nothing to say so. Each pair's judge record shows whether its judge reported one: a lower bound.
  if (!judge || judge.costUsd === undefined || judge.runsWithoutCost !== undefined) return m;
  const seen = costTotal(
    m.results.flatMap((r) => {
      const j = r.score?.judge;
      return j ? [{ costUsd: j.costUsd, simulated: j.simulated, free: j.calls === 0 }] : [];
    }),
  );
  // Its total is a sum over at least one run that had a cost.
  const withoutCost = Math.min(seen.withoutCost, judge.runs - 1);
  if (withoutCost <= 0) return m;
  const upgraded = { ...judge, runsWithoutCost: withoutCost };
  return { ...m, summary: { ...m.summary, scores: { ...scores, judge: upgraded } } };
}
