/**
 * One truth for the gate: each case below is a real `node bin/axis.js` command under the simulator (the
 * `plan-agent`, test/fixtures/command-agent), and every output that states the gate is read back: the
 * command's own text, `axis reports <id>` (text and --json), the `axis reports` list (text and --json),
 * report.json, report.html's embedded data, the JUnit file, the GitHub annotations and the step summary.
 * Each must say the same pass/fail and the same reasons as report.json's `verdict`.
 */
import { readFileSync, readdirSync, realpathSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failureLines,
  foldedFailureLines,
  formatVerdict,
  gateChecks,
  gateLine,
  gateLines,
  gateWord,
  type RunVerdict,
} from '../../../src/report/verdict.js';
import { htmlGate, junitFailures, md, pairCauses, unXml } from './gate-outputs.js';
import { goalGrade, PERFECT_AGENT_JUDGE } from '../../helpers/judge-tape.js';
import { writeIn } from '../../unit/run/helpers.js';
import { axis, buildDist, ROOT, unfoldCrosses, type CliResult } from '../run/helpers.js';

const T = 180_000;
const AGENT = join(ROOT, 'test/fixtures/command-agent/plan-agent.mjs');
let dir = '';

/** The judge grades `MARK_g<N>` N/10 (`grades` overrides some), every agent audit perfect. */
const judgeTape = (grades: Record<number, number> = {}) => ({
  turns: [{ text: 'unused: the plan agent has no model' }],
  judge: [
    { match: 'MARK_jdown', fault: { status: 500 } },
    PERFECT_AGENT_JUDGE,
    ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((g) => ({ ...goalGrade(g), ...reGrade(g, grades[g]) })),
  ],
});
const reGrade = (g: number, to: number | undefined) =>
  to === undefined
    ? {}
    : { answer: { grades: [{ criterion_index: 0, score: to, rationale: `graded ${to}` }] } };

/** A scenario whose runs follow `plan` (g9 → AXIS 95, g6 → 80, g5 → 75, crash: no run completes). */
function scenario(key: string, plan: string, thresholds?: Record<string, number>): void {
  writeIn(dir, `scenarios/${key}.json`, {
    name: key,
    prompt: `Write out.txt PLAN:${plan} KEY:${key} DIR:${dir}`,
    judge: [{ check: 'out.txt was written' }],
    limits: { time_minutes: 0.05 },
    ...(thresholds ? { thresholds } : {}),
  });
  writeIn(dir, `tapes/${key}.json`, judgeTape());
}

