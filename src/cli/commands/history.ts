/** `axis history [scenarioKey]`: the AXIS Result over the stored reports, as a table or `--json`. */
import { buildHistory, formatHistory } from '../../report/history.js';
import { findProjectDir, listReports, readReport } from '../../report/read.js';
import type { ReportManifest } from '../../report/store.js';
import { AxisError } from '../../util/errors.js';

export interface HistoryCommandOptions {
  config?: string;
  limit?: string;
  json?: boolean;
}

export default async function historyCommand(
  scenarioKey: string | undefined,
  opts: HistoryCommandOptions,
): Promise<number> {
  const limit = opts.limit === undefined ? 20 : Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new AxisError(`-n/--limit: expected a positive integer, found ${JSON.stringify(opts.limit)}`, {
      exitCode: 2,
    });
  const projectDir = findProjectDir(process.cwd(), opts.config);
  const list = await listReports(projectDir, limit);
  const manifests: ReportManifest[] = [];
  // Unreadable reports are left out of the trend; `axis reports` names them.
  for (const entry of list.reports)
    if (!entry.error) manifests.push(await readReport(projectDir, entry.reportId));
  const history = buildHistory(manifests, scenarioKey);
  process.stdout.write(opts.json ? `${JSON.stringify(history, null, 2)}\n` : formatHistory(history));
  return 0;
}
