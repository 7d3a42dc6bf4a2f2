/**
 * `axis history [scenarioKey]`: the AXIS Result over the stored reports, oldest first. Pure: manifests in,
 * points and text out.
 */
import type { ReportManifest } from './store.js';

export interface HistoryPoint {
  reportId: string;
  timestamp?: string;
  /** The report's average AXIS Result, or (for one scenario) the mean over its scored agents. */
  axisScore: number | null;
  /** One scenario: each agent's AXIS Result in that report (null when unscored or failed to score). */
  agents?: Record<string, number | null>;
  pairs: number;
  failed: number;
}

export interface History {
  scenarioKey?: string;
  points: HistoryPoint[];
}

export function buildHistory(manifests: readonly ReportManifest[], scenarioKey?: string): History {
  const points: HistoryPoint[] = [];
  const sorted = [...manifests].sort((a, b) => a.reportId.localeCompare(b.reportId));
  for (const m of sorted) {
    if (scenarioKey === undefined) {
      points.push({
        reportId: m.reportId,
        ...(m.timestamp ? { timestamp: m.timestamp } : {}),
        axisScore: m.summary?.averageAxisScore ?? null,
        pairs: m.results.length,
        failed: m.results.filter((r) => r.status !== 'completed').length,
      });
      continue;
    }
    const rows = m.results.filter((r) => r.scenarioKey === scenarioKey);
    if (rows.length === 0) continue;
    const agents: Record<string, number | null> = {};
    for (const r of rows)
      agents[r.agentName] =
        r.score?.status === 'scored' ? (r.score.axisScore ?? null) : r.score?.status === 'failed' ? 0 : null;
    const scored = Object.values(agents).filter((v): v is number => v !== null);
    points.push({
      reportId: m.reportId,
      ...(m.timestamp ? { timestamp: m.timestamp } : {}),
      // Floored, like every headline: a mean never rounds up.
      axisScore: scored.length ? Math.floor(scored.reduce((a, b) => a + b, 0) / scored.length) : null,
      agents,
      pairs: rows.length,
      failed: rows.filter((r) => r.status !== 'completed').length,
    });
  }
  return { ...(scenarioKey !== undefined ? { scenarioKey } : {}), points };
}

const BARS = '▁▂▃▄▅▆▇█';

/** `▁▄█` over 0–100 (a gap for an unscored report). */
export function sparkline(values: readonly (number | null)[]): string {
  return values.map((v) => (v === null ? ' ' : BARS[Math.min(7, Math.floor((v / 100) * 8))])).join('');
}

export function formatHistory(h: History): string {
  if (h.points.length === 0) {
    return h.scenarioKey
      ? `No stored report has scenario "${h.scenarioKey}".\n`
      : 'No reports yet. Run `axis run` to create one.\n';
  }
  const agents = [...new Set(h.points.flatMap((p) => Object.keys(p.agents ?? {})))];
  const head = ['report', 'AXIS', ...agents, 'pairs', 'failed'];
  const cell = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));
  const rows = h.points.map((p) => [
    p.reportId,
    cell(p.axisScore),
    ...agents.map((a) => cell(p.agents?.[a])),
    String(p.pairs),
    String(p.failed),
  ]);
  const widths = head.map((t, i) => Math.max(t.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const scores = h.points.map((p) => p.axisScore);
  const known = scores.filter((v): v is number => v !== null);
  const delta = known.length >= 2 ? known[known.length - 1]! - known[0]! : undefined;
  const trend = `Trend: ${sparkline(scores)}${delta !== undefined ? `  (${delta >= 0 ? '+' : ''}${delta} since ${h.points[0]!.reportId})` : ''}`;
  const n = `${h.points.length} report${h.points.length === 1 ? '' : 's'}`;
  const title = h.scenarioKey ? `AXIS Result of ${h.scenarioKey} over ${n}` : `AXIS Result over ${n}`;
  return [title, '', line(head), ...rows.map(line), '', trend, ''].join('\n');
}
