/** `axis history [scenarioKey]`: the AXIS Result over the stored reports, as a table or `--json`. */
import { buildHistory, formatHistory, HISTORY_LIMIT } from '../../report/history.js';
import { readStoredHistory } from '../../report/history-read.js';
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
  const { manifests, olderNotShown } = await readStoredHistory(reportsDir(projectDir), { limit });
  const history = { ...buildHistory(manifests, scenarioKey), olderNotShown };
  process.stdout.write(opts.json ? `${JSON.stringify(history, null, 2)}\n` : formatHistory(history, limit));
  return 0;
}
