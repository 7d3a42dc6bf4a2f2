/**
 * Scenarios no configured agent may run: their `agents` list names only agents this config (or the
 * profile picked) does not have, so they run in no job. Said as a note, as upstream AXIS said nothing.
 */
import { matchesName } from '../util/name-filter.js';
import { displayPath } from './scenarios.js';
import type { ResolvedConfig, ResolvedScenario } from './types.js';

export function unrunScenarioNotices(
  config: ResolvedConfig,
  scenarios: readonly ResolvedScenario[],
  cwd: string,
): string[] {
  return scenarios
    .filter((s) => !s.skip && s.agents !== undefined && config.agents.length > 0)
    .filter(
      (s) => !config.agents.some((a) => s.agents!.some((p) => matchesName(p.toLowerCase(), a.name, a.agent))),
    )
    .map((s) => {
      const where = s.file ? `${displayPath(s.file, cwd)}: ` : '';
      return `${where}scenario "${s.key}" runs in no job: no configured agent is in its agents list (${s.agents!.join(', ')})`;
    });
}