function config(tolerance = 1): void {
  writeIn(dir, 'axis.config.json', {
    scenarios: './scenarios',
    agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
    settings: { simulate: true, concurrency: 1, thresholds: { baseline_tolerance: tolerance } },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
}

const REPORTERS = ['--reporter', 'list,junit=junit.xml,github'];
const CI_ENV = () => ({ GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_ACTIONS: undefined });

/** A command with every reporter; the JUnit file and the step summary are fresh for it. */
async function withReporters(args: string[], at = dir): Promise<CliResult> {
  rmSync(join(at, 'junit.xml'), { force: true });
  writeFileSync(join(dir, 'summary.md'), '');
  return axis([...args, ...REPORTERS], at, CI_ENV());
}

const savedId = (r: CliResult) => /Report saved: \.axis\/reports\/(\S+)/.exec(r.stdout)?.[1];
const reportJson = (id: string, at = dir) =>
  JSON.parse(readFileSync(join(at, '.axis/reports', id, 'report.json'), 'utf8')) as {
    verdict?: RunVerdict;
    results: { scenarioKey: string; agentName: string }[];
  };

interface Expected {
  pass: boolean;
  /** `<scenario>:<kind>` of every failure, in the verdict's order. */
  failures: string[];
  baseline?: string;
  /** What the gate checked, as every output words it (gateChecks). */
  checks: string;
}

const NOTHING = 'no thresholds · no baseline (checked only that pairs completed)';
const MINIMUMS = 'thresholds axis_score (axis.config.json)';
const MINIMUMS_ONLY = `${MINIMUMS} · no baseline`;

/**
 * Every output of report `id` states the verdict of its report.json, and that verdict is `want`.
 * `own` is what the command printed; `reporters`: it ran with list, junit and github; `at`: the project.
 */
async function expectOneTruth(id: string, own: CliResult, want: Expected, reporters: boolean, at = dir) {
  const v = reportJson(id, at).verdict!;
  expect(v, `report.json of ${id} has no verdict`).toBeDefined();
  expect(v.pass).toBe(want.pass);
  expect(v.pairs.flatMap((p) => p.failures.map((f) => `${p.scenarioKey}:${f.kind}`))).toEqual(want.failures);
  expect(v.baseline?.name).toBe(want.baseline);
  // What it checked is recorded once, and the Gate line every view draws says it.
  expect(gateChecks(v)).toBe(want.checks);
  expect(v.thresholds === null).toBe(want.checks.startsWith('no thresholds'));
  const line = gateLine(v);
  expect(line).toContain(` · ${want.checks}`);
  // The terminal views fold it (and the ✗ lines) to 80 columns in a pipe; report.html has them whole.
  const folded = gateLines(v).join('\n');
  const lines = failureLines(v);
  const foldedLines = foldedFailureLines(v);
  const word = v.pass ? 'pass' : 'fail';

  // axis reports <id>, text and --json.
  const shown = await axis(['reports', id], at);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toContain(`\n${[folded, ...foldedLines].join('\n')}\n\n`);
  const json = await axis(['reports', id, '--json'], at);
  expect((JSON.parse(json.stdout) as { verdict: RunVerdict }).verdict).toEqual(v);
  // The list, text and --json: its Gate column, marked when the gate checked nothing but completion.
  const list = await axis(['reports', '--json'], at);
  const entry = (JSON.parse(list.stdout) as { reportId: string; gate: unknown; gateChecks?: string }[]).find(
    (r) => r.reportId === id,
  );
  expect(entry?.gate).toBe(word);
  expect(entry?.gateChecks).toBe(want.checks);
  const listText = (await axis(['reports'], at)).stdout;
  const row = listText.split('\n').find((l) => l.startsWith(`${id} `));
  expect(row).toContain(` ${word} `);
  expect(row!.includes(' (completion only)'), row).toBe(want.pass && want.checks === NOTHING);
  // report.html.
  expect(htmlGate(id, at)).toEqual({ pass: v.pass, line, failures: lines.map((l) => l.trimStart()) });

  // The command's own text: the Gate line, the failing pairs above it, the CI gate block.
  const out = own.stdout;
  expect(out).toContain(`${folded}\n`);
  if (!reporters) {
    expect(out).toContain(`${[folded, ...foldedLines].join('\n')}\n`);
    return;
  }
  expect(own.code, out + own.stderr).toBe(want.pass ? 0 : 1);
  // The summary's lines (`✗ <scenario> · <agent>: …`), not the jobs' progress lines.
  const above = unfoldCrosses(out.slice(0, out.indexOf(`${folded}\n`)));
  expect(above.split('\n').filter((l) => /^ {2}✗ \S+ · \S+: /.test(l))).toEqual(
    pairCauses(v).map((c) => `  ✗ ${c}`),
  );
  if (!v.pass) expect(out).toContain(formatVerdict(v));
  else expect(out).not.toContain('CI gate:');

  // JUnit: each pair's failures are the verdict's, and the counts agree.
  const xml = readFileSync(join(at, 'junit.xml'), 'utf8');
  expect(unXml(xml)).toContain(`<property name="gate" value="${gateWord(v)}"/>`);
  expect(unXml(xml)).toContain(`<property name="gate_checks" value="${want.checks}"/>`);
  const cases = junitFailures(xml);
  for (const p of v.pairs)
    expect(cases.get(`${p.scenarioKey} · ${p.agent}`), `${p.scenarioKey}`).toEqual(
      p.failures.map((f) => `${f.kind}: ${f.message}`),
    );
  // A run that fails with no pair to blame has a failing test case of its own.
  const runCases = [v.incomplete, v.unscored].filter((x) => x !== undefined).length;
  const failing = v.pairs.filter((p) => p.failures.length > 0).length + runCases;
  const tests = v.pairs.length + runCases;
  expect(xml).toMatch(new RegExp(`<testsuites name="AXIS" tests="${tests}" failures="${failing}" `));
  if (v.unscored !== undefined)
    expect(xml).toContain('<failure type="unscored" message="No pair was scored: ');

  // GitHub: one ::error per reason; the step summary's gate word and Failures list.
  const errors = `${own.stdout}${own.stderr}`.split('\n').filter((l) => l.startsWith('::error '));
  expect(errors.map((l) => l.replace(/%25/g, '%'))).toEqual(
    v.pairs.flatMap((p) =>
      p.failures.map((f) => `::error title=AXIS ${p.scenarioKey} · ${p.agent}::${f.message}`),
    ),
  );
  const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
  const note = v.unscored !== undefined ? ' (no pair was scored)' : '';
  expect(summary).toContain(` · gate **${word}**${note} · ${md(want.checks)}\n`);
  const listed = summary.split('\n').filter((l) => l.startsWith('- `'));
  expect(listed).toEqual(
    pairCauses(v).map((c) => {
      const [pair, ...why] = c.split(': ');
      const [s, a] = pair!.split(' · ');
      return `- \`${s}\` · \`${a}\`: ${why.join(': ')}`;
    }),
  );
}

beforeAll(() => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-gate-surfaces-')));
  config();
  scenario('steady', 'g9');
  scenario('tie', 'g6', { axis_score: 80 });
  scenario('miss', 'g5', { axis_score: 80 });
  // Runs of 100, a crash, 65: the median 82.5 would pass 70, the headline (the tie goes down) does not.
  scenario('flaky', 'g10,crash,g3', { axis_score: 70 });
  scenario('broken', 'crash');
  scenario('judge-down', 'jdown');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
});

/** The report every later case builds on: `steady` and `tie` (exactly at its threshold), passing. */
let first = '';

interface Case {
  name: string;
  /** Runs the command (after any edits) and returns it with the report it wrote or updated. */
  act: () => Promise<{ r: CliResult; id: string }>;
  want: Expected;
  reporters: boolean;
  /** The project the command ran in, when not the suite's own. */
  at?: () => string;
}

let elsewhere = '';
/** A directory with no AXIS config, for a merge outside any project. */
const outside = () => (elsewhere ||= realpathSync(mkdtempSync(join(tmpdir(), 'axis-gate-outside-'))));

const ran = async (args: string[]) => {
  const r = await withReporters(args);
  const id = savedId(r);
  if (!id) throw new Error(`no report saved:\n${r.stdout}\n${r.stderr}`);
  return { r, id };
};

const CASES: Case[] = [
  {
    name: 'thresholds met, one exactly at its threshold: pass',
    act: async () => {
      const out = await ran(['run', '-s', 'steady,tie']);
      first = out.id;
      return out;
    },
    want: { pass: true, failures: [], checks: MINIMUMS_ONLY },
    reporters: true,
  },
  {
    name: 'no minimum applies and no baseline: pass, and every output says only completion was checked',
    act: () => ran(['run', '-s', 'steady']),
    want: { pass: true, failures: [], checks: NOTHING },
    reporters: true,
  },
  {
    name: 'a threshold missed',
    act: () => ran(['run', '-s', 'miss']),
    want: { pass: false, failures: ['miss:threshold'], checks: MINIMUMS_ONLY },
    reporters: true,
  },
  {
    name: 'an errored job: no run completed',
    act: () => ran(['run', '-s', 'broken']),
    want: { pass: false, failures: ['broken:failed'], checks: NOTHING },
    reporters: true,
  },
  {
    name: 'no pair was scored (the judge is down): fail with no pair to blame',
    act: () => ran(['run', '-s', 'judge-down']),
    want: { pass: false, failures: [], checks: NOTHING },
    reporters: true,
  },
  {
    name: 'a flaky pair: its headline is the lower middle run, below the threshold its median meets',
    act: () => ran(['run', '-s', 'flaky', '--runs', '3']),
    want: { pass: false, failures: ['flaky:threshold'], checks: MINIMUMS_ONLY },
    reporters: true,
  },
  {
    name: 'a regression beyond baseline_tolerance',
    act: async () => {
      expect((await axis(['baseline', 'set', '--from', first], dir)).code).toBe(0);
      scenario('steady', 'g8'); // 95 → 90
      return ran(['run', '-s', 'steady,tie', '--compare-baseline']);
    },
    want: {
      pass: false,
      failures: ['steady:regression'],
      baseline: 'main',
      checks: `${MINIMUMS} · baseline main (tolerance floor 1)`,
    },
    reporters: true,
  },
  {
    name: 'a drop exactly at baseline_tolerance: pass',
    act: async () => {
      config(5);
      return ran(['run', '-s', 'steady,tie', '--compare-baseline']);
    },
    want: {
      pass: true,
      failures: [],
      baseline: 'main',
      checks: `${MINIMUMS} · baseline main (tolerance floor 5)`,
    },
    reporters: true,
  },
  {
    name: 'axis score re-scores an old report: the judge now grades tie below its threshold',
    act: async () => {
      writeIn(dir, 'tapes/tie.json', judgeTape({ 6: 5 }));
      const r = await axis(['score', first], dir);
      expect(r.code, r.stderr).toBe(0);
      return { r, id: first };
    },
    want: { pass: false, failures: ['tie:threshold'], checks: MINIMUMS_ONLY },
    reporters: false,
  },
  {
    name: 'axis reports merge of two shards, compared with the baseline (tie is graded lower since)',
    act: async () => {
      // One shard holds the failing pair (exit 1), the other passes.
      for (const k of ['1/2', '2/2']) {
        const shard = await axis(['run', '--shard', k, '-s', 'steady,tie,miss', '-o', 'blobs'], dir);
        expect([0, 1], shard.stderr).toContain(shard.code);
      }
      return ran(['reports', 'merge', 'blobs', '--compare-baseline']);
    },
    want: {
      pass: false,
      failures: ['miss:threshold', 'tie:threshold'],
      baseline: 'main',
      checks: `${MINIMUMS} · baseline main (tolerance floor 5)`,
    },
    reporters: true,
  },
  {
    name: 'the same blobs merged outside any project: no minimum applied, and every output says so',
    act: async () => {
      const r = await withReporters(['reports', 'merge', join(dir, 'blobs')], outside());
      expect(r.stderr).toContain('No AXIS config here (pass -c <config>)');
      const id = savedId(r);
      if (!id) throw new Error(`no report saved:\n${r.stdout}\n${r.stderr}`);
      return { r, id };
    },
    want: { pass: true, failures: [], checks: NOTHING },
    reporters: true,
    at: () => outside(),
  },
];

describe('every output states the same gate verdict as report.json', () => {
  for (const c of CASES)
    it(
      c.name,
      async () => {
        const { r, id } = await c.act();
        await expectOneTruth(id, r, c.want, c.reporters, c.at?.() ?? dir);
      },
      T,
    );

  it('no baseline yet: --compare-baseline is a clear error (exit 2) and writes no report', async () => {
    const before = readdirSync(join(dir, '.axis/reports')).length;
    const r = await axis(['run', '-s', 'steady', '--compare-baseline', 'nightly'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Baseline "nightly" not found in .axis/baselines');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(join(dir, '.axis/reports'))).toHaveLength(before);
  });

  it(
    'reports and blobs written before the verdict was stored still show and merge',
    async () => {
      // A report.json without `verdict`: listed with no gate, shown without a Gate line.
      const old = readdirSync(join(dir, '.axis/reports')).sort()[1]!;
      const file = join(dir, '.axis/reports', old, 'report.json');
      const { verdict: _v, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as { verdict?: unknown };
      writeFileSync(file, JSON.stringify(rest));
      const list = await axis(['reports'], dir);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^${old} .* – `, 'm'));
      const listJson = JSON.parse((await axis(['reports', '--json'], dir)).stdout) as {
        reportId: string;
        gate: unknown;
      }[];
      expect(listJson.find((r) => r.reportId === old)!.gate).toBeNull();
      const shown = await axis(['reports', old], dir);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).not.toContain('Gate:');

      // Blobs whose shard report.json has no verdict: the merge gates them as any other.
      for (const name of readdirSync(join(dir, 'blobs')).filter((f) => f.endsWith('.zip'))) {
        const zip = unzipSync(readFileSync(join(dir, 'blobs', name)));
        const { verdict: _b, ...report } = JSON.parse(Buffer.from(zip['report/report.json']!).toString()) as {
          verdict?: unknown;
        };
        expect(_b).toBeDefined();
        zip['report/report.json'] = Buffer.from(JSON.stringify(report));
        writeFileSync(join(dir, 'blobs', name), zipSync(zip));
      }
      const { r, id } = await ran(['reports', 'merge', 'blobs']);
      await expectOneTruth(
        id,
        r,
        { pass: false, failures: ['miss:threshold', 'tie:threshold'], checks: MINIMUMS_ONLY },
        true,
      );
    },
    T,
  );
});
