/**
 * `axis baseline set|list|show|compare|delete`: thin shells over src/compare. Baselines live in
 * `<project>/.axis/baselines/<name>.json`; only `compare` loads the config (for
 * `settings.thresholds.baseline_tolerance`), and only when there is one.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  mergeBaseline,
  DEFAULT_BASELINE_NAME,
  type Baseline,
  type MergeOutcome,
  type PairName,
} from '../../compare/baseline.js';
import {
  deleteBaseline,
  listBaselines,
  readBaseline,
  requireBaseline,
  withBaselineLock,
  writeBaseline,
} from '../../compare/baseline-store.js';
import { compare, DEFAULT_TOLERANCE } from '../../compare/compare.js';
import { requireComparable, requireWholeRun } from '../../compare/pair-data.js';
import { formatComparison } from '../../compare/format.js';
import { CONFIG_NAMES } from '../../config/find.js';
import { loadConfigForReport } from '../report-profile.js';
import { formatDuration, oneLine } from '../../report/format.js';
import {
  findProjectDir,
  projectPath,
  readReport,
  reportDir,
  resolveReport,
  warnIfScorePending,
} from '../../report/read.js';
import type { ReportManifest } from '../../report/manifest.js';
import { AxisError } from '../../util/errors.js';
import { reliabilityPercent } from '../../scoring/runs.js';
import { padEndWidth, textWidth } from '../../util/width.js';
import { configFlag } from '../config-flag.js';

export interface BaselineOptions {
  config?: string;
  from?: string;
  report?: string;
  json?: boolean;
  replace?: boolean;
  /** compare: the profile whose tolerance applies (default: the report's). */
  profile?: string;
}

const say = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const json = (value: unknown) => say(JSON.stringify(value, null, 2));

/**
 * The report a command reads: `latest` by default. An unknown id, or no report at all, is bad input
 * (exit 2): exit 1 would read as a regression in CI.
 */
async function reportFor(dir: string, id: string | undefined): Promise<ReportManifest> {
  let resolved: string;
  try {
    resolved = await resolveReport(dir, id ?? 'latest');
  } catch (err) {
    if (err instanceof AxisError) throw new AxisError(err.message, { exitCode: 2 });
    throw err;
  }
  warnIfScorePending(reportDir(dir, resolved), resolved);
  const manifest = await readReport(dir, resolved);
  requireComparable(manifest.results, projectPath(dir, join(reportDir(dir, resolved), 'report.json')));
  requireWholeRun(manifest, 'for baselines');
  return manifest;
}

export async function setCommand(name: string | undefined, opts: BaselineOptions): Promise<number> {
  const dir = findProjectDir(process.cwd(), opts.config);
  const baselineName = name ?? DEFAULT_BASELINE_NAME;
  const { existing, manifest, outcome, path } = await withBaselineLock(dir, baselineName, () =>
    saveInto(dir, baselineName, opts),
  );
  // Saved all the same (a user may want it), but never silently: stderr, and a field in --json.
  const warning = incompleteWarning(manifest);
  if (warning) process.stderr.write(`warning: ${warning}\n`);
  if (opts.json) {
    const { merged, skipped, kept, dropped } = outcome;
    json({
      baseline: baselineName,
      file: projectPath(dir, path),
      fromReportId: manifest.reportId,
      ...(warning ? { warning } : {}),
      merged,
      skipped,
      kept,
      dropped,
    });
    return 0;
  }
  say(setSummary(outcome, manifest.reportId, existing !== undefined, projectPath(dir, path)));
  return 0;
}

/** Reads the baseline and the report, merges and writes; the caller holds the baseline's lock. */
async function saveInto(dir: string, baselineName: string, opts: BaselineOptions) {
  const existing = await existingBaseline(dir, baselineName, opts.replace === true);
  const manifest = await reportFor(dir, opts.from);
  const outcome = mergeBaseline(existing, manifest, baselineName, new Date(), { replace: opts.replace });
  const { merged, skipped } = outcome;
  if (merged.length === 0)
    throw new AxisError(
      `Report ${manifest.reportId} has no pair with a scored AXIS Result: nothing to save in baseline "${baselineName}".` +
        skipped
          .map(
            (s) =>
              `\n  ${oneLine(s.scenarioKey, 80)} · ${oneLine(s.agentName, 60)}: ${oneLine(s.reason, 200)}`,
          )
          .join(''),
    );
  const path = await writeBaseline(dir, outcome.baseline);
  return { existing, manifest, outcome, path };
}

