/** `axis reports`: the list of stored reports, one row each. Pure. */
import { costTotalText } from './cost-total.js';
import { formatDuration, oneLine, painter, table, type FormatOptions } from './format.js';
import type { ReportListEntry } from './read.js';

export function formatReportList(
  reports: readonly ReportListEntry[],
  total: number,
  where: string,
  opts: FormatOptions = {},
): string {
  const p = painter(opts.color ?? false);
  const head = ['Report ID', 'Scenarios', 'AXIS', 'Pass', 'Fail', 'Duration', 'Cost', ''];
  const rows = reports.map((r) =>
    r.error
      ? [r.reportId, '', '', '', '', '', '', `unreadable: ${oneLine(r.error, 100)}`]
      : [
          r.reportId,
          String(r.pairs),
          r.averageAxisScore === null ? '–' : String(Math.round(r.averageAxisScore)),
          String(r.completed),
          String(r.failed),
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
  const lines = table([head, ...rows], new Set([1, 2, 3, 4, 5, 6]), (row, col, cell) => {
    if (row === 0) return p.code('1', cell);
    const r = reports[row - 1]!;
    if (col === 2) return p.score(r.averageAxisScore, cell);
    if (col === 4 && r.failed > 0) return p.code('31', cell);
    if (col === 7 && cell) return p.code('33', cell);
    return cell;
  });
  const out = [`AXIS Reports (${where})`, '', ...lines];
  if (total > reports.length)
    out.push(`... and ${total - reports.length} more (axis reports without -n lists them all)`);
  out.push('', `View a report: axis reports <reportId|latest>${opts.configArg ?? ''}`);
  return `${out.join('\n')}\n`;
}
