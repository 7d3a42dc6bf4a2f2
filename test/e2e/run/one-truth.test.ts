/**
 * One truth per fact: every kind of pair (all runs pass, flaky, unscored, no run completed, a baseline
 * pair gone missing) run by `node bin/axis.js run` with the `plan-agent` (test/fixtures/command-agent),
 * the simulator playing the judge, and then read back from every surface: the `axis run` summary, the
 * JUnit and GitHub reporters, `axis reports`, report.json and report.html's embedded data. A pair's
 * status, reliability and headline, and the gate, must read the same everywhere.
 */
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeReportData } from '../../../src/report/html/render.js';
import type { HtmlReportData } from '../../../src/report/html/model.js';
import { waitFor as waitUntil } from '../../unit/exec/helpers.js';
import { axis, buildDist, ROOT, startAxis, type CliResult } from './helpers.js';
import { writeIn } from '../../unit/run/helpers.js';
import { goalGrade, PERFECT_AGENT_JUDGE } from '../../helpers/judge-tape.js';

const T = 120_000;
const AGENT = join(ROOT, 'test/fixtures/command-agent/plan-agent.mjs');
const GRADES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

let dir = '';
const write = (rel: string, content: unknown, root = dir) => writeIn(root, rel, content);

/** The judge: `MARK_jdown` fails it (unscored), `MARK_g<N>` grades the goal N/10, every audit perfect. */
const judgeTape = {
  turns: [{ text: 'unused: the plan agent has no model' }],
  judge: [{ match: 'MARK_jdown', fault: { status: 500 } }, PERFECT_AGENT_JUDGE, ...GRADES.map(goalGrade)],
};

function scenario(key: string, plan: string, root = dir, minutes = 0.02): void {
  write(
    `scenarios/${key}.json`,
    {
      name: key,
      prompt: `Write out.txt PLAN:${plan} KEY:${key} DIR:${root}`,
      judge: [{ check: 'out.txt was written' }],
      limits: { time_minutes: minutes },
    },
    root,
  );
  write(`tapes/${key}.json`, judgeTape, root);
}

function project(root: string, runs: number, thresholds?: Record<string, number>): void {
  write(
    'axis.config.json',
    {
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
      settings: { simulate: true, runs, concurrency: 1, ...(thresholds ? { thresholds } : {}) },
      judge: { provider: 'anthropic', max_retries: 0 },
    },
    root,
  );
}

interface Surfaces {
  run: CliResult;
  junit: string;
  github: string;
  reports: string;
  html: HtmlReportData;
}

/** `axis run` with every reporter, then `axis reports latest` and report.html of that report. */
async function runAll(args: string[] = [], root = dir, waitFor?: string[]): Promise<Surfaces> {
  rmSync(join(root, 'summary.md'), { force: true });
  const child = startAxis(['run', '--reporter', 'list,junit=junit.xml,github', ...args], root, {
    GITHUB_STEP_SUMMARY: join(root, 'summary.md'),
    GITHUB_ACTIONS: undefined,
  });
  // Ctrl-C once the output holds every line of `waitFor`.
  if (waitFor) {
    const seen = () => waitFor.every((line) => child.output().includes(line));
    expect(await waitUntil(seen, 30_000), child.output()).toBe(true);
    child.child.kill('SIGINT');
  }
  const run = await child.done;
  return { run, ...(await readSurfaces(root, run)) };
}

/** The latest report's id in project `root`. */
/** A summary line folded at ` · ` for 80 columns, read as the one line again. */
const unfold = (text: string) => text.replace(/ ·\n +/g, ' · ');
const latestId = (root: string) => readdirSync(join(root, '.axis/reports')).sort().at(-1)!;

/** What the other surfaces say of the latest report in project `root`. */
async function readSurfaces(root: string, run: CliResult): Promise<Omit<Surfaces, 'run'>> {
  const reports = await axis(['reports', 'latest'], root);
  const page = readFileSync(join(root, '.axis/reports', latestId(root), 'report.html'), 'utf8');
  const payload = /<script id="axis-report-data"[^>]*>([^<]*)<\/script>/.exec(page)![1]!.trim();
  return {
    junit: readFileSync(join(root, 'junit.xml'), 'utf8'),
    github: `${run.stdout}${run.stderr}\n${readFileSync(join(root, 'summary.md'), 'utf8')}`,
    reports: reports.stdout,
    html: decodeReportData(payload),
  };
}

