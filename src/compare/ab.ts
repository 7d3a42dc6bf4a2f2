/**
 * Variant / agent A/B within one report (docs/reports.md#did-my-change-help-agents): `cms/post@plain`
 * vs `cms/post@with-mcp`, or agent a vs agent b, per base scenario. The A side plays the baseline in
 * comparePair, so the band, the reliability check and the Welch tests are the baseline comparison's
 * own. The verdict is counted per scenario and follows the band; ties go down. Pure.
 */
import type { ReportManifest, ReportResultEntry } from '../report/manifest.js';
import {
  comparePair,
  DEFAULT_TOLERANCE,
  summarize,
  type ComparisonSummary,
  type PairComparison,
} from './compare.js';
import { readPair } from './pair-data.js';

export type AbMode = 'variants' | 'agents';

export type AbSelection = { variants: [string, string] } | { agents: [string, string] };

export type AbVerdict = 'better' | 'worse' | 'no clear difference';

export interface AbEntry extends PairComparison {
  /** The base scenario key (variants) or the scenario key (agents). */
  scenario: string;
  /** Variants: the agent both sides ran on. Agents: null. */
  agent: string | null;
  /** The scenario keys (variants) or agent names (agents) compared: [A, B]. */
  a: string;
  b: string;
}

export interface AbNotComparable {
  scenario: string;
  agent: string | null;
  /** The side that is absent or has no scored headline. */
  side: 'a' | 'b';
  message: string;
}

export interface AbComparison {
  reportId: string;
  mode: AbMode;
  /** [A, B]: B's lift over A is reported. */
  names: [string, string];
  /** The band's floor in points. */
  tolerance: number;
  entries: AbEntry[];
  notComparable: AbNotComparable[];
  summary: ComparisonSummary;
  /** Scenarios where B is better, worse, or within the band. */
  counts: { better: number; worse: number; unclear: number };
  verdict: AbVerdict;
}

interface Side {
  scenario: string;
  agent: string | null;
  /** Which side of the A/B the entry belongs to, if any. */
  side: 'a' | 'b' | null;
  entry: ReportResultEntry;
}

/** The variant of a scenario key (`cms/post@plain` → `plain`) and its base key. */
export function splitVariant(e: Pick<ReportResultEntry, 'scenarioKey' | 'variant'>): {
  base: string;
  variant: string | null;
} {
  const at = e.scenarioKey.lastIndexOf('@');
  const variant = e.variant ?? (at > 0 ? e.scenarioKey.slice(at + 1) : null);
  if (variant === null || !e.scenarioKey.endsWith(`@${variant}`))
    return { base: e.scenarioKey, variant: null };
  return { base: e.scenarioKey.slice(0, -variant.length - 1), variant };
}

function sideOf(e: ReportResultEntry, sel: AbSelection): Side {
  if ('variants' in sel) {
    const { base, variant } = splitVariant(e);
    const side = variant === sel.variants[0] ? 'a' : variant === sel.variants[1] ? 'b' : null;
    return { scenario: base, agent: e.agentName, side, entry: e };
  }
  const side = e.agentName === sel.agents[0] ? 'a' : e.agentName === sel.agents[1] ? 'b' : null;
  return { scenario: e.scenarioKey, agent: null, side, entry: e };
}

/** B's lift over A for every base scenario of `manifest` present on both sides. */
export function compareAb(
  manifest: Pick<ReportManifest, 'reportId' | 'results'>,
  sel: AbSelection,
  opts: { tolerance?: number } = {},
): AbComparison {
  const floor = opts.tolerance ?? DEFAULT_TOLERANCE;
  const mode: AbMode = 'variants' in sel ? 'variants' : 'agents';
  const names = 'variants' in sel ? sel.variants : sel.agents;
  const groups = new Map<string, { a?: Side; b?: Side; scenario: string; agent: string | null }>();
  for (const e of manifest.results) {
    const s = sideOf(e, sel);
    if (s.side === null) continue;
    const id = `${s.scenario}\u0000${s.agent ?? ''}`;
    const g = groups.get(id) ?? { scenario: s.scenario, agent: s.agent };
    g[s.side] = s;
    groups.set(id, g);
  }
  const entries: AbEntry[] = [];
  const notComparable: AbNotComparable[] = [];
  for (const g of [...groups.values()].sort(byScenario)) {
    const where = { scenario: g.scenario, agent: g.agent };
    if (!g.a || !g.b) {
      const side = g.a ? 'b' : 'a';
      notComparable.push({ ...where, side, message: `No ${label(mode, names, side)} in this report` });
      continue;
    }
    const base = readPair(g.a.entry);
    if (!base.ok) {
      notComparable.push({
        ...where,
        side: 'a',
        message: `${label(mode, names, 'a')} has no scored AXIS Result: ${base.reason}`,
      });
      continue;
    }
    const cur = readPair(g.b.entry);
    // A B that never ran (Ctrl-C, a run limit) says nothing of B: it is no evidence of worse.
    if (!cur.ok && cur.why === 'cancelled') {
      notComparable.push({
        ...where,
        side: 'b',
        message: `${label(mode, names, 'b')} has no scored AXIS Result: ${cur.reason}`,
      });
      continue;
    }
    entries.push({
      ...where,
      a: mode === 'variants' ? g.a.entry.scenarioKey : names[0],
      b: mode === 'variants' ? g.b.entry.scenarioKey : names[1],
      ...comparePair(base.data, cur, floor),
    });
  }
  const counts = {
    better: entries.filter((e) => e.change === 'improved').length,
    worse: entries.filter((e) => e.change === 'regressed').length,
    unclear: entries.filter((e) => e.change === 'unchanged').length,
  };
  return {
    reportId: manifest.reportId,
    mode,
    names: [names[0], names[1]],
    tolerance: floor,
    entries,
    notComparable,
    summary: summarize(entries),
    counts,
    verdict: abVerdict(counts),
  };
}

/** More scenarios better than worse is `better`; a tie with any worse is `worse` (never flatter). */
export function abVerdict(c: { better: number; worse: number }): AbVerdict {
  if (c.worse > 0 && c.worse >= c.better) return 'worse';
  if (c.better > c.worse) return 'better';
  return 'no clear difference';
}

const label = (mode: AbMode, names: readonly string[], side: 'a' | 'b') =>
  `${mode === 'variants' ? 'variant' : 'agent'} "${names[side === 'a' ? 0 : 1]}"`;

const byScenario = (x: { scenario: string; agent: string | null }, y: typeof x) =>
  x.scenario.localeCompare(y.scenario) || (x.agent ?? '').localeCompare(y.agent ?? '');
