/**
 * The CI gate of `axis reports merge`: the project's config (for its thresholds) and the baseline named by
 * `--compare-baseline`, both read before the merged report is written, then the same `gate()` as `axis run`.
 *
 * The thresholds must be the ones the shards ran with: the config hash in the blobs is recomputed from the
 * loaded config and a mismatch is an error (exit 2), never a verdict over another config's minimums.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigForReport } from '../report-profile.js';
import { CONFIG_NAMES } from '../../config/find.js';
import type { LoadedConfig } from '../../config/types.js';
import type { Baseline } from '../../compare/baseline.js';
import { DEFAULT_TOLERANCE } from '../../compare/compare.js';
import { baselineToCompare, gate } from '../../compare/gate.js';
import { configFingerprint } from '../../plan/fingerprint.js';
import { planJobs, type Plan } from '../../plan/plan.js';
import { jobKeyOf, jobKeyString } from '../../plan/shard.js';
import type { BlobInput } from '../../report/blob/collect.js';
import type { ReportManifest } from '../../report/manifest.js';
import { AxisError } from '../../util/errors.js';

export interface MergeGate {
  /** Loads the config the blobs ran with (when there is one) and checks their config hash. */
  check(blobs: readonly BlobInput[]): Promise<void>;
  verdict(manifest: ReportManifest): ReturnType<typeof gate>;
  /** Why the gate is narrower than `axis run`'s, for a note on stderr. */
  note(): string | undefined;
}

export async function prepareMergeGate(opts: {
  projectDir: string;
  cwd: string;
  config: string | undefined;
  compareBaseline: string | boolean | undefined;
}): Promise<MergeGate> {
  const hasConfig =
    opts.config !== undefined || CONFIG_NAMES.some((n) => existsSync(join(opts.projectDir, n)));
  const baseline: Baseline | undefined = await baselineToCompare(opts.projectDir, opts.compareBaseline);
  let loaded: LoadedConfig | undefined;
  let unverified: string | undefined;
  return {
    async check(blobs) {
      if (!hasConfig) return;
      const { loaded: config } = await loadConfigForReport({
        config: opts.config,
        cwd: opts.config === undefined ? opts.projectDir : opts.cwd,
        profile: undefined,
        subject: `Blob ${blobs[0]!.shown}`,
        reportProfile: blobs[0]!.report.profile,
        proceed: 'Merge with the config the shards ran (-c <config>).',
      });
      if (configMatches(config, blobs)) loaded = config;
      else if (blobs.length < blobs[0]!.manifest.shard.total)
        // The missing shards' jobs are unknown, so a filtered run cannot be checked. The report is
        // incomplete (exit 1) anyway; it is only not held to minimums that may not be its own.
        unverified =
          `Thresholds of ${config.configPath} not applied: with shards missing, the blobs' config hash ` +
          `cannot be checked against it.${toleranceNote(config, baseline)}`;
      else throw mismatch(config, blobs);
    },
    verdict: (manifest) => gate(manifest, loaded, loaded?.scenarios ?? [], baseline),
    note: () =>
      unverified ??
      (hasConfig
        ? undefined
        : 'No AXIS config here (pass -c <config>): the merged report is gated on failed pairs' +
          `${baseline ? ' and the baseline' : ''} only, not on thresholds.`),
  };
}

/** The tolerance is a threshold too: say when the comparison uses the default instead of the config's. */
function toleranceNote(config: LoadedConfig, baseline: Baseline | undefined): string {
  const own = config.config.settings.thresholds.baseline_tolerance;
  if (!baseline || own === DEFAULT_TOLERANCE) return '';
  const points = `${DEFAULT_TOLERANCE} point${DEFAULT_TOLERANCE === 1 ? '' : 's'}`;
  return ` So the baseline is compared with the default tolerance (${points}), not its baseline_tolerance (${own}).`;
}

/**
 * The whole plan the shards split, rebuilt from the config: restricted to the jobs the blobs name (the
 * run's filters are not recorded, its jobs are), or with `wanted` undefined the unfiltered plan.
 */
function shardedPlan(loaded: LoadedConfig, blobs: readonly BlobInput[], wanted?: Set<string>): Plan {
  const report = blobs[0]!.report;
  const config = loaded.config;
  const full = planJobs({
    config: { ...config, settings: { ...config.settings, runs: report.settings.runs } },
    scenarios: loaded.scenarios,
  });
  if (!wanted) return full;
  const jobs = full.jobs
    .filter((j) => wanted.has(jobKeyString(jobKeyOf(j))))
    .map((j, index) => ({ ...j, index }));
  const skipped = new Set(report.skippedScenarios ?? []);
  return {
    ...full,
    jobs,
    scenarios: full.scenarios.filter((s) => jobs.some((j) => j.scenario === s)),
    agents: full.agents.filter((a) => jobs.some((j) => j.agent === a)),
    skipped: full.skipped.filter((s) => skipped.has(s.key)),
  };
}

function configMatches(loaded: LoadedConfig, blobs: readonly BlobInput[]): boolean {
  const inBlobs = blobs[0]!.manifest.configHash;
  const wanted = new Set(blobs.flatMap((b) => b.manifest.jobs.map(jobKeyString)));
  if (configFingerprint(loaded, shardedPlan(loaded, blobs, wanted)) === inBlobs) return true;
  // With shards missing, the common case (no filters) can still be checked.
  return (
    blobs.length < blobs[0]!.manifest.shard.total &&
    configFingerprint(loaded, shardedPlan(loaded, blobs)) === inBlobs
  );
}

function mismatch(loaded: LoadedConfig, blobs: readonly BlobInput[]): AxisError {
  const inBlobs = blobs[0]!.manifest.configHash;
  const wanted = new Set(blobs.flatMap((b) => b.manifest.jobs.map(jobKeyString)));
  const plan = shardedPlan(loaded, blobs, wanted);
  const here = configFingerprint(loaded, plan);
  return new AxisError(
    `axis reports merge: the blobs were not run with ${loaded.configPath}: config hash ` +
      `${inBlobs.slice(0, 12)} in the blobs, ${here.slice(0, 12)} for this config.\n` +
      'Its thresholds would gate the wrong suite. Merge in the checkout the shards ran ' +
      '(or pass -c <that config>), or outside any project to gate on failed pairs only.' +
      (loaded.config.scenarios.some((s) => 'remote' in s && s.remote)
        ? '\nThe commit of each remote source counts: a branch that moved since the shards ran ' +
          'changes the hash (pin remote sources to a tag or commit).'
        : '') +
      missingTapes(loaded, plan),
    { exitCode: 2 },
  );
}

/** A tape's content counts in the hash: one gone from this checkout is the likely cause, so name it. */
function missingTapes(loaded: LoadedConfig, plan: Plan): string {
  if (!loaded.config.settings.simulate) return '';
  const gone = [...new Set(plan.scenarios.map((s) => s.tape))].filter((t) => !existsSync(t));
  if (gone.length === 0) return '';
  const what = gone.length === 1 ? 'a tape of this config is' : 'tapes of this config are';
  return `\nSimulate is on and ${what} missing here (a tape's content counts in the hash): ${gone.join(', ')}`;
}