/** The row of a pair in a whitespace-aligned table, as its cells. */
function row(text: string, key: string): string[] {
  const line = text.split('\n').find((l) => l.trim().startsWith(`${key} `) && / toy /.test(l));
  if (!line) throw new Error(`no row for ${key} in:\n${text}`);
  return line.trim().split(/\s{2,}/);
}

/** The row of a pair in the GitHub job summary's markdown table. */
function mdRow(text: string, key: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith(`| ${key} |`));
  if (!line) throw new Error(`no markdown row for ${key} in:\n${text}`);
  return line.slice(2, -2).split(' | ');
}

/** A JUnit testcase's properties. */
function junitCase(xml: string, key: string): Record<string, string> {
  const m = new RegExp(`<testcase classname="${key}" name="toy"[^]*?</testcase>`).exec(xml);
  if (!m) throw new Error(`no testcase for ${key} in:\n${xml}`);
  const props: Record<string, string> = { _: m[0] };
  for (const p of m[0].matchAll(/<property name="([^"]+)" value="([^"]*)"\/>/g)) props[p[1]!] = p[2]!;
  return props;
}

const htmlPair = (html: HtmlReportData, key: string) => html.pairs.find((p) => p.scenarioKey === key)!;

let first: Surfaces;
/** `--no-score -s flaky` (set by the test that makes it). */
let noScore: Surfaces;
/** The run stopped by Ctrl-C while `h` ran (set by the test that makes it). */
let cancelled: Surfaces;

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-one-truth-')));
  project(dir, 3);
  scenario('steady', 'g9');
  scenario('flaky', 'g10,crash,g3');
  scenario('unscored', 'jdown');
  scenario('broken', 'crash,hang,crash');
  scenario('gone', 'g9');
  first = await runAll();
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one truth per fact across axis run, the reporters, axis reports and report.html', () => {
  it('a pair where no run completed shows no score anywhere, never a 0 it did not earn', () => {
    const { run, junit, github, reports, html } = first;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    // axis reports and report.html: no number, the status says failed.
    expect(row(reports, 'broken').slice(2, 7)).toEqual(['–', '–', '–', '–', '–']);
    const pair = htmlPair(html, 'broken');
    expect(pair.runs[pair.representative]!.status).toBe('failed');
    expect(pair.runs[pair.representative]!.scores).toBeNull();
    // The run's summary table and the job summary say the same: a dash, not 0.
    expect(row(run.stdout, 'broken').slice(3)).toEqual(['–', '–', '–', '–', '–']);
    expect(mdRow(github, 'broken').slice(3)).toEqual(['–', '–', '–', '–', '–']);
    const tc = junitCase(junit, 'broken');
    expect(tc.axis_score).toBe('');
    expect(tc._).not.toContain('AXIS 0');
  });

  it('a flaky pair: the same headline (the tie goes down), reliability and gate everywhere', () => {
    const { run, junit, github, reports, html } = first;
    // Runs 100, crash, 65: the tie around 82.5 goes to 65 (run 3), reliability 2/3.
    const line =
      '3 runs (2 scored): median 82.5, range 65–100, σ 24.7 · reliability 66% (2/3 runs completed) · representative run 3';
    expect(unfold(run.stdout)).toContain(`  flaky · toy: AXIS 65 · ${line}`);
    expect(unfold(reports)).toContain(`  ↳ ${line}`);
    expect(row(run.stdout, 'flaky')[3]).toBe('65');
    expect(mdRow(github, 'flaky')[3]).toBe('65');
    expect(row(reports, 'flaky')[2]).toBe('65');
    expect(junitCase(junit, 'flaky')).toMatchObject({ axis_score: '65', reliability: '0.667' });
    const pair = htmlPair(html, 'flaky');
    expect(pair.runs[pair.representative]).toMatchObject({ index: 3, scores: { axis: 65 } });
    expect(pair.reliabilityText).toBe('reliability 66% (2/3 runs completed)');
    // The gate: the one pair where no run completed, in the exit code, JUnit and GitHub alike.
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('CI gate: 1 pair fail\n  ✗ broken · toy: No run completed');
    expect(junit).toMatch(/<testsuites name="AXIS" tests="5" failures="1" /);
    expect(github.match(/^::error /gm)).toHaveLength(1);
    expect(github).toContain('gate **fail**');
  });

  it('a dimension nothing exercised reads n/a everywhere, a missing number –', () => {
    const { run, github, reports, html } = first;
    // No service was touched: axis reports and report.html say n/a.
    expect(row(reports, 'steady').slice(2, 7)).toEqual(['95', '90', '100', 'n/a', '100']);
    const rep = htmlPair(html, 'steady').runs[0]!;
    expect(rep.scores!.service.notApplicable).toBe(true);
    // So do the run's summary table, the job summary and each job's score line.
    expect(row(run.stdout, 'steady').slice(3)).toEqual(['95', '90', '100', 'n/a', '100']);
    expect(mdRow(github, 'steady').slice(3)).toEqual(['95', '90', '100', 'n/a', '100']);
    expect(run.stdout).toContain('AXIS 95 · goal 90 · env 100 · svc n/a · agent 100');
    expect(run.stdout).not.toContain('svc –');
  });

  it('an unscored pair shows the same numbers everywhere: no AXIS Result, the dimensions it has', () => {
    const { run, junit, github, reports, html } = first;
    // The judge failed: no AXIS Result, goal and agent unknown, the measured environment kept.
    const rep = htmlPair(html, 'unscored').runs[0]!;
    expect(rep.status).toBe('unscored');
    expect([rep.scores!.axis, rep.scores!.environment.score]).toEqual([null, 100]);
    expect(row(run.stdout, 'unscored').slice(3)).toEqual(['–', '–', '100', 'n/a', '–']);
    expect(mdRow(github, 'unscored').slice(3)).toEqual(['–', '–', '100', 'n/a', '–']);
    expect(junitCase(junit, 'unscored')).toMatchObject({ axis_score: '', environment: '100' });
    expect(row(reports, 'unscored').slice(2, 7)).toEqual(['–', '–', '100', 'n/a', '–']);
    expect(row(reports, 'unscored')).toContain('unscored');
  });

  it('a baseline pair missing from the report fails the gate on every surface that draws it', async () => {
    const set = await axis(['baseline', 'set'], dir);
    expect(set.code, set.stdout + set.stderr).toBe(0);
    rmSync(join(dir, 'scenarios/gone.json'));
    const { run, junit, github } = await runAll(['--compare-baseline']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const gate = run.stdout.slice(run.stdout.indexOf('CI gate:'));
    expect(gate).toMatch(/^CI gate: 2 pairs fail\n/);
    expect(gate).toContain('✗ gone · toy: In the baseline but missing from this report');
    // The summary's failure lines (above "Gate: fail") name it too.
    const summary = run.stdout.slice(0, run.stdout.indexOf('Gate: fail'));
    expect(summary).toContain('✗ gone · toy: In the baseline but missing from this report');
    // JUnit: a test case that fails as missing, counted with the others.
    expect(junit).toMatch(/<testsuites name="AXIS" tests="5" failures="2" /);
    expect(junitCase(junit, 'gone')._).toContain(
      '<failure type="missing" message="In the baseline but missing',
    );
    // GitHub: an ::error annotation and a line under Failures.
    expect(github).toContain('::error title=AXIS gone · toy::In the baseline but missing from this report');
    expect(github).toContain('- `gone` · `toy`: In the baseline but missing from this report');
  });

  it('--no-score: a repeated pair has the same reliability in JUnit as in every other view', async () => {
    noScore = await runAll(['--no-score', '-s', 'flaky']);
    const { run, junit, reports, html } = noScore;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const words = 'reliability 66% (2/3 runs completed)';
    expect(run.stdout).toContain(words);
    expect(reports).toContain(words);
    expect(htmlPair(html, 'flaky')).toMatchObject({ reliability: 0.667, reliabilityText: words });
    expect(junitCase(junit, 'flaky')).toMatchObject({ status: 'completed', reliability: '0.667' });
  });

  it('a pair and a report count the same tokens everywhere (input + output + cache)', () => {
    const { run, junit, reports, html } = first;
    // Each run: 100 input, 20 output, 5 cache reads = 125.
    expect(run.stdout).toMatch(/✓ steady +toy #1\/3 +completed +\S+ +125 tokens/);
    expect(row(reports, 'steady')[8]).toBe('125');
    expect(junitCase(junit, 'steady').tokens).toBe('125');
    const rep = htmlPair(html, 'steady').runs[0]!;
    expect(rep.tokens).toMatchObject({ input: 100, output: 20, cacheRead: 5, total: 125 });
    // The report's total over all runs: 11 runs got that far (3 steady, 2 flaky, 3 unscored, 3 gone).
    expect(run.stdout).toContain('· 1,375 tokens');
    expect(html.summary.totalTokens).toBe(1375);
  });

  it(
    'a run cancelled while it ran is cancelled everywhere: not a failed score, not a failed pair',
    async () => {
      const root = join(dir, 'cancel');
      // A reliability minimum: the cancelled pair has no run that counts, and is still not blamed.
      project(root, 1, { reliability: 0.5 });
      scenario('a', 'g9', root, 1);
      scenario('h', 'hang', root, 1);
      // Ctrl-C once `a` is judged (its score line is out) and `h` runs.
      cancelled = await runAll([], root, ['AXIS 95 · goal', '▶ h']);
      const { run, junit, reports } = cancelled;
      expect(run.code, run.stdout + run.stderr).toBe(130);
      expect(run.stdout).toContain('2 pairs: 1 completed, 0 failed, 1 cancelled');
      // The score summary agrees with the pair counts: one scored pair, no failed one.
      expect(unfold(run.stdout)).toMatch(/Average AXIS Result: 95 \(1 scored\) · /);
      expect(reports).toContain('AXIS Result  95 / 100 average (1 scored, 0 unscored, 0 failed)');
      const m = JSON.parse(readFileSync(join(root, '.axis/reports', latestId(root), 'report.json'), 'utf8'));
      const h = m.results.find((r: { scenarioKey: string }) => r.scenarioKey === 'h');
      expect(h.status).toBe('cancelled');
      expect(h.runs[0].scoreStatus).toBeUndefined();
      expect(m.summary.scores.failed).toBe(0);
      expect(junitCase(junit, 'h')._).not.toContain('failed:');
      const view = await axis(['reports', 'latest', 'h'], root);
      expect(view.stdout).not.toMatch(/AXIS Result +failed/);
    },
    T,
  );

  it('a cancelled pair is not listed as failing, and is counted everywhere; the unfinished run fails the gate', () => {
    const { run, junit, github, html } = cancelled;
    // Exit 130: no surface may say the gate passed.
    expect(run.stdout).toContain('Gate: fail (the run is incomplete: Run cancelled by SIGINT)');
    // The pair is skipped; the run's own `run complete` case fails, as the gate does.
    expect(junit).toMatch(/<testsuites name="AXIS" tests="3" failures="1" /);
    expect(junit).toContain(
      '<failure type="incomplete" message="The run is incomplete: Run cancelled by SIGINT">',
    );
    expect(junit).toMatch(/skipped="1"[^]*<skipped message="Cancelled: Run cancelled by SIGINT"\/>/);
    // No failure line for it in the run's summary or the job summary, no ::error.
    expect(run.stdout).not.toMatch(/✗ h · toy/);
    expect(github).not.toContain('**Failures**');
    expect(github).not.toContain('::error');
    // The same counts as the run's summary and axis reports.
    const counts = '2 pairs: 1 completed, 0 failed, 1 cancelled';
    expect(github).toContain(
      `${counts} · average AXIS Result **95** · gate **fail** (the run is incomplete)`,
    );
    expect(html.summary.pairs).toEqual({ total: 2, completed: 1, failed: 0, cancelled: 1 });
  });

  it("a pair's status is the same word in the run summary, the job summary, JUnit and axis reports", () => {
    const { run, junit, github, reports } = first;
    const words: Record<string, string> = {
      steady: 'completed',
      flaky: 'completed',
      unscored: 'unscored',
      broken: 'failed',
    };
    for (const [key, word] of Object.entries(words)) {
      expect(row(run.stdout, key)[2], key).toMatch(new RegExp(`^${word} \\(\\d/3 runs\\)$`));
      expect(mdRow(github, key)[2], key).toMatch(new RegExp(`^${word} \\(\\d/3 runs\\)$`));
      expect(row(reports, key).at(-1), key).toMatch(new RegExp(`^(✓ |✗ )?${word}$`));
    }
    expect(junitCase(junit, 'steady').status).toBe('completed');
    // The line under the table for a repeated pair without a score says the same word.
    expect(run.stdout).toContain('  unscored · toy: unscored · 3 runs (0 scored)');
    expect(run.stdout).toContain('  broken · toy: failed · 3 runs (0 scored)');
  });

  it('--no-score: a finished run reads completed in report.html too, as everywhere else', () => {
    const { run, reports, html } = noScore;
    expect(row(run.stdout, 'flaky')[2]).toBe('completed (2/3 runs)');
    expect(row(reports, 'flaky').at(-1)).toBe('✓ completed');
    const pair = htmlPair(html, 'flaky');
    expect(pair.runs.map((r) => r.status)).toEqual(['completed', 'failed', 'completed']);
    expect(pair.runs[0]!.scores).toBeNull();
  });
});
