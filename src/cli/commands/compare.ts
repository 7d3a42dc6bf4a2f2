/**
 * `axis compare [reportId] --variants a,b | --agents a,b`: B's lift over A within one report, per base
 * scenario (src/compare/ab.ts). Informational: exit 0 whatever the verdict, 2 for bad input. Reads
 * `.axis/reports/` only; the config is never loaded.
 */
import { compareAb, splitVariant, type AbSelection } from '../../compare/ab.js';
import { formatAbComparison } from '../../compare/format-ab.js';
import { findProjectDir, projectPath, readReport, reportDir, resolveReport } from '../../report/read.js';
import { requireComparable, requireWholeRun } from '../../compare/pair-data.js';
import { join } from 'node:path';
import type { ReportManifest } from '../../report/manifest.js';
import { AxisError } from '../../util/errors.js';

export interface CompareCommandOptions {
  config?: string;
  variants?: string;
  agents?: string;
  json?: boolean;
}

export default async function compareCommand(
  reportId: string | undefined,
  opts: CompareCommandOptions,
): Promise<number> {
  const sel = selection(opts);
  const dir = findProjectDir(process.cwd(), opts.config);
  const id = await resolveReport(dir, reportId ?? 'latest');
  const manifest = await readReport(dir, id);
  requireComparable(manifest.results, projectPath(dir, join(reportDir(dir, id), 'report.json')));
  requireWholeRun(manifest, 'to compare');
  requirePresent(manifest, sel);
  const c = compareAb(manifest, sel);
  process.stdout.write(opts.json ? `${JSON.stringify(c, null, 2)}\n` : formatAbComparison(c));
  return 0;
}

function selection(opts: CompareCommandOptions): AbSelection {
  if ((opts.variants === undefined) === (opts.agents === undefined))
    throw new AxisError(
      'axis compare needs exactly one of --variants <a,b> or --agents <a,b> (e.g. --variants plain,with-mcp).',
      { exitCode: 2 },
    );
  const flag = opts.variants !== undefined ? '--variants' : '--agents';
  const raw = (opts.variants ?? opts.agents)!;
  const names = raw.split(',').map((n) => n.trim());
  if (names.length !== 2 || names.some((n) => n === ''))
    throw new AxisError(
      `${flag}: expected exactly two comma-separated names (A,B), found ${JSON.stringify(raw)}`,
      {
        exitCode: 2,
      },
    );
  if (names[0] === names[1])
    throw new AxisError(`${flag}: the two names must differ, found ${JSON.stringify(raw)}`, { exitCode: 2 });
  const pair = names as [string, string];
  return flag === '--variants' ? { variants: pair } : { agents: pair };
}

/** A name the report never ran is a typo, not an empty comparison: say what it has instead. */
function requirePresent(m: ReportManifest, sel: AbSelection): void {
  const variants = 'variants' in sel;
  const have = new Set(
    m.results.map((e) => (variants ? splitVariant(e).variant : e.agentName)).filter((v) => v !== null),
  );
  const names = variants ? sel.variants : sel.agents;
  const absent = names.filter((n) => !have.has(n));
  if (absent.length === 0) return;
  const what = variants ? 'variant' : 'agent';
  const list = [...have].sort().map((n) => JSON.stringify(n));
  throw new AxisError(
    `Report ${m.reportId} has no ${what} ${absent.map((n) => JSON.stringify(n)).join(' or ')}; ` +
      (list.length ? `its ${what}s: ${list.join(', ')}` : `it has no scenario variants`),
    { exitCode: 2 },
  );
}
