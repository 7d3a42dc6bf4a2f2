/**
 * `--reporter github` (on by default when GITHUB_ACTIONS=true): an `::error` annotation per pair that
 * fails the gate, a `::warning` per unscored pair or incomplete run, and a markdown table appended to
 * `$GITHUB_STEP_SUMMARY`.
 */
import { appendFile } from 'node:fs/promises';
import type { RunVerdict } from '../compare/verdict-types.js';
import { gateChecks } from '../compare/verdict.js';
import type { ReportManifest } from '../report/manifest.js';
import { AxisError } from '../util/errors.js';
import { pairCountsText } from '../scoring/runs.js';
import { failureCauses, gateOnlyPairs, SUMMARY_HEAD, summaryRows } from './format.js';
import { caseFailures } from './junit.js';
import type { Reporter, RunEnd, Screen } from './types.js';

export function createGithubReporter(screen: Screen, opts: { toStderr: boolean }): Reporter {
  return {
    name: 'github',
    async onEnd(end: RunEnd, verdict?: RunVerdict) {
      const out = opts.toStderr ? screen.stderr : screen.stdout;
      out.write(annotations(end.manifest, verdict).join(''));
      await appendStepSummary(screen, stepSummary(end.manifest, verdict));
    },
  };
}

/** Appends markdown to `$GITHUB_STEP_SUMMARY` when it is set; AxisError when it cannot. */
export async function appendStepSummary(screen: Screen, markdown: string): Promise<void> {
  const file = screen.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    await appendFile(file, markdown);
  } catch (err) {
    throw new AxisError(
      `Cannot append the job summary to GITHUB_STEP_SUMMARY (${file}): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** Workflow command lines (each ends with a newline). */
export function annotations(m: ReportManifest, verdict?: RunVerdict): string[] {
  const lines: string[] = [];
  for (const r of m.results) {
    const title = `AXIS ${r.scenarioKey} · ${r.agentName}`;
    for (const f of caseFailures(r, verdict)) lines.push(command('error', title, f.message));
    if (r.status === 'completed' && r.score?.status === 'unscored')
      lines.push(command('warning', title, `not scored: ${r.score.reason ?? 'no judge answer'}`));
  }
  for (const p of gateOnlyPairs(m, verdict))
    for (const f of p.failures) lines.push(command('error', `AXIS ${p.scenarioKey} · ${p.agent}`, f.message));
  if (m.incomplete)
    lines.push(command('warning', 'AXIS run incomplete', m.incompleteReason ?? 'the run did not finish'));
  return lines;
}

/** One workflow command line; `title` and `message` are escaped, so untrusted text cannot add another. */
export function command(kind: 'error' | 'warning', title: string, message: string): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(message)}\n`;
}

/** GitHub's workflow-command escaping for the message part. */
export function escapeData(s: string): string {
  // Other control characters (agent output quoted in a reason) would reach the log as escape sequences.
  return s.replace(CONTROL, '').replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

// Bidi controls too: an override reorders the rest of the line the log or the summary shows it on.
const CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** … and for a property value (`title=`), which also ends at `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * Why the gate fails with no pair to blame, in brief (the reasons are in the annotations), and what it
 * checked (minimums, baseline), as the Gate line of the other views says it.
 */
function gateNote(v: RunVerdict): string {
  const why =
    v.incomplete !== undefined
      ? ' (the run is incomplete)'
      : v.unscored !== undefined
        ? ' (no pair was scored)'
        : '';
  const checks = gateChecks(v);
  return `${why}${checks ? ` · ${md(checks)}` : ''}`;
}

/** Markdown for the job summary: headline, one row per pair, one line per failure. */
export function stepSummary(m: ReportManifest, verdict?: RunVerdict): string {
  const avg = m.summary.averageAxisScore;
  const lines = [
    `## AXIS report ${m.reportId}`,
    '',
    pairCountsText(m.summary) +
      (avg != null ? ` · average AXIS Result **${avg}**` : '') +
      (verdict ? ` · gate **${verdict.pass ? 'pass' : 'fail'}**${gateNote(verdict)}` : ''),
    '',
    `| ${SUMMARY_HEAD.map(md).join(' | ')} |`,
    `| ${SUMMARY_HEAD.map((_, i) => (i >= 3 ? '---:' : '---')).join(' | ')} |`,
    ...summaryRows(m).map((row) => `| ${row.map(md).join(' | ')} |`),
  ];
  const causes = failureCauses(m, verdict);
  if (causes.length) {
    lines.push('', '**Failures**', '');
    for (const c of causes) lines.push(`- \`${code(c.scenarioKey)}\` · \`${code(c.agent)}\`: ${md(c.cause)}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/**
 * Literal text in markdown: no HTML, no line breaks, no control characters, and the punctuation that makes
 * markdown backslash-escaped, so a reason quoting the agent cannot add a link, an image (fetched when the
 * summary is viewed) or emphasis.
 */
export function md(s: string): string {
  return s
    .replace(CONTROL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]~|]/g, '\\$&')
    .replace(/[\r\n]+/g, ' ');
}

/** A name in a code span: one line (a blank line would end the span, and raw HTML could follow). */
function code(s: string): string {
  return s.replace(CONTROL, '').replace(/\s+/g, ' ').replace(/`/g, "'");
}
