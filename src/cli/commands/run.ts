/**
 * `axis run`: a thin layer over `run()`. Parses flags, resolves `--failed`, installs the Ctrl-C handler,
 * prints one line per finished job and the summary (or one JSON document with --json).
 */
import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { loadConfig } from '../../config/load.js';
import {
  failedPairs,
  readManifest,
  resolveReportId,
  writeFileAtomic,
  type ReportManifest,
  type StoreFailure,
} from '../../report/store.js';
import { EXIT_CODES, installInterruptHandler, type InterruptSignal } from '../../runner/cleanup.js';
import type { JobRef, RunEvent } from '../../runner/events.js';
import { totalTokens, type JobResult, type JobStatus } from '../../runner/job-result.js';
import { parseConcurrency } from '../../runner/pool.js';
import { parseRuns, run, type RunOutcome } from '../../runner/run.js';
import { createScoringStage } from '../../scoring/stage.js';
import { scoreText, type ScoredSummary } from '../../scoring/report.js';
import { pairCountsText, pairRunsText, reliabilityOfSummary, reliabilityText } from '../../scoring/runs.js';
import { AxisError } from '../../util/errors.js';
import { formatCount } from '../../util/number.js';
import { plural } from '../../report/format.js';

export interface RunCommandOptions {
  config?: string;
  profile?: string;
  scenario?: string;
  agent?: string;
  tag?: string;
  refreshSkills?: boolean;
  concurrency?: string;
  runs?: string;
  /** `true` for a bare `--failed` (latest report). */
  failed?: string | boolean;
  json?: boolean;
  verbose?: boolean;
  debug?: boolean;
  outputDir?: string;
  /** false with --no-score: deterministic checks only, no judges. */
  score?: boolean;
  /** false with --no-cache: judges are asked even when their answer is cached. */
  cache?: boolean;
}

