/** `axis reports`: the list of stored reports, one row each. Pure. */
import { costTotalText } from './cost-total.js';
import { formatDuration, oneLine, painter, table, type FormatOptions } from './format.js';
import type { ReportListEntry } from './read.js';
import { THRESHOLDS_NOT_RECORDED } from './verdict.js';

export function formatReportList(
  reports: readonly ReportListEntry[],
  total: number,
  where: string,
  opts: FormatOptions = {},
): string {
  const p = painter(opts.color ?? false);
  // Pairs that completed or failed to, and the gate: a completed pair may still fail the gate.
  const head = ['Report ID', 'Scenarios', 'AXIS', 'Completed', 'Failed', 'Gate', 'Duration', 'Cost', ''];
  const rows = reports.map((r) =>
    r.error
      ? [r.reportId, '', '', '', '', '', '', '', `unreadable: ${oneLine(r.error, 100)}`]
      : [
          r.reportId,
          String(r.pairs),
          r.averageAxisScore === null ? '–' : String(Math.round(r.averageAxisScore)),
          String(r.completed),
          String(r.failed),
          // A pass that applied no threshold and no baseline must not read like one that did.
          r.gate === null ? '–' : `${r.gate}${passNote(r)}`,
          formatDuration(r.durationMs),
          costTotalText({
            usd: r.costUsd,
            runs: r.runs,
            withoutCost: r.runsWithoutCost,
            simulated: r.simulated === true,
          }),
          [r.incomplete ? 'incomplete' : '', r.shard ? `shard ${r.shard.index}/${r.shard.total}` : '']
            .filter(Boolean)
            .join(', '),
        ],
  );
  const lines = table([head, ...rows], new Set([1, 2, 3, 4, 6, 7]), (row, col, cell) => {
    if (row === 0) return p.code('1', cell);
    const r = reports[row - 1]!;
    if (col === 2) return p.score(r.averageAxisScore, cell);
    if (col === 4 && r.failed > 0) return p.code('31', cell);
    if (col === 5 && r.gate) return p.code(r.gate === 'pass' ? '32' : '31', cell);
    if (col === 8 && cell) return p.code('33', cell);
    return cell;
  });
  const out = [`AXIS Reports (${where})`, '', ...lines];
  if (total > reports.length)
    out.push(`... and ${total - reports.length} more (axis reports without -n lists them all)`);
  out.push('', `View a report: axis reports <reportId|latest>${opts.configArg ?? ''}`);
  return `${out.join('\n')}\n`;
}

/** What a pass did not check, or what is not known of it: a pass must not read like a full one. */
function passNote(r: ReportListEntry): string {
  if (r.gate !== 'pass') return '';
  if (r.gateThresholdsUnknown) return ` (${THRESHOLDS_NOT_RECORDED})`;
  return r.gateCompletionOnly ? ' (completion only)' : '';
}
