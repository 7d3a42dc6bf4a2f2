/**
 * Sorting and filtering of the results table, as pure functions over the pairs (the DOM side is in
 * results.ts). A pair sorts and filters by its representative run, the run its row shows.
 */
import type { HtmlPair, HtmlRun, HtmlScore } from '../model.js';

export type SortKey =
  | 'scenario'
  | 'agent'
  | 'axis'
  | 'goal'
  | 'environment'
  | 'service'
  | 'agentScore'
  | 'duration'
  | 'tokens'
  | 'cost'
  | 'status';

export type SortDir = 'asc' | 'desc';

/** Worst first when ascending, so a sort by status puts the failures on top. */
const STATUS_RANK: Record<HtmlRun['status'], number> = {
  failed: 0,
  cancelled: 1,
  unscored: 2,
  completed: 3,
  scored: 4,
};

function dim(s: HtmlScore | undefined, run: HtmlRun): number | null {
  if (run.status === 'failed' || run.status === 'cancelled') return null;
  if (!s || s.unknown || s.notApplicable || typeof s.score !== 'number') return null;
  return s.score;
}

/** The value a pair sorts by in a column; null (no value) always sorts last. */
export function sortValue(pair: HtmlPair, key: SortKey): string | number | null {
  const run = pair.runs[pair.representative]!;
  const s = run.scores;
  switch (key) {
    case 'scenario':
      return pair.scenarioName.toLowerCase();
    case 'agent':
      return pair.agentName.toLowerCase();
    case 'axis':
      return run.status === 'failed' || run.status === 'cancelled' ? null : (s?.axis ?? null);
    case 'goal':
      return dim(s?.goal, run);
    case 'environment':
      return dim(s?.environment, run);
    case 'service':
      return dim(s?.service, run);
    case 'agentScore':
      return dim(s?.agent, run);
    case 'duration':
      return run.durationMs;
    case 'tokens':
      return run.tokens ? run.tokens.total : null;
    case 'cost':
      return run.simulated ? null : run.costUsd;
    case 'status':
      return STATUS_RANK[run.status];
  }
}

/** Indices of `pairs` in sorted order; ties keep the report's order. */
export function sortedOrder(pairs: readonly HtmlPair[], key: SortKey, dir: SortDir): number[] {
  const values = pairs.map((p) => sortValue(p, key));
  const sign = dir === 'asc' ? 1 : -1;
  return pairs
    .map((_, i) => i)
    .sort((a, b) => {
      const va = values[a] ?? null;
      const vb = values[b] ?? null;
      if (va === null || vb === null) return va === vb ? a - b : va === null ? 1 : -1;
      const c =
        typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
      return c === 0 ? a - b : sign * c;
    });
}

export interface Filter {
  text: string;
  /** A run status, or '' for all. */
  status: string;
}

/** Does the pair match the filter: text over scenario name, key, variant and agent; status exactly. */
export function matches(pair: HtmlPair, filter: Filter): boolean {
  const run = pair.runs[pair.representative]!;
  if (filter.status && run.status !== filter.status) return false;
  const needle = filter.text.trim().toLowerCase();
  if (!needle) return true;
  return [pair.scenarioName, pair.scenarioKey, pair.agentName, pair.variant ?? ''].some((t) =>
    t.toLowerCase().includes(needle),
  );
}