export default async function runCommand(opts: RunCommandOptions): Promise<number> {
  const cwd = process.cwd();
  if (
    opts.failed !== undefined &&
    (opts.scenario !== undefined || opts.agent !== undefined || opts.tag !== undefined)
  ) {
    throw new AxisError(
      '--failed cannot be combined with -s/--scenario, -a/--agent or -t/--tag: it re-runs exactly the failed pairs',
      {
        exitCode: 2,
      },
    );
  }
  // Bad numbers fail before anything is loaded.
  const concurrency =
    opts.concurrency !== undefined ? parseConcurrency(opts.concurrency, '--concurrency') : undefined;
  const runs = opts.runs !== undefined ? parseRuns(opts.runs) : undefined;

  const loaded = await loadConfig(opts.config, {
    ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
    cwd,
  });
  const out = (text: string) => {
    if (!opts.json) process.stdout.write(text);
  };

  let only: { scenarioKey: string; agentName: string }[] | undefined;
  let rerunOf: string | undefined;
  if (opts.failed !== undefined) {
    rerunOf = await resolveReportId(
      loaded.configDir,
      typeof opts.failed === 'string' ? opts.failed : undefined,
    );
    const previous = await readManifest(loaded.configDir, rerunOf);
    only = failedPairs(previous);
    if (only.length === 0) {
      const message = `Report ${rerunOf} has no failed pairs: nothing to re-run.\n`;
      if (opts.json) process.stdout.write(`${JSON.stringify({ rerunOf, results: [] }, null, 2)}\n`);
      else process.stdout.write(message);
      return 0;
    }
    out(`Re-running ${only.length} failed pair(s) of report ${rerunOf}\n`);
  }

  const controller = new AbortController();
  let interruptedBy: InterruptSignal | undefined;
  const uninstall = installInterruptHandler({
    controller,
    onFirst: (signal) => {
      interruptedBy = signal;
      process.stderr.write(
        `\n${signal} received: stopping running jobs, cancelling the rest; finished results are kept and the report is still written.\n` +
          `Press Ctrl-C again to exit immediately.\n`,
      );
    },
    onForce: (signal) =>
      process.stderr.write(`\n${signal} again: killing every agent process and exiting.\n`),
  });

  // Fails here (exit 2) when the configured judge lacks credentials: before any agent runs.
  const scoring = createScoringStage({
    loaded,
    score: opts.score !== false,
    cache: opts.cache !== false,
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  const render = createRenderer({ json: opts.json ?? false, cwd, color: colorOn() });
  let outcome: RunOutcome;
  try {
    outcome = await run({
      config: loaded,
      cwd,
      ...(opts.scenario !== undefined ? { scenarios: opts.scenario } : {}),
      ...(opts.agent !== undefined ? { agents: opts.agent } : {}),
      ...(opts.tag !== undefined ? { tags: opts.tag } : {}),
      only,
      rerunOf,
      concurrency,
      runs,
      signal: controller.signal,
      onEvent: render,
      debug: opts.debug ?? false,
      verbose: (opts.verbose ?? false) || (opts.debug ?? false),
      afterAgent: scoring.afterAgent,
    });
  } catch (err) {
    // Ctrl-C before any job ran (during beforeAll): the signal's exit code, not a failure's.
    if (!interruptedBy) throw err;
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_CODES[interruptedBy];
  } finally {
    uninstall();
  }

  const reportRel = displayPath(cwd, outcome.reportDir);
  const doc = { ...outcome.manifest, reportDir: reportRel };
  if (opts.outputDir) {
    const dir = resolve(cwd, opts.outputDir);
    await mkdir(dir, { recursive: true });
    const file = join(dir, `axis-report-${outcome.reportId}.json`);
    await writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
    out(`Manifest also written to ${displayPath(cwd, file)}\n`);
  }
  if (opts.json) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  else {
    const configArg = opts.config ? ` -c ${opts.config}` : '';
    out(summaryText(outcome.manifest, reportRel, outcome.afterAllError, configArg, outcome.lost));
  }
  if (outcome.lost.length > 0 && opts.json) {
    // --json keeps stdout one document; the lost parts go to stderr.
    const list = outcome.lost.map((f) => `  lost: ${f.path}: ${f.message}`).join('\n');
    process.stderr.write(`Report NOT fully saved: ${reportRel}\n${list}\n`);
  }
  if (outcome.afterAllError) process.stderr.write(`${outcome.afterAllError}\n`);

  if (interruptedBy) return EXIT_CODES[interruptedBy];
  return outcome.exitCode;
}

// ---------------------------------------------------------------------------------------------
// Terminal output

const ICONS: Record<JobStatus, string> = {
  completed: '✓',
  failed: '✗',
  limit_exceeded: '✗',
  timeout: '✗',
  cancelled: '○',
};

function colorOn(): boolean {
  return Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

function paint(on: boolean, code: number, text: string): string {
  return on ? `\u001b[${code}m${text}\u001b[0m` : text;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}

const num = formatCount;

/** First line of a reason, at most `max` characters. */
function shortReason(reason: string, max = 200): string {
  const line = reason.split('\n').find((l) => l.trim()) ?? reason;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

interface RendererOptions {
  json: boolean;
  cwd: string;
  color: boolean;
}

/** Turns run events into terminal lines: job lines on stdout, logs on stderr. */
export function createRenderer(opts: RendererOptions): (event: RunEvent) => void {
  let keyWidth = 10;
  let agentWidth = 10;
  const label = (job: JobRef) => (job.runs > 1 ? `${job.agentName} #${job.run}/${job.runs}` : job.agentName);
  return (event) => {
    switch (event.type) {
      case 'run_started': {
        keyWidth = Math.max(10, ...event.jobs.map((j) => j.scenarioKey.length));
        agentWidth = Math.max(10, ...event.jobs.map((j) => label(j).length));
        if (opts.json) return;
        const parts = [
          `${event.scenarios} scenario${event.scenarios === 1 ? '' : 's'}`,
          `${event.agents} agent${event.agents === 1 ? '' : 's'}`,
          `${event.jobs.length} job${event.jobs.length === 1 ? '' : 's'}`,
          `concurrency ${event.concurrency}`,
        ];
        if (event.simulate) parts.push('simulator');
        process.stdout.write(`AXIS: ${parts.join(' · ')}\n`);
        return;
      }
      case 'job_finished': {
        if (opts.json) return;
        process.stdout.write(`${jobLine(event.result, keyWidth, agentWidth, opts.color)}\n`);
        return;
      }
      case 'log': {
        const where = event.job ? `[${event.job.scenarioKey} · ${label(event.job)}] ` : '';
        const prefix = event.level === 'warn' ? 'warning: ' : '';
        process.stderr.write(`${prefix}${where}${event.message}\n`);
        return;
      }
      default:
        return;
    }
  };

  function jobLine(r: JobResult, kw: number, aw: number, color: boolean): string {
    const ok = r.status === 'completed';
    const icon = paint(color, ok ? 32 : r.status === 'cancelled' ? 33 : 31, ICONS[r.status]);
    const name = r.runs > 1 ? `${r.agentName} #${r.run}/${r.runs}` : r.agentName;
    const cols = [
      `  ${icon} ${r.scenarioKey.padEnd(kw)}`,
      name.padEnd(aw),
      r.status.padEnd(14),
      formatDuration(r.durationMs).padStart(7),
      `${num(totalTokens(r.transcript.usage))} tokens`.padStart(14),
    ];
    let line = cols.join('  ');
    if (r.reason)
      line += `  ${r.errorClass && r.errorClass !== r.status ? `${r.errorClass}: ` : ''}${shortReason(r.reason)}`;
    // The score goes on its own indented line (failed runs say it all on the first).
    if (r.score && r.score.status !== 'failed') line += `\n      ${scoreText(r.score)}`;
    return line;
  }
}

export function summaryText(
  m: ReportManifest,
  reportRel: string,
  afterAllError?: string,
  configArg = '',
  lost: readonly StoreFailure[] = [],
): string {
  const s = m.summary;
  const tokens = m.results.reduce((n, r) => n + r.runs.reduce((k, x) => k + totalTokens(x.tokenUsage), 0), 0);
  const lines = ['', `${pairCountsText(s)} · ${formatDuration(m.durationMs)} · ${num(tokens)} tokens`];
  if (m.incomplete) {
    const cancelled = m.results.reduce(
      (n, r) => n + r.runs.filter((x) => x.status === 'cancelled').length,
      0,
    );
    lines.push(`Run incomplete: ${cancelled} job${cancelled === 1 ? '' : 's'} cancelled.`);
  }
  // Repeated pairs: the headline (the representative run) and the same runs line as `axis reports`.
  for (const e of m.results.filter((r) => r.runs.length > 1)) {
    const head = e.score?.status === 'scored' ? `AXIS ${e.score.axisScore}` : e.status;
    lines.push(`  ${e.scenarioKey} · ${e.agentName}: ${head} · ${pairRunsText(e)}`);
  }
  if (s.scores) lines.push(scoreSummaryText(s.scores));
  if (afterAllError) lines.push('afterAll failed (see below); the report was kept.');
  if (lost.length > 0) {
    lines.push(
      `Report NOT fully saved: ${reportRel} (${plural(lost.length, 'part')} could not be written, below)`,
    );
    for (const f of lost) lines.push(`  lost: ${f.path}: ${f.message}`);
  } else lines.push(`Report saved: ${reportRel}`);
  lines.push(
    `  report.json (summary), report.html (open in a browser), scenarios/ (each run's detail and raw output)`,
  );
  lines.push(
    `View it: axis reports ${m.reportId}${configArg}   ·   in a browser: axis reports ${m.reportId}${configArg} --html`,
  );
  return `${lines.join('\n')}\n`;
}

function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') ? rel : abs;
}

function scoreSummaryText(s: ScoredSummary): string {
  const parts = [`Average AXIS Result: ${s.averageAxisScore ?? '–'} (${s.scored} scored`];
  if (s.unscored) parts.push(`, ${s.unscored} unscored`);
  if (s.failed) parts.push(`, ${s.failed} failed`);
  parts.push(')');
  if (s.runs) parts.push(` · ${reliabilityText(reliabilityOfSummary(s))}`);
  const j = s.judge;
  if (j.runs > 0) {
    const cost = j.costUsd !== undefined ? ` · $${j.costUsd.toFixed(4)}` : '';
    const cached = j.cached ? ` · ${j.cached} cached` : '';
    parts.push(
      ` · judge ${j.judges.join(', ')}: ${num(j.tokens.input + j.tokens.output)} tokens${cost}${cached}`,
    );
  }
  return parts.join('');
}
