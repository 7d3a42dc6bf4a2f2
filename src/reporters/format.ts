/**
 * Plain text shared by the terminal reporters: colours (NO_COLOR / FORCE_COLOR), durations, job labels,
 * the end-of-run summary table and one friendly cause per failed pair. Pure: data in, strings out.
 */
import { CROSS_INDENT, GATE_WIDTH, gateLines } from '../compare/verdict.js';
import { foldLine } from '../util/fold.js';
import type { PairVerdict, RunVerdict } from '../compare/verdict-types.js';
import type { ReportManifest, ReportResultEntry } from '../report/manifest.js';
import type { JobRef } from '../runner/events.js';
import type { StoreFailure } from '../report/store.js';
import { formatDuration as reportDuration, oneLine, pairStatusWord } from '../report/format.js';
import { totalTokens } from '../report/job-result.js';
import { judgeCostText } from '../report/cost-total.js';
import { pairCountsText, pairRunsText, reliabilityOfSummary, reliabilityText } from '../scoring/runs.js';
import { formatCount } from '../util/number.js';
import { padEndWidth, padStartWidth, textWidth } from '../util/width.js';

export { colorEnabled } from '../util/color.js';

export type Paint = (code: 'green' | 'red' | 'yellow' | 'dim' | 'bold' | 'cyan', text: string) => string;

const CODES = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
  cyan: [36, 39],
};

export function painter(on: boolean): Paint {
  return (code, text) => (on ? `\u001b[${CODES[code][0]}m${text}\u001b[${CODES[code][1]}m` : text);
}

/** The one duration text `axis reports` shows too. */
export const formatDuration = (ms: number): string => reportDuration(ms);

export const num = formatCount;

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `claude-code` or `claude-code #2/3`. */
export function jobLabel(job: Pick<JobRef, 'agentName' | 'run' | 'runs'>): string {
  return job.runs > 1 ? `${job.agentName} #${job.run}/${job.runs}` : job.agentName;
}

/** First non-empty line of a reason, at most `max` characters. */
export function shortReason(reason: string, max = 200): string {
  const line = reason.split('\n').find((l) => l.trim()) ?? reason;
  // Quoted agent output: an escape sequence must not reach the terminal.
  return oneLine(line, max);
}

/** `AXIS: 2 scenarios · 1 agent · 3 jobs · concurrency 2 · simulator`. */
export function headerText(run: {
  scenarios: number;
  agents: number;
  jobs: readonly unknown[];
  concurrency: number;
  simulate: boolean;
}): string {
  const parts = [
    plural(run.scenarios, 'scenario'),
    plural(run.agents, 'agent'),
    plural(run.jobs.length, 'job'),
    `concurrency ${run.concurrency}`,
  ];
  if (run.simulate) parts.push('simulator');
  return `AXIS: ${parts.join(' · ')}`;
}

/** The verdict's entry for a pair. */
export function pairVerdict(
  verdict: RunVerdict | undefined,
  entry: Pick<ReportResultEntry, 'scenarioKey' | 'agentName'>,
): PairVerdict | undefined {
  return verdict?.pairs.find((p) => p.scenarioKey === entry.scenarioKey && p.agent === entry.agentName);
}

/**
 * One plain sentence saying why a pair failed, or undefined when it did not: the run's own reason, for
 * a view that has no verdict. A cancelled pair did not fail: nobody let it finish.
 */
export function pairCause(entry: ReportResultEntry): string | undefined {
  if (entry.status === 'cancelled') return undefined;
  if (entry.status !== 'completed') {
    const failedRun = entry.runs.find((r) => r.status !== 'completed');
    const reason = failedRun?.reason ?? entry.reason ?? `the run ended with status ${entry.status}`;
    const which = entry.runs.length > 1 && failedRun ? `run ${failedRun.run}: ` : '';
    return `${which}${shortReason(reason, 160)}`;
  }
  if (entry.score?.status === 'failed') return shortReason(entry.score.reason ?? 'scoring failed', 160);
  return undefined;
}

/**
 * Pairs the gate fails that have no row in the report: a baseline pair missing from it. Every reporter
 * lists them beside the report's own failing pairs, so none drops a reason the exit code counts.
 */
