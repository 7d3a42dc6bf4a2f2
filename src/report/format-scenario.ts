/**
 * The terminal view of one scenario (`axis reports <id> <scenarioKey>`): for each agent and run, the
 * status, score, criteria, audits, sparse index, notes, artifacts, errors and files. Pure.
 */
import { interruptionNote } from '../scoring/interruption.js';
import type { RunScore } from '../scoring/types.js';
import {
  bytes,
  dimensions,
  formatCost,
  formatDuration,
  indent,
  num,
  oneLine,
  painter,
  plural,
  safeText,
  scoreInsight,
  section,
  table,
  tokens,
  type Dim,
  type FormatOptions,
  type Painter,
  type ScoreLike,
} from './format.js';
import { toHundred, partLabel, SOURCE_LABEL } from './html/client/labels.js';
import type { PairView, RunView } from './read.js';
import type { ReportResultEntry } from './manifest.js';
import type { RunDetailFile } from './schema.js';
import { padEndWidth } from '../util/width.js';
import { clipText } from '../util/safe-text.js';

/** Sparse index lines shown before pointing at the file. */
export const MAX_SPARSE_LINES = 200;
const MAX_AUDITS = 20;
/** Where a note or an answer cut for the view is whole. */
const DETAIL = 'the detail file';

export function formatScenario(
  reportId: string,
  pairs: readonly PairView[],
  opts: FormatOptions = {},
): string {
  const p = painter(opts.color ?? false);
  const out: string[] = [];
  for (const pair of pairs) {
    const e = pair.entry;
    out.push(
      p.code('1', `${oneLine(e.scenarioKey, 120)} · ${oneLine(e.agentName, 60)}`) +
        (e.scenarioName ? `  ${oneLine(e.scenarioName, 80)}` : ''),
    );
    out.push(`Report ${reportId}${e.model ? ` · model ${oneLine(e.model, 60)}` : ''}`);
    if (pair.runs.length > 1) {
      out.push(
        '',
        `${pair.runs.length} runs; the pair reports run ${e.representativeRun} (*): the run whose AXIS Result sits nearest the median.`,
      );
      const rows = [['', 'Run', 'Status', 'AXIS', 'Duration', 'Tokens', 'Cost']];
      for (const r of pair.runs) {
        const s = r.summary;
        rows.push([
          r.representative ? '*' : '',
          String(s.run),
          s.scoreStatus && s.scoreStatus !== 'scored' && s.status === 'completed' ? s.scoreStatus : s.status,
          typeof s.axisScore === 'number' && s.scoreStatus === 'scored'
            ? String(Math.round(s.axisScore))
            : '–',
          formatDuration(s.durationMs),
          num(tokens(s.tokenUsage)),
          formatCost(s.costUsd, e.simulated),
        ]);
      }
      out.push(...table(rows, new Set([1, 3, 4, 5, 6])).map((l) => `  ${l}`));
    }
    for (const run of pair.runs) {
      out.push('');
      if (pair.runs.length > 1)
        out.push(
          p.code(
            '1',
            `── Run ${run.summary.run} of ${pair.runs.length}${run.representative ? ' (representative)' : ''} ──`,
          ),
        );
      out.push(...formatRun(e, run, p));
    }
    out.push('');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

function formatRun(e: ReportResultEntry, run: RunView, p: Painter): string[] {
  const d = run.detail;
  const out = [statusLine(e, run, p)];
  const score = d?.score ?? (run.representative ? e.score : undefined);
  if (score) out.push(...formatScore(score, p));
  else if (run.summary.status === 'cancelled')
    out.push('AXIS Result  none: the run was cancelled, so it has no score');
  else out.push('AXIS Result  not scored (run with --no-score): `axis score` scores it');

  if (!d) {
    out.push('', `Detail file unavailable: ${oneLine(run.detailError ?? 'unknown reason', 300)}`);
    out.push(...filesSection(run));
    return out;
  }

  out.push(...section('Criteria', score ? scoredCriteria(score) : checkedCriteria(d)));
  if (score) out.push(...section('Audits', audits(score)));
  out.push(...transcriptSection(run, d));
  if (d.transcript?.result)
    out.push(...section('Final answer', indent(clipText(d.transcript.result, DETAIL))));

  // Notes may hold what a script printed (up to 256 KB each): cut as the answer is.
  if (d.setupNotes) out.push(...section('Setup notes', indent(clipText(d.setupNotes, DETAIL))));
  if (d.teardownNotes) out.push(...section('Teardown notes', indent(clipText(d.teardownNotes, DETAIL))));

  const arts = (d.artifacts ?? []).map(
    (a) =>
      `  ${oneLine(a.path, 200)}  ${bytes(a.size)}  ${oneLine(a.mimeType, 60)}${a.skipped ? `  (not captured: ${oneLine(a.skipped, 120)})` : ''}`,
  );
  if (arts.length && run.paths.artifactsDir) arts.push(`  in ${run.paths.artifactsDir}/`);
  out.push(...section('Artifacts', arts));
  out.push(...section('Errors', errorLines(d, score)));
  out.push(...filesSection(run));
  return out;
}

function statusLine(e: ReportResultEntry, run: RunView, p: Painter): string {
  const s = run.summary;
  const status = [
    s.status,
    `exit code ${s.exitCode ?? 'none'}`,
    formatDuration(s.durationMs),
    `${num(tokens(s.tokenUsage))} tokens`,
    ...(run.detail?.simulated || e.simulated
      ? ['cost: simulated']
      : s.costUsd !== undefined
        ? [formatCost(s.costUsd)]
        : []),
  ];
  return `Status       ${p.code(s.status === 'completed' ? '32' : '31', status[0]!)} · ${status.slice(1).join(' · ')}`;
}

/** Scored criteria carry grades and rationales. */
function scoredCriteria(score: ScoreLike): string[] {
  const crit: string[] = [];
  for (const c of score.goalAchievement.criteria) {
    const icon = c.score === null ? '·' : c.score >= 8 ? '✔' : c.score >= 4 ? '◐' : '✗';
    const grade = c.score === null ? ' –/10' : `${String(c.score).padStart(2)}/10`;
    const kind = c.kind === 'deterministic' ? ' [check]' : '';
    crit.push(`  ${icon} ${grade}  ${oneLine(c.check, 100)}${kind}  (weight ${toHundred(c.weight)}%)`);
    if (c.rationale) crit.push(...indent(c.rationale, '          '));
  }
  return crit;
}

/** Without a score, the criteria with the checks' outcomes. */
function checkedCriteria(d: RunDetailFile): string[] {
  const crit: string[] = [];
  for (const c of d.criteria ?? []) {
    const outcome = c.kind === 'check' ? d.checks?.find((o) => o.index === c.index) : undefined;
    const icon = outcome ? (outcome.passed ? '✔' : '✗') : '·';
    const what = c.kind === 'judge' ? c.check : c.label;
    crit.push(
      `  ${icon} ${oneLine(what, 100)}${c.kind === 'check' ? ' [check]' : ''}  (weight ${toHundred(c.weight)}%)`,
    );
    if (outcome) crit.push(...indent(outcome.rationale, '      '));
    else if (c.kind === 'judge') crit.push('      not graded: the run was not scored');
  }
  return crit;
}

function transcriptSection(run: RunView, d: RunDetailFile): string[] {
  const sparse = run.sparseIndex;
  if (sparse) {
    // Column alignment matters here: control characters go, runs of spaces stay.
    const shown = sparse.slice(0, MAX_SPARSE_LINES).map((l) => `  ${safeText(l).replace(/\s/g, ' ')}`);
    if (sparse.length > MAX_SPARSE_LINES)
      shown.push(`  … ${sparse.length - MAX_SPARSE_LINES} more lines in ${run.paths.sparseIndex}`);
    return section('Transcript (sparse index)', shown);
  }
  const t = d.transcript;
  return section('Transcript', [
    `  ${plural(t?.events?.length ?? 0, 'event')}; no sparse index file${run.paths.sparseIndex ? ` (${run.paths.sparseIndex})` : ''}`,
  ]);
}

function errorLines(d: RunDetailFile, score: Pick<ScoreLike, 'status' | 'reason'> | undefined): string[] {
  const errors: string[] = [];
  if (d.reason) errors.push(`  ${d.errorClass ? `${d.errorClass}: ` : ''}${oneLine(d.reason, 500)}`);
  if (d.transcript?.error && !d.reason?.includes(d.transcript.error.message))
    errors.push(`  agent error (${d.transcript.error.class}): ${oneLine(d.transcript.error.message, 500)}`);
  if (score && score.status !== 'scored' && score.reason)
    errors.push(`  ${score.status}: ${oneLine(score.reason, 500)}`);
  if (d.teardownError) errors.push(`  teardown: ${oneLine(d.teardownError, 500)}`);
  if (d.afterAgentError) errors.push(`  checks/scoring: ${oneLine(d.afterAgentError, 500)}`);
  const tape = d.simulator ? oneLine(d.simulator.tape, 200) : '';
  for (const ev of d.simulator?.events ?? [])
    errors.push(`  simulator ${ev.type} (${tape}): ${oneLine(ev.message, 300)}`);
  return errors;
}

function filesSection(run: RunView): string[] {
  const f = run.paths;
  const rows: string[] = [];
  if (f.detail) rows.push(`  detail        ${f.detail}`);
  if (f.raw) rows.push(`  raw output    ${f.raw}`);
  if (f.sparseIndex && run.sparseIndex) rows.push(`  sparse index  ${f.sparseIndex}`);
  return section('Files', rows);
}

function formatScore(
  score: ScoreLike & Partial<Pick<RunScore, 'judge' | 'weights' | 'necessity' | 'interruption' | 'cap'>>,
  p: Painter,
): string[] {
  const out: string[] = [];
  if (score.status === 'scored') {
    const judge = score.judge ? ` · judge ${oneLine(score.judge.label, 80)}` : '';
    out.push(
      `AXIS Result  ${p.score(score.axisScore, `${score.axisScore === null ? '–' : Math.round(score.axisScore)} / 100`)}${judge}`,
    );
  } else {
    out.push(`AXIS Result  ${score.status}: ${oneLine(score.reason ?? '', 300)}`);
  }
  const names: Record<Dim, string> = {
    goal: 'Goal achievement',
    env: 'Environment',
    svc: 'Service',
    agent: 'Agent',
  };
  const weightOf: Record<Dim, keyof RunScore['weights']> = {
    goal: 'goal_achievement',
    env: 'environment',
    svc: 'service',
    agent: 'agent',
  };
  for (const [id, d] of dimensions(score)) {
    const cell = d.notApplicable ? 'n/a' : d.score === null ? '–' : String(Math.round(d.score));
    const extra: string[] = [];
    if (score.weights && !d.notApplicable) extra.push(`weight ${toHundred(score.weights[weightOf[id]])}%`);
    if (id !== 'goal') {
      const dim = d as RunScore['environment'];
      const subs = Object.entries(dim.dimensions)
        .filter((x): x is [string, number] => typeof x[1] === 'number')
        .map(([k, v]) => `${partLabel(k)} ${Math.round(v)}`);
      if (subs.length) extra.push(subs.join(' · '));
      if (dim.interactionCount)
        extra.push(`${plural(dim.interactionCount, 'interaction')}, ${dim.auditedCount} audited`);
    }
    if (d.notApplicable) extra.push('nothing in the run exercised it');
    else if (d.unscoredReason && score.status === 'scored') extra.push(oneLine(d.unscoredReason, 120));
    const painted = d.notApplicable ? p.code('2', cell.padStart(3)) : p.score(d.score, cell.padStart(3));
    out.push(`  ${padEndWidth(names[id], 17)}${painted}   ${extra.join(' | ')}`.trimEnd());
  }
  const insight = scoreInsight(score);
  if (insight) out.push(`  ↳ ${insight}`);
  const handBack = interruptionNote(score, 300);
  if (handBack) out.push(`  ⚠ ${handBack}`);
  const n = score.necessity;
  if (n && n.unnecessaryIds.length)
    out.push(`  Not needed: ${n.unnecessaryIds.map((i) => `#${i}`).join(', ')}`);
  if (n?.deterministic)
    out.push(
      `  Needed ${toHundred(n.score)}/100${n.judgeScore !== undefined ? ` (the judge said ${toHundred(n.judgeScore)})` : ''}: ${oneLine(n.deterministic.rationale, 240)}`,
    );
  return out;
}

/** Imperfect audits (a value under 100), worst first, on the 0–100 scale; the count of clean ones. */
function audits(score: ScoreLike): string[] {
  const out: string[] = [];
  for (const [name, dim] of [
    ['environment', score.environment],
    ['service', score.service],
    ['agent', score.agent],
  ] as const) {
    const all = dim.audits ?? [];
    const low = (a: (typeof all)[number]) =>
      Math.min(...(['success', 'speed', 'weight', 'relevance'] as const).map((f) => a[f] ?? 1));
    const bad = all
      .filter((a) => low(a) < 1 || a.redundantOf !== undefined)
      .sort((a, b) => low(a) - low(b) || a.interactionId - b.interactionId);
    if (!all.length) continue;
    out.push(`  ${name}: ${plural(all.length, 'interaction')}, ${bad.length} imperfect`);
    for (const a of bad.slice(0, MAX_AUDITS)) {
      const values = (['success', 'speed', 'weight', 'relevance'] as const)
        .filter((f) => typeof a[f] === 'number')
        .map((f) => `${partLabel(f)} ${toHundred(a[f]!)}`)
        .join(' · ');
      out.push(
        `    #${a.interactionId}  ${values}  [${SOURCE_LABEL[a.source] ?? a.source}]  ${oneLine(a.rationale, 160)}`,
      );
    }
    if (bad.length > MAX_AUDITS) out.push(`    … ${bad.length - MAX_AUDITS} more`);
  }
  return out;
}
