/**
 * `--reporter junit[=file]`: one <testcase> per (scenario, agent) pair, its four dimensions and the AXIS
 * Result as properties (the suite's: the gate and what it checked), and a <failure> for every reason the gate fails it (failed run, threshold,
 * regression); one more, failing, when the run is incomplete, and one when no pair was scored. Written
 * by hand: the format is a dozen elements, and escaping is the only subtle part.
 */
import { resolve } from 'node:path';
import type { PairVerdict, RunVerdict } from '../compare/verdict-types.js';
import { gateChecks, gateWord } from '../compare/verdict.js';
import type { ReportManifest, ReportResultEntry } from '../report/manifest.js';
import { writeOutputFile } from '../util/output-file.js';
import { totalTokens } from '../report/job-result.js';
import { oneLine } from '../report/format.js';
import { scoreText } from '../report/scores.js';
import { reliability } from '../scoring/runs.js';
import { gateOnlyPairs, pairCause, pairVerdict } from './format.js';
import type { Reporter, RunEnd, Screen } from './types.js';
import { shownPath } from '../util/shown-path.js';

export const JUNIT_DEFAULT_FILE = 'junit.xml';

/** `toStdout`: `file` is stdout itself (reporters/index.ts isStdoutFile): the XML goes to the stream. */
export function createJunitReporter(screen: Screen, file?: string, toStdout = false): Reporter {
  return {
    name: 'junit',
    async onEnd(end: RunEnd, verdict?: RunVerdict) {
      if (toStdout) {
        screen.stdout.write(junitXml(end.manifest, verdict));
        return;
      }
      const path = file ? resolve(screen.cwd, file) : resolve(end.reportDir, JUNIT_DEFAULT_FILE);
      await writeOutputFile(path, junitXml(end.manifest, verdict), `--reporter junit=${file ?? path}`);
      screen.stderr.write(`JUnit report: ${shownPath(path, screen.cwd)}\n`);
    },
  };
}

interface CaseFailure {
  type: string;
  message: string;
}

/** The failures of one pair: the verdict's when there is one, else the run's own. */
export function caseFailures(entry: ReportResultEntry, verdict?: RunVerdict): CaseFailure[] {
  const pv = pairVerdict(verdict, entry);
  if (pv) return pv.failures.map((f) => ({ type: f.kind, message: f.message }));
  if (verdict) return [];
  const cause = pairCause(entry);
  return entry.status !== 'completed' && cause ? [{ type: 'failed', message: cause }] : [];
}

