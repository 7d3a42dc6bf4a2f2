/**
 * A config whose sources hold no scenario at all: nothing could ever run, whatever the filters, so
 * `axis validate` and `axis run` both say so (exit 2) rather than blaming filters no one gave. (A YAML
 * (JSONC, JSON5) file in its folders is an error of its own, scenarios.ts: AXIS does not read them.)
 */
import type { ValidationIssue } from '../util/errors.js';
import { displayPath, SHOWN_EXTENSIONS } from './scenarios.js';
import type { LoadedConfig } from './types.js';

export function noScenarioIssues(loaded: LoadedConfig, cwd: string): ValidationIssue[] {
  if (loaded.scenarios.length > 0) return [];
  const sources = loaded.config.scenarios.flatMap((s) =>
    s.kind === 'inline' ? [] : [s.kind === 'dir' && s.remote ? displayPath(s.path, cwd) : s.spec],
  );
  const message =
    `expected at least one scenario, found none${sources.length ? ` in ${sources.join(', ')}` : ''} ` +
    `(scenario files end in ${SHOWN_EXTENSIONS}; YAML, JSONC and JSON5 are not read)`;
  return [{ file: displayPath(loaded.configPath, cwd), path: 'scenarios', message }];
}