/** A report stopped by a run limit or Ctrl-C: its pairs hold only the runs that finished. */
function incompleteWarning(m: ReportManifest): string | undefined {
  if (!m.incomplete) return undefined;
  const runs = m.results.flatMap((e) => e.runs ?? []);
  const completed = runs.filter((r) => r.status === 'completed').length;
  return (
    `report ${m.reportId} is incomplete (${oneLine(m.incompleteReason ?? 'the run did not finish', 200)}; ` +
    `${completed} of ${runs.length} runs completed): its pairs in the baseline hold only the runs that finished`
  );
}

/** The baseline `set` updates; with --replace an unreadable file is simply overwritten. */
async function existingBaseline(dir: string, name: string, replace: boolean): Promise<Baseline | undefined> {
  try {
    return await readBaseline(dir, name);
  } catch (err) {
    if (replace && err instanceof AxisError) return undefined;
    throw err;
  }
}

function setSummary(outcome: MergeOutcome, reportId: string, updated: boolean, file: string): string {
  const { merged, skipped, kept, dropped } = outcome;
  const scenarios = new Set(merged.map((m) => m.scenarioKey)).size;
  const agents = new Set(merged.map((m) => m.agentName)).size;
  const lines = [
    `Baseline "${outcome.baseline.name}" ${updated ? 'updated' : 'created'}: ${merged.length} pair${merged.length === 1 ? '' : 's'} ` +
      `(${scenarios} scenario${scenarios === 1 ? '' : 's'}, ${agents} agent${agents === 1 ? '' : 's'}) from report ${reportId}`,
    `Written: ${file} (commit it to share the baseline)`,
  ];
  if (skipped.length)
    lines.push(
      `Not included (no scored AXIS Result):`,
      ...skipped.map(
        (s) => `  ${oneLine(s.scenarioKey, 80)} · ${oneLine(s.agentName, 60)}: ${oneLine(s.reason, 200)}`,
      ),
    );
  // A pair the report ran but could not score is in it: only the others are "not in this report".
  const unscored = new Set(skipped.map(pairKey));
  const groups = (pairs: readonly PairName[], head: string, tail = '') =>
    (['not in', 'not scored in'] as const).flatMap((where) => {
      const some = pairs.filter((p) => unscored.has(pairKey(p)) === (where === 'not scored in'));
      return some.length ? [`${head}, ${where} this report${tail}:`, ...pairLines(some)] : [];
    });
  lines.push(...groups(kept, 'Kept from before', ' (--replace drops them)'), ...groups(dropped, 'Dropped'));
  return lines.join('\n');
}

const pairKey = (p: PairName) => JSON.stringify([p.scenarioKey, p.agentName]);

/** At most 20 pairs by name, then how many more. */
function pairLines(pairs: readonly PairName[]): string[] {
  const shown = pairs
    .slice(0, 20)
    .map((p) => `  ${oneLine(p.scenarioKey, 80)} · ${oneLine(p.agentName, 60)}`);
  return pairs.length > 20 ? [...shown, `  ... and ${pairs.length - 20} more`] : shown;
}

export async function listCommand(opts: BaselineOptions): Promise<number> {
  const dir = findProjectDir(process.cwd(), opts.config);
  const list = await listBaselines(dir);
  // An unreadable file is exit 2 in both modes: a script must not read it as a clean list.
  const code = list.some((b) => b.error) ? 2 : 0;
  if (opts.json) {
    json(list);
    return code;
  }
  if (list.length === 0) {
    say(
      `No baselines in ${projectPath(dir, join(dir, '.axis/baselines'))}. Save one with \`axis baseline set${configFlag(opts.config)}\`.`,
    );
    return 0;
  }
  const rows = [['Name', 'Updated', 'Scenarios', 'Agents', 'Pairs']];
  for (const b of list)
    rows.push(
      b.error
        ? [b.name, `unreadable: ${oneLine(b.error, 120)}`, '', '', '']
        : [b.name, stamp(b.updatedAt), String(b.scenarios), String(b.agents), String(b.pairs)],
    );
  say(table(rows));
  return code;
}

