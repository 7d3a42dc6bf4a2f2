/**
 * Terminal views of reports (`axis reports`): the list and one report's scored summary, plus the
 * helpers the scenario view (format-scenario.ts) shares. Pure: data in, text out. Everything printed from a report is untrusted (agent output,
 * judge rationales, script notes), so control characters are stripped before it reaches the terminal.
 */
import { interruptionNote } from '../scoring/interruption.js';
import type { RunScore } from '../scoring/types.js';
import { pairCountsText, pairRunsText, reliabilityOfSummary, reliabilityText } from '../scoring/runs.js';
import { formatCount } from '../util/number.js';
import { oneLine } from '../util/one-line.js';
import { clipText, indent, safeText, section } from '../util/safe-text.js';
import { padEndWidth, textWidth } from '../util/width.js';
import { partLabel } from './html/client/labels.js';
import type { ReportManifest, ReportResultEntry } from './manifest.js';
import { foldLine } from '../util/fold.js';
import { foldedFailureLines, GATE_WIDTH, gateLines } from './verdict.js';
import { formatCost, judgeCostText } from './cost-total.js';

export interface FormatOptions {
  /** ANSI colors for scores and statuses. */
  color?: boolean;
  /** ` -c <path>` when the command had one: the printed commands must work from the same folder. */
  configArg?: string;
  /** report.html is on disk (default true); else the view says how to write it. */
  htmlWritten?: boolean;
  /** The terminal's columns: long lines are folded to them (default 80, as a CI log is read). */
  width?: number;
}

/** A dimension under this gets an insight line naming its weakest signal. */
export const INSIGHT_BELOW = 75;

// ---------------------------------------------------------------------------------------------
// Small helpers

export { oneLine };
export { safeText };
export { indent, section } from '../util/safe-text.js';

