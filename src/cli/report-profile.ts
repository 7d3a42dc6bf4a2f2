/**
 * The config a command re-deriving something of a stored report loads: with the profile the report was
 * made with (report.json `profile`), unless the command names one. Without this a rescore silently
 * dropped the profile's judge, weights and classify rules.
 */
import { loadConfig, type LoadConfigOptions } from '../config/load.js';
import { unknownProfileIssue } from '../config/profile-checks.js';
import type { LoadedConfig } from '../config/types.js';
import type { ReportManifest } from '../report/manifest.js';
import { parseRuns } from '../runner/run-steps.js';
import { AxisError, ConfigError, formatIssue } from '../util/errors.js';

export interface ReportConfigOptions {
  /** `-c`, as given. */
  config: string | undefined;
  cwd: string;
  /** `--profile`, as given: it wins over the report's. */
  profile: string | undefined;
  /** What was made with the profile, as the message starts: `Report <id>`, `Blob <file>`. */
  subject: string;
  /** report.json `profile`. */
  reportProfile: string | undefined;
  /** How to go on when the report's profile is gone, e.g. "Pass --profile <name> to rescore it …". */
  proceed: string;
  /** How the config is loaded; default loadConfig (`axis run` lists what its scenarios miss too). */
  load?: (path: string | undefined, options: LoadConfigOptions & { cwd: string }) => Promise<LoadedConfig>;
}

export interface ReportConfig {
  loaded: LoadedConfig;
  /** The profile applied came from the report (no `--profile`). */
  fromReport: boolean;
}

export async function loadConfigForReport(opts: ReportConfigOptions): Promise<ReportConfig> {
  const fromReport = opts.profile === undefined && opts.reportProfile !== undefined;
  const profile = opts.profile ?? opts.reportProfile;
  try {
    const loaded = await (opts.load ?? loadConfig)(opts.config, {
      cwd: opts.cwd,
      ...(profile !== undefined ? { profile } : {}),
    });
    return { loaded, fromReport };
  } catch (err) {
    const gone = fromReport ? unknownProfileIssue(err, profile!) : undefined;
    if (!gone) throw err;
    const others = (err as ConfigError).issues.filter((i) => i !== gone.issue);
    throw new AxisError(
      `${opts.subject} was made with profile ${JSON.stringify(profile)}, and ` +
        `${gone.issue.file} no longer declares it${gone.tail}. Nothing was changed. ${opts.proceed}` +
        (others.length
          ? `\nThe config has other problems too:\n${others.map((i) => `  ${formatIssue(i)}`).join('\n')}`
          : ''),
      { exitCode: 2 },
    );
  }
}

/** The stderr note of a profile taken from the report. */
export const reportProfileNote = (profile: string, reportId: string): string =>
  `note: using profile ${JSON.stringify(profile)} (the profile report ${reportId} was made with); --profile <name> picks another\n`;

/**
 * `axis run --failed` without `--runs`: the runs per pair the report ran (its `settings.runs`), so a
 * re-run repeats what failed as it ran; stderr says so when the config's number differs. A report's
 * value out of range is an error naming it (exit 2), never a run of that many.
 */
export function reportRuns(manifest: ReportManifest, reportId: string, loaded: LoadedConfig): number {
  const configured = loaded.config.settings.runs;
  if (manifest.settings?.runs === undefined) return configured;
  const runs = parseRuns(manifest.settings.runs, `report ${reportId}: settings.runs`);
  if (runs !== configured)
    process.stderr.write(
      `note: ${runs} run${runs === 1 ? '' : 's'} per pair, as report ${reportId} ran them ` +
        `(the config says ${configured}); --runs <n> picks another\n`,
    );
  return runs;
}