export async function showCommand(name: string | undefined, opts: BaselineOptions): Promise<number> {
  const dir = findProjectDir(process.cwd(), opts.config);
  const b = await requireBaseline(dir, name ?? DEFAULT_BASELINE_NAME);
  if (opts.json) {
    json(b);
    return 0;
  }
  say(
    `Baseline "${b.name}" · created ${stamp(b.createdAt)} · updated ${stamp(b.updatedAt)}\n\n${showTable(b)}`,
  );
  return 0;
}

function showTable(b: Baseline): string {
  const n = (v: number | null) => (v === null ? 'n/a' : String(Math.round(v)));
  const rows = [
    [
      'Scenario',
      'Agent',
      'AXIS',
      'Goal',
      'Env.',
      'Svc.',
      'Agent',
      'Duration',
      'Runs',
      'σ',
      'Reliability',
      'Report',
    ],
  ];
  for (const key of Object.keys(b.results).sort())
    for (const agent of Object.keys(b.results[key]!).sort()) {
      const p = b.results[key]![agent]!;
      rows.push([
        oneLine(key, 60),
        oneLine(agent, 40),
        String(p.axisScore),
        n(p.goalAchievement),
        n(p.environment),
        n(p.service),
        n(p.agent),
        formatDuration(p.durationMs),
        String(p.runs),
        p.sigma === undefined ? '–' : p.sigma.toFixed(1),
        p.reliability === null ? '–' : reliabilityPercent(p.reliability),
        oneLine(p.fromReportId, 40),
      ]);
    }
  return table(rows);
}

export async function compareCommand(name: string | undefined, opts: BaselineOptions): Promise<number> {
  const dir = findProjectDir(process.cwd(), opts.config);
  const b = await requireBaseline(dir, name ?? DEFAULT_BASELINE_NAME);
  const manifest = await reportFor(dir, opts.report);
  const c = compare(b, manifest, { tolerance: await toleranceOf(dir, opts, manifest) });
  if (opts.json) json(c);
  else say(formatComparison(c));
  return c.regressed ? 1 : 0;
}

/**
 * `settings.thresholds.baseline_tolerance` of the project's config, when it has one, with `--profile` or
 * else the profile the report ran with: the tolerance `axis run --profile … --compare-baseline` used.
 */
async function toleranceOf(dir: string, opts: BaselineOptions, manifest: ReportManifest): Promise<number> {
  const { config } = opts;
  // `-c <dir>` names the project as the cwd would: a project without a config has the default.
  const namesFile = config !== undefined && !statSync(resolve(config)).isDirectory();
  if (!namesFile && !CONFIG_NAMES.some((n) => existsSync(join(dir, n)))) {
    if (opts.profile === undefined) return DEFAULT_TOLERANCE;
    throw new AxisError(
      `--profile ${oneLine(opts.profile, 64)}: there is no config in ${dir} to take its tolerance from (pass -c <config>).`,
      { exitCode: 2 },
    );
  }
  const { loaded } = await loadConfigForReport({
    config: config ?? dir,
    cwd: process.cwd(),
    profile: opts.profile,
    subject: `Report ${manifest.reportId}`,
    reportProfile: manifest.profile,
    proceed: 'Pass --profile <name> to compare it with the tolerance of a profile the config declares.',
  });
  return loaded.config.settings.thresholds.baseline_tolerance;
}

export async function deleteCommand(name: string | undefined, opts: BaselineOptions): Promise<number> {
  const dir = findProjectDir(process.cwd(), opts.config);
  const baselineName = name ?? DEFAULT_BASELINE_NAME;
  const path = await deleteBaseline(dir, baselineName);
  say(`Deleted baseline "${baselineName}" (${projectPath(dir, path)})`);
  return 0;
}

/** A time the baseline file holds, as text anyone may edit: one line, no control characters. */
const stamp = (iso: string) => oneLine(iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC'), 40);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => textWidth(r[c] ?? ''))));
  return rows
    .map((r) =>
      r
        .map((cell, c) => padEndWidth(cell, widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