export function gateOnlyPairs(m: Pick<ReportManifest, 'results'>, verdict?: RunVerdict): PairVerdict[] {
  const has = new Set(m.results.map((r) => `${r.scenarioKey}\u0000${r.agentName}`));
  return (verdict?.pairs ?? []).filter(
    (p) => p.failures.length > 0 && !has.has(`${p.scenarioKey}\u0000${p.agent}`),
  );
}

/**
 * Every failing pair with one sentence why. With a verdict, its pairs and reasons in its words (those
 * `axis reports`, JUnit and the annotations give); without one, each pair's own reason.
 */
export function failureCauses(
  m: ReportManifest,
  verdict?: RunVerdict,
): { scenarioKey: string; agent: string; cause: string }[] {
  if (verdict)
    return verdict.pairs
      .filter((p) => p.failures.length > 0)
      .map((p) => ({
        // A baseline pair the report lacks is named by the baseline file, which anyone may edit.
        scenarioKey: oneLine(p.scenarioKey, 160),
        agent: oneLine(p.agent, 160),
        cause: p.failures.map((f) => oneLine(f.message, 240)).join('; '),
      }));
  return m.results
    .map((r) => ({ scenarioKey: r.scenarioKey, agent: r.agentName, cause: pairCause(r) }))
    .filter((x): x is { scenarioKey: string; agent: string; cause: string } => !!x.cause);
}

const DASH = '–';
const cell = (v: number | null | undefined): string => (v === null || v === undefined ? DASH : String(v));
/** `n/a` for a dimension nothing in the run exercised, `–` for a number that does not exist. */
const dimCell = (d: { score: number | null; notApplicable?: boolean } | undefined): string =>
  d?.notApplicable ? 'n/a' : cell(d?.score);

/** Rows of the summary table: one per pair. */
export function summaryRows(m: ReportManifest): string[][] {
  return m.results.map((r) => {
    const s = r.score;
    const runs = r.runs.length > 1 ? ` (${r.runsCompleted}/${r.runs.length} runs)` : '';
    return [
      r.scenarioKey,
      r.agentName,
      `${pairStatusWord(r)}${runs}`,
      // A pair whose runs all failed has no score to show: a dash, as in `axis reports` and report.html.
      s?.status === 'scored' ? cell(s.axisScore) : DASH,
      dimCell(s?.goalAchievement),
      dimCell(s?.environment),
      dimCell(s?.service),
      dimCell(s?.agent),
    ];
  });
}

export const SUMMARY_HEAD = ['scenario', 'agent', 'status', 'AXIS', 'goal', 'env', 'service', 'agent'];

