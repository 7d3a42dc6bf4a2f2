/**
 * The gate of `run()` (and so of `axis run`): the baseline named by `--compare-baseline`, read before any
 * job starts, and the verdict over the finished report.
 */
import { relative } from 'node:path';
import type { LoadedConfig, ResolvedScenario } from '../config/types.js';
import type { ReportManifest } from '../report/manifest.js';
import { DEFAULT_BASELINE_NAME, type Baseline } from './baseline.js';
import { requireBaseline } from './baseline-store.js';
import { compare, type Comparison } from './compare.js';
import { runVerdict } from './verdict.js';
import type { RunVerdict } from './verdict-types.js';

/** `true` (a bare flag) means the default baseline; a missing baseline is an error (exit 2). */
export async function baselineToCompare(
  configDir: string,
  option: string | boolean | Baseline | undefined,
): Promise<Baseline | undefined> {
  if (option === undefined || option === false) return undefined;
  if (typeof option === 'object') return option;
  return requireBaseline(configDir, option === true ? DEFAULT_BASELINE_NAME : option);
}

/** Without a config (`axis reports merge` outside the project) only failed pairs and the baseline gate. */
export function gate(
  manifest: ReportManifest,
  loaded: LoadedConfig | undefined,
  scenarios: readonly ResolvedScenario[],
  baseline: Baseline | undefined,
): { verdict: RunVerdict; comparison?: Comparison } {
  const settings = loaded?.config.settings.thresholds;
  const comparison = baseline
    ? compare(baseline, manifest, { ...(settings ? { tolerance: settings.baseline_tolerance } : {}) })
    : undefined;
  const verdict = runVerdict({
    results: manifest.results,
    thresholds: {
      settings,
      scenarios: Object.fromEntries(scenarios.map((s) => [s.key, s.thresholds])),
      ...(loaded ? { source: thresholdSource(loaded) } : {}),
    },
    ...(comparison ? { comparison } : {}),
    ...(manifest.incomplete ? { incomplete: manifest.incompleteReason ?? 'the run did not finish' } : {}),
    ...(manifest.merged?.missing?.length ? { shardsMissing: true } : {}),
  });
  return { verdict, ...(comparison ? { comparison } : {}) };
}

/** `axis.config.json`, `axis.config.json, profile ci`: the file as report.json's `config` names it. */
function thresholdSource(loaded: LoadedConfig): string {
  const file = relative(loaded.configDir, loaded.configPath).split('\\').join('/');
  return loaded.profile ? `${file}, profile ${loaded.profile}` : file;
}
