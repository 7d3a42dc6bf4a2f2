/**
 * `axis reports <id> --agent X`: one report narrowed to some agents. The pair counts and score averages
 * are recomputed over the kept pairs with the same function the run used, so the narrowed header never
 * shows the whole report's average beside another set of rows. Pure.
 */
import { matchesName, splitList } from '../util/name-filter.js';
import { summarizeScores, type SummaryInput } from '../scoring/summary.js';
import { AxisError } from '../util/errors.js';
import type { ReportManifest } from './manifest.js';
import { runStates } from './scores.js';

export interface AgentFilterResult {
  manifest: ReportManifest;
  /** Pairs kept and pairs in the whole report. */
  kept: number;
  total: number;
}

export function filterReportByAgent(manifest: ReportManifest, agent: string): AgentFilterResult {
  const patterns = splitList(agent).map((p) => p.toLowerCase());
  const results = manifest.results.filter((e) =>
    patterns.some((p) => matchesName(p, e.agentName, e.agent ?? e.agentName)),
  );
  if (results.length === 0) {
    const agents = [...new Set(manifest.results.map((e) => e.agentName))];
    throw new AxisError(
      `No agent matching "${agent}" ran in report "${manifest.reportId}". Agents in it: ${agents.join(', ') || '(none)'}`,
    );
  }
  const runs = results.flatMap((e) => e.runs ?? []);
  const count = <T extends { status: string }>(list: T[], status: string) =>
    list.filter((x) => x.status === status).length;
  // The same split buildManifest makes: cancelled pairs and runs are neither completed nor failed.
  const summary: ReportManifest['summary'] = {
    ...manifest.summary,
    total: results.length,
    completed: count(results, 'completed'),
    failed: results.length - count(results, 'completed') - count(results, 'cancelled'),
    cancelled: count(results, 'cancelled'),
    runsTotal: runs.length,
    runsFailed: runs.length - count(runs, 'completed') - count(runs, 'cancelled'),
    runsCancelled: count(runs, 'cancelled'),
  };
  const old = manifest.summary.scores;
  if (old) {
    // Reliability counts runs, so every run of the kept pairs goes in, not only their headlines.
    const scores = summarizeScores(
      results.flatMap((e) => (e.score ? [e.score as unknown as SummaryInput] : [])),
      results.flatMap(runStates),
    );
    summary.scores = { ...old, ...scores };
    summary.averageAxisScore = scores.averageAxisScore;
  }
  return {
    manifest: { ...manifest, summary, results },
    kept: results.length,
    total: manifest.results.length,
  };
}