export function junitXml(m: ReportManifest, verdict?: RunVerdict): string {
  const cases = m.results.map((r) => ({ r, failures: caseFailures(r, verdict) }));
  // A baseline pair missing from the report fails the gate: it gets a test case too, or the file would
  // count fewer failures than the exit code does.
  const missing = gateOnlyPairs(m, verdict);
  // A run that fails the gate with no pair to blame (incomplete: cancelled pairs are skipped, a missing
  // shard's pairs are absent; nothing scored) gets a failing test case of its own: no viewer shows it green.
  const own = runCases(m, verdict);
  const extra = missing.length + own.length;
  const tests = cases.length + extra;
  const failures = cases.filter((c) => c.failures.length > 0).length + extra;
  // A cancelled pair never ran to the end: skipped, not a test that passed (nor a failure of its own).
  const skipped = cases.filter((c) => c.failures.length === 0 && c.r.status === 'cancelled').length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="AXIS" tests="${tests}" failures="${failures}" errors="0" time="${seconds(m.durationMs)}">`,
    `  <testsuite name="${attr(`axis ${m.reportId}`)}" tests="${tests}" failures="${failures}" errors="0" ` +
      `skipped="${skipped}" time="${seconds(m.durationMs)}" timestamp="${attr(m.timestamp)}">`,
    '    <properties>',
    prop('reportId', m.reportId, 6),
    prop('config', m.config, 6),
    prop('runs', String(m.settings.runs), 6),
    ...(m.summary.averageAxisScore != null
      ? [prop('average_axis_score', String(m.summary.averageAxisScore), 6)]
      : []),
    ...gateProps(verdict),
    '    </properties>',
  ];
  for (const { r, failures: fs } of cases) {
    const time = r.runs.reduce((n, x) => n + x.durationMs, 0);
    lines.push(
      `    <testcase classname="${attr(r.scenarioKey)}" name="${attr(r.agentName)}" time="${seconds(time)}">`,
    );
    lines.push('      <properties>');
    for (const [name, value] of caseProperties(r)) lines.push(prop(name, value, 8));
    lines.push('      </properties>');
    for (const f of fs)
      lines.push(
        `      <failure type="${attr(f.type)}" message="${attr(f.message)}">${text(f.message)}</failure>`,
      );
    if (fs.length === 0 && r.status === 'cancelled')
      lines.push(
        `      <skipped message="${attr(`Cancelled: ${oneLine(r.reason ?? 'the run did not finish', 200)}`)}"/>`,
      );
    if (r.score) lines.push(`      <system-out>${text(scoreText(r.score))}</system-out>`);
    lines.push('    </testcase>');
  }
  for (const p of missing) lines.push(...missingCase(p));
  for (const c of own) lines.push(...c);
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

/** The gate and what it checked, in the Gate line's words: a green file says what it was held to. */
function gateProps(v: RunVerdict | undefined): string[] {
  if (!v) return [];
  const checks = gateChecks(v);
  return [prop('gate', gateWord(v), 6), ...(checks ? [prop('gate_checks', checks, 6)] : [])];
}

/** The test case of a pair only the gate knows (a baseline pair the report lacks): no run, no score. */
function missingCase(p: PairVerdict): string[] {
  return [
    `    <testcase classname="${attr(p.scenarioKey)}" name="${attr(p.agent)}" time="0.000">`,
    '      <properties>',
    prop('status', 'missing', 8),
    prop('runs', '0', 8),
    '      </properties>',
    ...p.failures.map(
      (f) =>
        `      <failure type="${attr(f.kind)}" message="${attr(f.message)}">${text(f.message)}</failure>`,
    ),
    '    </testcase>',
  ];
}

/** The run's own failing test cases: it did not finish (`run complete`), nothing was scored (`run scored`). */
function runCases(m: ReportManifest, verdict?: RunVerdict): string[][] {
  const incomplete = verdict ? verdict.incomplete : m.incomplete ? (m.incompleteReason ?? '') : undefined;
  const out: string[][] = [];
  if (incomplete !== undefined)
    out.push(
      runCase(
        'run complete',
        'incomplete',
        `The run is incomplete: ${oneLine(incomplete || 'the run did not finish', 300)}`,
      ),
    );
  if (verdict?.unscored !== undefined)
    out.push(runCase('run scored', 'unscored', `No pair was scored: ${oneLine(verdict.unscored, 300)}`));
  return out;
}

function runCase(name: string, type: string, message: string): string[] {
  return [
    `    <testcase classname="AXIS" name="${name}" time="0.000">`,
    `      <failure type="${type}" message="${attr(message)}">${text(message)}</failure>`,
    '    </testcase>',
  ];
}

function caseProperties(r: ReportResultEntry): [string, string][] {
  const s = r.score;
  const value = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  const out: [string, string][] = [
    ['status', r.status],
    ['axis_score', s?.status === 'scored' ? value(s.axisScore) : ''],
    ['goal_achievement', value(s?.goalAchievement.score)],
    ['environment', value(s?.environment.score)],
    ['service', value(s?.service.score)],
    ['agent', value(s?.agent.score)],
    ['runs', String(r.runs.length)],
    ['runs_completed', String(r.runsCompleted)],
    ['tokens', String(totalTokens(r.tokenUsage))],
  ];
  // The one rule every view uses (src/scoring/runs.ts), scored or not (--no-score has no spread).
  if (r.runs.length > 1) out.push(['reliability', String(reliability(r.runs).value ?? '')]);
  return out;
}

function prop(name: string, value: string, indent: number): string {
  return `${' '.repeat(indent)}<property name="${attr(name)}" value="${attr(value)}"/>`;
}

/** Characters XML 1.0 cannot hold at all (control characters other than tab, LF, CR; lone surrogates). */
const INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function text(s: string): string {
  return s.replace(INVALID, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function attr(s: string): string {
  return text(s)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
