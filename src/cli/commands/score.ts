/**
 * `axis score [reportId]`: (re)scores a report's stored raw results with the current config's judge,
 * using the judge cache. Prints one line per run and the summary (or the manifest with --json).
 */
import { dirname, relative } from 'node:path';
import { findConfig } from '../../config/find.js';
import { loadConfig } from '../../config/load.js';
import type { LoadedConfig } from '../../config/types.js';
import { readManifest, resolveReportId } from '../../report/locate.js';
import { loadConfigForReport, reportProfileNote } from '../report-profile.js';
import { parseConcurrency } from '../../runner/pool.js';
import { lateTierUp } from '../../runner/tiering.js';
import { scoreText } from '../../report/scores.js';
import { rescoreReport, type RescoredRun } from '../../runner/rescore.js';
import { nothingScored } from '../../compare/verdict.js';
import { oneLine } from '../../report/format.js';
import { judgeCostText } from '../../report/cost-total.js';
import { foldedFailureLines, gateLines } from '../../report/verdict.js';

export interface ScoreCommandOptions {
  config?: string;
  profile?: string;
  /** false with --no-cache. */
  cache?: boolean;
  concurrency?: string;
  json?: boolean;
}

export default async function scoreCommand(
  reportId: string | undefined,
  opts: ScoreCommandOptions,
): Promise<number> {
  lateTierUp(); // the CLI's own process: see runner/tiering.ts
  const cwd = process.cwd();
  const concurrency =
    opts.concurrency !== undefined ? parseConcurrency(opts.concurrency, '--concurrency') : undefined;
  const { loaded, reportId: resolved } = await configAndReport(reportId, opts, cwd);
  const out = (text: string) => {
    if (!opts.json) process.stdout.write(text);
  };
  const line = (r: RescoredRun) =>
    out(
      `  ${r.scenarioKey}  ${r.runs > 1 ? `${r.agentName} #${r.run}/${r.runs}` : r.agentName}  ${scoreText(r.score)}\n`,
    );

  const outcome = await rescoreReport({
    loaded,
    ...(resolved !== undefined ? { reportId: resolved } : {}),
    cache: opts.cache !== false,
    ...(concurrency !== undefined ? { concurrency } : {}),
    onRun: line,
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  for (const s of outcome.skipped) process.stderr.write(`warning: ${s}\n`);
  for (const l of outcome.lost) process.stderr.write(`error: could not write ${l}\n`);
  // Every completed pair unscored (a wrong judge key, the judge down) measured nothing, as `axis run`'s
  // gate says; a run that could not be rescored keeps its old score: the command did not do all it was asked.
  const unscored = nothingScored(outcome.manifest.results);
  if (unscored !== undefined) process.stderr.write(`error: no run was scored: ${oneLine(unscored, 200)}\n`);
  const failed = unscored !== undefined || outcome.skipped.length > 0 || outcome.lost.length > 0;
  const exitCode = failed ? 1 : 0;

  const rel = relative(cwd, outcome.reportDir) || outcome.reportDir;
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...outcome.manifest, reportDir: rel }, null, 2)}\n`);
    return exitCode;
  }
  const s = outcome.manifest.summary.scores;
  const j = s?.judge;
  const parts = [
    `\nScored report ${outcome.reportId}: average AXIS Result ${s?.averageAxisScore ?? '–'}`,
    ` (${s?.scored ?? 0} scored, ${s?.unscored ?? 0} unscored, ${s?.failed ?? 0} failed)`,
  ];
  if (j && j.runs > 0)
    parts.push(
      `\nJudge ${j.judges.join(', ')}: ${j.calls} call(s), ${j.cached} cached, ` +
        `${j.tokens.input + j.tokens.output} tokens${judgeCostText(j) ? `, ${judgeCostText(j)}` : ''}`,
    );
  // The gate judged again on the new scores (regate.ts): what report.json now holds, as axis reports shows it.
  const v = outcome.manifest.verdict;
  if (v) parts.push(`\n${[...gateLines(v), ...foldedFailureLines(v)].join('\n')}`);
  parts.push(`\nReport updated: ${rel}/report.json\n`);
  if (outcome.skipped.length)
    parts.push(`${outcome.skipped.length} run(s) could not be rescored (see the warnings above).\n`);
  if (outcome.lost.length)
    parts.push(`${outcome.lost.length} file(s) could not be written (see the errors above).\n`);
  out(parts.join(''));
  return exitCode;
}

/**
 * The config, with `--profile` or else the profile the report was made with; then the report is resolved
 * once (`latest` may move while the config loads) and that id is the one rescored.
 */
async function configAndReport(
  reportId: string | undefined,
  opts: ScoreCommandOptions,
  cwd: string,
): Promise<{ loaded: LoadedConfig; reportId?: string }> {
  if (opts.profile !== undefined)
    return {
      loaded: await loadConfig(opts.config, { profile: opts.profile, cwd }),
      ...(reportId ? { reportId } : {}),
    };
  const configDir = dirname(findConfig(opts.config, cwd));
  const id = await resolveReportId(configDir, reportId);
  const reportProfile = (await readManifest(configDir, id)).profile;
  const { loaded, fromReport } = await loadConfigForReport({
    config: opts.config,
    cwd,
    profile: undefined,
    subject: `Report ${id}`,
    reportProfile,
    proceed: 'Pass --profile <name> to rescore it with a profile the config declares.',
  });
  if (fromReport) process.stderr.write(reportProfileNote(reportProfile!, id));
  return { loaded, reportId: id };
}
