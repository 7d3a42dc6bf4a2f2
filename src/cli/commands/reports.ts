/**
 * `axis reports [reportId] [scenarioKey]`: the list of reports, one report's scored summary, or one
 * scenario's per-run detail. Reads `.axis/reports/` only: the config is never loaded, so a broken
 * config cannot stop anyone reading old reports.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { formatReport } from '../../report/format.js';
import { formatReportList } from '../../report/format-list.js';
import { formatScenario } from '../../report/format-scenario.js';
import { filterReportByAgent } from '../../report/filter.js';
import type { ReportManifest } from '../../report/manifest.js';
import {
  findProjectDir,
  listReports,
  projectPath,
  readReport,
  readScenario,
  reportDir,
  resolveReport,
  warnIfScorePending,
} from '../../report/read.js';
import { reportsDir } from '../../report/locate.js';
import { colorEnabled } from '../../util/color.js';
import { AxisError } from '../../util/errors.js';
import { parseLimit } from '../limit.js';
import { configFlag } from '../config-flag.js';

export interface ReportsCommandOptions {
  config?: string;
  agent?: string;
  json?: boolean;
  html?: boolean;
  limit?: string;
}

export default async function reportsCommand(
  reportId: string | undefined,
  scenarioKey: string | undefined,
  opts: ReportsCommandOptions,
): Promise<number> {
  // The spec: `axis reports` lists every report; -n caps the list.
  const limit = parseLimit(opts.limit, Number.POSITIVE_INFINITY);
  checkOptions(reportId, scenarioKey, opts);
  const projectDir = findProjectDir(process.cwd(), opts.config);
  const color = colorOn();
  if (reportId === undefined && !opts.html) return printList(projectDir, limit, opts, color);

  const id = await resolveReport(projectDir, reportId ?? 'latest');
  const dir = reportDir(projectDir, id);
  warnIfScorePending(dir, id);
  if (opts.html) {
    const { writeReportHtml } = await import('../../report/html/write.js');
    const html = join(dir, 'report.html');
    const path = projectPath(projectDir, await writeReportHtml(dir));
    const opened = openInBrowser(html);
    print(`${path}\n${opened ? `Opening it with ${opened}.\n` : ''}`);
    return 0;
  }

  const manifest = await readReport(projectDir, id);
  if (scenarioKey === undefined) {
    const htmlWritten = existsSync(join(dir, 'report.html'));
    return printReport(manifest, projectPath(projectDir, dir), opts, { color, htmlWritten });
  }
  const pairs = await readScenario(projectDir, manifest, scenarioKey, opts.agent);
  if (opts.json) {
    const details = pairs.flatMap((pair) =>
      pair.runs.map((r) => r.detail ?? { ...r.summary, unavailable: r.detailError ?? 'no detail file' }),
    );
    print(`${JSON.stringify(details.length === 1 ? details[0] : details, null, 2)}\n`);
    return 0;
  }
  print(formatScenario(id, pairs, { color }));
  return 0;
}

function print(text: string): void {
  process.stdout.write(text);
}

/** Options that cannot go together, or not without a report id. */
function checkOptions(
  reportId: string | undefined,
  scenarioKey: string | undefined,
  opts: ReportsCommandOptions,
): void {
  if (opts.html && opts.json) throw new AxisError('--html and --json cannot be combined.', { exitCode: 2 });
  if (opts.html && scenarioKey !== undefined)
    throw new AxisError(
      '--html opens a whole report: drop the scenario key (axis reports <reportId> --html).',
      { exitCode: 2 },
    );
  if (opts.agent !== undefined && reportId === undefined)
    throw new AxisError(
      '-a/--agent narrows one report: axis reports <reportId|latest> [scenarioKey] -a <agent>.',
      { exitCode: 2 },
    );
  if (opts.limit !== undefined && (reportId !== undefined || opts.html))
    throw new AxisError(
      '-n/--limit caps the list of reports (axis reports -n <count>); drop it to show one report.',
      { exitCode: 2 },
    );
  if (opts.agent !== undefined && opts.html)
    throw new AxisError('--html opens the whole report; filter by agent inside the page instead.', {
      exitCode: 2,
    });
}

/** The latest reports, newest first. */
async function printList(
  projectDir: string,
  limit: number,
  opts: ReportsCommandOptions,
  color: boolean,
): Promise<number> {
  const list = await listReports(projectDir, limit);
  if (opts.json) {
    print(`${JSON.stringify(list.reports, null, 2)}\n`);
    return 0;
  }
  if (list.total === 0) {
    print('No reports found. Run `axis run` to generate one.\n');
    return 0;
  }
  print(
    formatReportList(list.reports, list.total, `${projectPath(projectDir, reportsDir(projectDir))}/`, {
      color,
      configArg: configArg(opts),
    }),
  );
  return 0;
}

/** One report's summary, narrowed to one agent with -a. */
function printReport(
  manifest: ReportManifest,
  where: string,
  opts: ReportsCommandOptions,
  view: { color: boolean; htmlWritten: boolean },
): number {
  // The gate folds to the terminal's width; to 80 in a pipe or a CI log.
  const columns = process.stdout.isTTY ? process.stdout.columns : undefined;
  const fmt = { ...view, configArg: configArg(opts), ...(columns ? { width: columns } : {}) };
  if (opts.agent === undefined) {
    print(opts.json ? `${JSON.stringify(manifest, null, 2)}\n` : formatReport(manifest, where, fmt));
    return 0;
  }
  const narrowed = filterReportByAgent(manifest, opts.agent);
  if (opts.json) {
    print(`${JSON.stringify({ ...narrowed.manifest, filter: { agent: opts.agent } }, null, 2)}\n`);
    return 0;
  }
  print(
    `Agent filter "${opts.agent}": ${narrowed.kept} of ${narrowed.total} pairs; counts and averages below cover these pairs only` +
      `${manifest.summary.scores?.judge?.runs ? " (judge totals are the whole report's)" : ''}.\n\n`,
  );
  print(formatReport(narrowed.manifest, where, fmt));
  return 0;
}

const configArg = (opts: ReportsCommandOptions): string => configFlag(opts.config);

const colorOn = (): boolean => colorEnabled(process.stdout, process.env);

/**
 * Opens `file` with the platform's opener when a browser can plausibly be shown: `open` on macOS,
 * `start` on Windows, `xdg-open` on Linux with a display (or $BROWSER). Never waits for the opener and
 * never fails: returns the opener's name, or null when none was started.
 */
export function openInBrowser(file: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CI) return null;
  let cmd: string;
  let args: string[];
  if (process.platform === 'darwin') {
    cmd = 'open';
    args = [file];
  } else if (process.platform === 'win32') {
    cmd = 'cmd';
    args = ['/c', 'start', '""', file];
  } else {
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY && !env.BROWSER) return null;
    if (!onPath('xdg-open', env.PATH ?? '')) return null;
    cmd = 'xdg-open';
    args = [file];
  }
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env });
    child.on('error', () => {});
    child.unref();
    return cmd === 'cmd' ? 'start' : cmd;
  } catch {
    return null;
  }
}

function onPath(name: string, path: string): boolean {
  return path.split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
}
