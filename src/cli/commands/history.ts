/** `axis history [scenarioKey]`: the AXIS Result over the stored reports, as a table or `--json`. */
import { buildHistory, formatHistory, HISTORY_LIMIT } from '../../report/history.js';
import { readStoredHistory, writeTrendCache } from '../../report/history-read.js';
import { findProjectDir } from '../../report/read.js';
import { reportsDir } from '../../report/locate.js';
import { parseLimit } from '../limit.js';

export interface HistoryCommandOptions {
  config?: string;
  limit?: string;
  json?: boolean;
}

export default async function historyCommand(
  scenarioKey: string | undefined,
  opts: HistoryCommandOptions,
): Promise<number> {
  const limit = parseLimit(opts.limit, HISTORY_LIMIT);
  const projectDir = findProjectDir(process.cwd(), opts.config);
  // Unreadable reports are left out of the trend; `axis reports` names them.
  const root = reportsDir(projectDir);
  const { manifests, olderNotShown, cacheMisses } = await readStoredHistory(root, { limit });
  // What was parsed is kept, as report.html's writers keep it, so the next read does not parse it again.
  await writeTrendCache(root, cacheMisses).catch((err: unknown) => {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(`axis: warning: could not write the trend cache (${why})\n`);
  });
  const history = { ...buildHistory(manifests, scenarioKey), olderNotShown };
  process.stdout.write(opts.json ? `${JSON.stringify(history, null, 2)}\n` : formatHistory(history, limit));
  return 0;
}