/** `840ms`, `12.3s`, `4m05s`, `1h15m`: rounded once, to the unit shown (59.96 s is `1m00s`, never `60.0s`). */
export function formatDuration(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '–';
  if (ms < 999.5) return `${Math.round(ms)}ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

// Kept in cost-total.ts, which words every cost total with it and which this file uses.
export { formatCost };

export const num = formatCount;

/** The total of a stored usage, as totalTokens (report/job-result.ts): cache writes are part of input. */
export function tokens(u: { input?: number; output?: number; cacheReadInput?: number } | undefined) {
  if (!u) return 0;
  return (u.input ?? 0) + (u.output ?? 0) + (u.cacheReadInput ?? 0);
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface Painter {
  score(value: number | null | undefined, text: string): string;
  code(code: string, text: string): string;
}

export function painter(on: boolean): Painter {
  const code = (c: string, text: string) => (on ? `\u001b[${c}m${text}\u001b[0m` : text);
  return {
    code,
    // Same bands as the HTML report: 90 green, 80 yellow, 70 orange, below red.
    score: (v, text) =>
      typeof v !== 'number'
        ? code('2', text)
        : code(v >= 90 ? '32' : v >= 80 ? '33' : v >= 70 ? '38;5;208' : '31', text),
  };
}

/** Columns padded to the widest cell in display width (measured before coloring); `right` columns align right. */
export function table(
  rows: string[][],
  right: ReadonlySet<number>,
  paint?: (row: number, col: number, cell: string) => string,
) {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, textWidth(c))));
  return rows.map((row, r) =>
    row
      .map((c, i) => {
        const pad = ' '.repeat(Math.max(0, widths[i]! - textWidth(c)));
        const cell = paint ? paint(r, i, c) : c;
        if (i === row.length - 1 && !right.has(i)) return cell;
        return right.has(i) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

// ---------------------------------------------------------------------------------------------
// One report

export type Dim = 'goal' | 'env' | 'svc' | 'agent';
const DIM_LABEL: Record<Dim, string> = { goal: 'Goal', env: 'Env.', svc: 'Svc.', agent: 'Agent' };

export type ScoreLike = Pick<
  RunScore,
  'status' | 'reason' | 'axisScore' | 'goalAchievement' | 'environment' | 'service' | 'agent'
>;

export function dimensions(score: ScoreLike) {
  return [
    ['goal', score.goalAchievement],
    ['env', score.environment],
    ['svc', score.service],
    ['agent', score.agent],
  ] as const;
}

/** `n/a` for a dimension nothing exercised, `–` for one that could not be scored, else the number. */
function dimCell(d: { score: number | null; notApplicable: boolean }): string {
  if (d.notApplicable) return 'n/a';
  return d.score === null ? '–' : String(Math.round(d.score));
}

/**
 * The weakest signal of each dimension under {@link INSIGHT_BELOW}, weakest dimension first:
 * `Goal 55: "States the sum" scored 3/10  |  Agent 70: weakest part "needed" 40/100`.
 */
export function scoreInsight(score: ScoreLike): string | null {
  if (score.status !== 'scored') return null;
  const parts: [number, string][] = [];
  for (const [id, d] of dimensions(score)) {
    if (d.notApplicable || d.score === null || d.score >= INSIGHT_BELOW) continue;
    const label = `${DIM_LABEL[id].replace('.', '')} ${Math.round(d.score)}`;
    if (id === 'goal') {
      const worst = [...score.goalAchievement.criteria]
        .filter((c) => c.score !== null && c.score < 10)
        .sort((a, b) => a.score! - b.score! || b.weight - a.weight)[0];
      parts.push([
        d.score,
        worst ? `${label}: "${oneLine(worst.check, 50)}" scored ${worst.score}/10` : label,
      ]);
      continue;
    }
    const sub = Object.entries((d as RunScore['environment']).dimensions)
      .filter((e): e is [string, number] => typeof e[1] === 'number')
      .sort((a, b) => a[1] - b[1])[0];
    parts.push([
      d.score,
      sub ? `${label}: weakest part "${partLabel(sub[0])}" ${Math.round(sub[1])}/100` : label,
    ]);
  }
  if (parts.length === 0) return null;
  return parts
    .sort((a, b) => a[0] - b[0])
    .map((x) => x[1])
    .join('  |  ');
}

/**
 * A pair's status in one word, the same in `axis reports`, the `axis run` summary and the GitHub job
 * summary: its job status (`failed`, `timeout`, `cancelled`, …), or for a completed pair `unscored` when
 * its headline could not be scored, else `completed`.
 */
export function pairStatusWord(e: Pick<ReportResultEntry, 'status' | 'score'>): string {
  if (e.status !== 'completed') return e.status;
  return e.score?.status === 'unscored' ? 'unscored' : 'completed';
}

/** The status cell and the line under the row (reason or insight) of one pair. */
function pairStatus(e: ReportResultEntry): { status: string; note: string | null; ok: boolean } {
  const reason = (r: string | undefined) => oneLine(r ?? '', 200);
  const cls = e.errorClass && e.errorClass !== e.status ? `${e.errorClass}: ` : '';
  if (e.status === 'cancelled')
    return { status: '○ cancelled', note: reason(e.reason ?? 'cancelled before it finished'), ok: false };
  if (e.status !== 'completed')
    return { status: `✗ ${e.status}`, note: `${cls}${reason(e.reason ?? e.score?.reason)}`, ok: false };
  if (e.score?.status === 'unscored')
    return { status: 'unscored', note: reason(e.score.reason ?? 'not scored'), ok: false };
  // Some runs of a repeated pair crashed or were cancelled: the pair completed, the note says which.
  const partial = e.reason ? `${cls}${reason(e.reason)}` : null;
  const insight = e.score ? scoreInsight(e.score) : null;
  const handBack = e.score ? interruptionNote(e.score) : null;
  return {
    status: '✓ completed',
    note: [partial, handBack && `⚠ ${handBack}`, insight].filter(Boolean).join('  |  ') || null,
    ok: true,
  };
}

export function formatReport(m: ReportManifest, where: string, opts: FormatOptions = {}): string {
  const p = painter(opts.color ?? false);
  const width = opts.width ?? GATE_WIDTH;
  const out: string[] = [`AXIS Report: ${m.reportId}${m.name ? ` · ${oneLine(m.name, 80)}` : ''}`, ''];
  const info = reportInfo(m, p);
  const w = Math.max(...info.map((x) => textWidth(x[0])));
  // A value that does not fit goes on under itself, after the labels' column.
  for (const [k, v] of info) out.push(...foldLine(`${padEndWidth(k, w)}  ${v}`, width, w + 2));
  out.push('');
  pushPairTable(out, m, p, width);
  // The gate as `axis run` judged it (absent from reports written before it was stored).
  if (m.verdict)
    out.push(
      '',
      ...gateLines(m.verdict, opts.width).map((l) => p.code(m.verdict!.pass ? '32' : '31', l)),
      ...foldedFailureLines(m.verdict, opts.width),
    );
  // Run-level notes, shown as a scenario's setup/teardown notes are in its view.
  for (const phase of ['beforeAll', 'afterAll'] as const) {
    const notes = m.hooks?.[phase]?.notes;
    if (notes?.trim()) out.push(...section(`${phase} notes`, indent(clipText(notes, 'report.json'))));
  }
  const cmd = `axis reports ${m.reportId}${opts.configArg ?? ''}`;
  out.push('', ...whole('View scenario detail:', `${cmd} <scenarioKey>`, width));
  out.push(
    ...(opts.htmlWritten === false
      ? whole('HTML report: not written yet', `(${cmd} --html writes it)`, width)
      : whole(`HTML report: ${where}/report.html`, `(${cmd} --html)`, width)),
  );
  return `${out.join('\n')}\n`;
}

/**
 * `head tail` on one line when it fits `width`, else the tail on the next line, indented: a command is
 * never cut (a quoted `-c` path may hold spaces), so it can be copied whole.
 */
function whole(head: string, tail: string, width: number): string[] {
  const one = `${head} ${tail}`;
  return textWidth(one) <= width ? [one] : [head, `  ${tail}`];
}

type Summary = Partial<ReportManifest['summary']>;

/** A shard's report holds only its jobs: read alone, its pairs would pass for the whole run. */
export function shardNote(s: { index: number; total: number }): string {
  return `${s.index}/${s.total}: part of a sharded run, its jobs only; \`axis reports merge\` builds the whole report`;
}

/** The facts above the table, as label and value. */
function reportInfo(m: ReportManifest, p: Painter): [string, string][] {
  const s = m.summary ?? ({} as Summary);
  const scored = s.scores !== undefined || s.averageAxisScore !== undefined;
  const info: [string, string][] = [
    ['Started', m.timestamp ? m.timestamp.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '–'],
    ['Duration', formatDuration(m.durationMs)],
    [
      'Scenarios',
      pairCountsText({
        ...s,
        total: s.total ?? m.results.length,
        completed: s.completed ?? 0,
        failed: s.failed ?? 0,
      }),
    ],
  ];
  if (scored) info.push(...scoreInfo(s, p));
  // A scored run's completed jobs always carry a score: without one completed, nothing says --no-score.
  else if (!m.results.some((e) => e.status === 'completed'))
    info.push(['AXIS Result', 'none: no run completed']);
  else info.push(['AXIS Result', `not scored (run with --no-score): axis score ${m.reportId}`]);
  if (m.incomplete) info.push(['Incomplete', oneLine(m.incompleteReason ?? 'the run did not finish', 200)]);
  if (m.rerunOf) info.push(['Re-run of', m.rerunOf]);
  if (m.shard) info.push(['Shard', shardNote(m.shard)]);
  if (m.hooks?.beforeAll && !m.hooks.beforeAll.ok)
    info.push(['beforeAll', `failed: ${oneLine(m.hooks.beforeAll.error ?? '', 160)}`]);
  if (m.hooks?.afterAll && !m.hooks.afterAll.ok)
    info.push(['afterAll', `failed: ${oneLine(m.hooks.afterAll.error ?? '', 160)}`]);
  return info;
}

/** The average with its counts and reliability, and the judges' cost when any judge ran. */
function scoreInfo(s: Summary, p: Painter): [string, string][] {
  const sc = s.scores;
  const avg = s.averageAxisScore;
  const counts = sc
    ? ` (${sc.scored} scored, ${sc.unscored} unscored, ${sc.failed} failed)` +
      (sc.runs ? ` · ${reliabilityText(reliabilityOfSummary(sc))}` : '')
    : '';
  const info: [string, string][] = [
    [
      'AXIS Result',
      `${typeof avg === 'number' ? p.score(avg, `${Math.round(avg)} / 100`) : '–'} average${counts}`,
    ],
  ];
  const j = sc?.judge;
  if (j && j.runs > 0)
    info.push([
      'Judge',
      `${j.judges.map((x) => oneLine(x, 60)).join(', ')} · ${num(j.tokens.input + j.tokens.output)} tokens` +
        (judgeCostText(j) ? ` · ${judgeCostText(j)}` : ''),
    ]);
  return info;
}

const PAIR_HEAD = [
  'Scenario',
  'Agent',
  'AXIS',
  'Goal',
  'Env.',
  'Svc.',
  'Agent',
  'Duration',
  'Tokens',
  'Cost',
  'Status',
];

/** One row per pair, each followed by its notes (run spread, reason, insight). */
function pushPairTable(out: string[], m: ReportManifest, p: Painter, width: number): void {
  const rows: string[][] = [PAIR_HEAD];
  const notes: (string | null)[] = [null];
  const meta: ({ e: ReportResultEntry; ok: boolean } | null)[] = [null];
  for (const e of m.results) {
    const st = pairStatus(e);
    rows.push(pairCells(e, st.status));
    const spread = e.runs && e.runs.length > 1 ? pairRunsText(e) : null;
    notes.push([spread, st.note].filter(Boolean).join('\n') || null);
    meta.push({ e, ok: st.ok });
  }
  const lines = table(rows, new Set([2, 3, 4, 5, 6, 7, 8, 9]), (row, col, cell) =>
    row === 0 ? p.code('1', cell) : paintPairCell(p, meta[row]!, col, cell),
  );
  lines.forEach((line, i) => {
    out.push(line);
    const note = notes[i];
    if (note)
      for (const n of note.split('\n'))
        out.push(...foldLine(`  ↳ ${n}`, width, 4).map((l) => p.code('2', l)));
  });
}

function pairCells(e: ReportResultEntry, status: string): string[] {
  const sc = e.score;
  // An unscored pair keeps the dimensions it has (the measured environment, say), as the run's summary,
  // the reporters and report.html show them; a failed one has none. Only a scored pair has an AXIS Result.
  const showScores = sc && sc.status !== 'failed';
  const agent = e.variant ? `${e.agentName} @${e.variant}` : e.agentName;
  const key =
    e.variant && e.scenarioKey.endsWith(`@${e.variant}`)
      ? e.scenarioKey.slice(0, -(e.variant.length + 1))
      : e.scenarioKey;
  return [
    oneLine(key, 60),
    oneLine(agent, 40),
    sc?.status === 'scored' && sc.axisScore !== null ? String(Math.round(sc.axisScore)) : '–',
    ...(showScores ? dimensions(sc).map(([, d]) => dimCell(d)) : ['–', '–', '–', '–']),
    formatDuration(e.durationMs),
    num(tokens(e.tokenUsage)),
    formatCost(e.costUsd, e.simulated),
    status,
  ];
}

/** Scores by band, dimensions nothing exercised dimmed, the status by outcome. */
function paintPairCell(
  p: Painter,
  x: { e: ReportResultEntry; ok: boolean },
  col: number,
  cell: string,
): string {
  const sc = x.e.score && x.e.score.status !== 'failed' ? x.e.score : undefined;
  if (col === 2) return p.score(sc?.status === 'scored' ? sc.axisScore : null, cell);
  if (col >= 3 && col <= 6 && sc) {
    const d = dimensions(sc)[col - 3]![1];
    return d.notApplicable ? p.code('2', cell) : p.score(d.score, cell);
  }
  if (col === 10) return p.code(x.ok ? '32' : cell === 'unscored' ? '33' : '31', cell);
  return cell;
}
