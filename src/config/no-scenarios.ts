/**
 * A config whose sources hold no scenario at all: nothing could ever run, whatever the filters, so
 * `axis validate` and `axis run` both say so (exit 2) rather than blaming filters no one gave. YAML files
 * in its folders are named: a scenario written in YAML is the likely cause, and AXIS does not read YAML.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidationIssue } from '../util/errors.js';
import { displayPath, SCENARIO_EXTENSIONS } from './scenarios.js';
import type { LoadedConfig } from './types.js';

const SHOWN_EXTENSIONS = `${SCENARIO_EXTENSIONS.slice(0, -1).join(', ')} or ${SCENARIO_EXTENSIONS.at(-1)}`;

export function noScenarioIssues(loaded: LoadedConfig, cwd: string): ValidationIssue[] {
  if (loaded.scenarios.length > 0) return [];
  const sources = loaded.config.scenarios.flatMap((s) =>
    s.kind === 'inline' ? [] : [s.kind === 'dir' && s.remote ? displayPath(s.path, cwd) : s.spec],
  );
  const yaml = loaded.config.scenarios
    .flatMap((s) => (s.kind === 'dir' ? yamlFiles(s.path) : []))
    .map((f) => displayPath(f, cwd))
    .sort();
  const shownYaml = yaml.length > 5 ? [...yaml.slice(0, 5), `… (${yaml.length} in all)`] : yaml;
  const message =
    `expected at least one scenario, found none${sources.length ? ` in ${sources.join(', ')}` : ''} ` +
    `(scenario files end in ${SHOWN_EXTENSIONS}; YAML is not read)` +
    (yaml.length ? `; not read: ${shownYaml.join(', ')}` : '');
  return [{ file: displayPath(loaded.configPath, cwd), path: 'scenarios', message }];
}

/** `.yaml`/`.yml` files under `dir`, skipping what discovery skips (`.x`, `_x`, node_modules). */
function yamlFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  const skipped = (rel: string) =>
    rel.split(/[\\/]/).some((p) => p.startsWith('.') || p.startsWith('_') || p === 'node_modules');
  return names.filter((n) => /\.ya?ml$/i.test(n) && !skipped(n)).map((n) => join(dir, n));
}