/** A left-aligned text table (numbers right-aligned), two spaces between columns, in display width. */
export function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: number[],
): string[] {
  const widths = head.map((h, i) => Math.max(textWidth(h), ...rows.map((r) => textWidth(r[i] ?? ''))));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (numeric.includes(i) ? padStartWidth(c, widths[i]!) : padEndWidth(c, widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

/** The end-of-run text: counts, the table, one cause per failed pair, where the report is. */
export function summaryText(
  m: ReportManifest,
  opts: {
    reportRel: string;
    afterAllError?: string;
    configArg?: string;
    lost?: readonly StoreFailure[];
    reportMissing?: boolean;
    verdict?: RunVerdict;
    paint?: Paint;
    /** The terminal's columns: the gate is folded to them (80 when unknown, as in a CI log). */
    width?: number;
  },
): string {
  const paint = opts.paint ?? painter(false);
  const width = opts.width ?? GATE_WIDTH;
  const s = m.summary;
  const tokens = m.results.reduce((n, r) => n + r.runs.reduce((k, x) => k + totalTokens(x.tokenUsage), 0), 0);
  const lines = ['', `${pairCountsText(s)} · ${formatDuration(m.durationMs)} · ${num(tokens)} tokens`];
  if (m.incomplete) {
    const cancelled = m.results.reduce(
      (n, r) => n + r.runs.filter((x) => x.status === 'cancelled').length,
      0,
    );
    // A merge with shards missing cancelled nothing: its reason says what is left out.
    const why =
      cancelled > 0 || !m.incompleteReason
        ? `${plural(cancelled, 'job')} cancelled`
        : oneLine(m.incompleteReason, 200).replace(/\.$/, '');
    lines.push(...foldLine(`Run incomplete: ${why}.`, width, 2));
  }
  if (m.results.length > 0) {
    lines.push('', ...table(SUMMARY_HEAD, summaryRows(m), [3, 4, 5, 6, 7]).map((l) => `  ${l}`));
  }
  // Repeated pairs: the headline (the representative run) and the same runs line as `axis reports`.
  const repeated = m.results.filter((r) => r.runs.length > 1);
  if (repeated.length) lines.push('');
  for (const e of repeated) {
    const head = e.score?.status === 'scored' ? `AXIS ${e.score.axisScore}` : pairStatusWord(e);
    lines.push(...foldLine(`  ${e.scenarioKey} · ${e.agentName}: ${head} · ${pairRunsText(e)}`, width, 4));
  }
  const causes = failureCauses(m, opts.verdict);
  if (causes.length) {
    lines.push('');
    for (const c of causes) lines.push(...causeLines(c, width, paint));
  }
  if (s.scores) lines.push('', ...foldLine(scoreSummaryText(s.scores), width, 2));
  const v = opts.verdict;
  if (v) lines.push(...gateLines(v, width).map((l) => paint(v.pass ? 'green' : 'red', l)));
  if (opts.afterAllError) lines.push('afterAll failed (see below); the report was kept.');
  const configArg = opts.configArg ?? '';
  const lost = opts.lost ?? [];
  if (opts.reportMissing) {
    // No report.json: no file list, no command that would only say "not found".
    const why = `report.json could not be written; ${plural(lost.length, 'part')} lost, below`;
    lines.push(paint('red', `Report NOT saved: ${opts.reportRel} (${why})`));
    for (const f of lost) lines.push(`  lost: ${f.path}: ${f.message}`);
    return `${lines.join('\n')}\n`;
  }
  if (lost.length > 0) {
    lines.push(
      paint(
        'red',
        `Report NOT fully saved: ${opts.reportRel} (${plural(lost.length, 'part')} could not be written, below)`,
      ),
    );
    for (const f of lost) lines.push(`  lost: ${f.path}: ${f.message}`);
  } else lines.push(`Report saved: ${opts.reportRel}`);
  const files = `  report.json (summary), report.html (open in a browser), scenarios/ (each run's detail and raw output)`;
  lines.push(...foldLine(files, width, 2), ...viewLines(`axis reports ${m.reportId}${configArg}`, width));
  return `${lines.join('\n')}\n`;
}

/**
 * `View it: <cmd>   ·   in a browser: <cmd> --html`, or the two on two lines when that is wider than
 * `width`: each command stays whole (a quoted `-c` path may hold spaces), ready to copy.
 */
function viewLines(cmd: string, width: number): string[] {
  const [view, browser] = [`View it: ${cmd}`, `in a browser: ${cmd} --html`];
  const one = `${view}   ·   ${browser}`;
  return textWidth(one) <= width ? [one] : [`${view}   ·`, `  ${browser}`];
}

/** `  ✗ <scenario> · <agent>: <cause>` folded to `width` columns, as the CI gate block folds its lines. */
function causeLines(c: { scenarioKey: string; agent: string; cause: string }, width: number, paint: Paint) {
  const [first = '', ...more] = foldLine(
    `  ✗ ${c.scenarioKey} · ${c.agent}: ${c.cause}`,
    width,
    CROSS_INDENT,
  );
  return [first.replace('✗', paint('red', '✗')), ...more];
}

function scoreSummaryText(s: NonNullable<ReportManifest['summary']['scores']>): string {
  const parts = [`Average AXIS Result: ${s.averageAxisScore ?? DASH} (${s.scored} scored`];
  if (s.unscored) parts.push(`, ${s.unscored} unscored`);
  if (s.failed) parts.push(`, ${s.failed} failed`);
  parts.push(')');
  if (s.runs) parts.push(` · ${reliabilityText(reliabilityOfSummary(s))}`);
  const j = s.judge;
  if (j.runs > 0) {
    const cost = judgeCostText(j) ? ` · ${judgeCostText(j)}` : '';
    const cached = j.cached ? ` · ${j.cached} cached` : '';
    parts.push(
      ` · judge ${j.judges.join(', ')}: ${num(j.tokens.input + j.tokens.output)} tokens${cost}${cached}`,
    );
  }
  return parts.join('');
}
