/**
 * A CI log is read at 80 columns: the Gate line was folded to them, but the `✗` lines of failing pairs
 * (the summary's causes, the `CI gate:` block, `axis reports <id>`, `axis score`) ran on past 160. They
 * fold the same way now: at most 80 columns, continuation lines indented under the text, no word or path
 * cut, and read together they say what the one line did (report.html keeps them whole).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { failureLines, type RunVerdict } from '../../../src/report/verdict.js';
import { textWidth } from '../../../src/util/width.js';
import { simProject, tape, toyAgent, writeJson } from '../compare/helpers.js';
import { axis, buildDist } from './helpers.js';

const KEY = 'checkout/payment-flow-with-saved-card';
const AGENT = 'toy-agent-with-a-longer-name';
let dir = '';

beforeAll(() => {
  buildDist();
  dir = simProject('axis-ci-width-', {}, []);
  const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'));
  writeJson(dir, 'axis.config.json', { ...config, agents: [toyAgent(AGENT)] });
  const thresholds = { axis_score: 99, goal_achievement: 95 };
  writeJson(dir, `scenarios/${KEY}.json`, {
    name: 'pay',
    prompt: 'Write out.txt',
    judge: [{ check: 'x' }],
    thresholds,
  });
  writeJson(dir, `tapes/${KEY}.json`, tape(9));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The `  ✗ ` lines of `text` with their continuation lines (4 spaces, then text), each joined again. */
function crosses(text: string): { whole: string; lines: string[] }[] {
  const out: { whole: string; lines: string[] }[] = [];
  let open = false;
  for (const line of text.split('\n')) {
    const more: boolean = open && /^ {4}\S/.test(line);
    if (more) out[out.length - 1]!.lines.push(line);
    else if (line.startsWith('  ✗ ')) out.push({ whole: '', lines: [line] });
    open = line.startsWith('  ✗ ') || more;
  }
  return out.map((c) => ({ ...c, whole: c.lines.map((l, i) => (i ? l.trim() : l)).join(' ') }));
}

function expectFolded(text: string, want: string[]): void {
  const got = crosses(text);
  for (const l of got.flatMap((c) => c.lines)) expect(textWidth(l), l).toBeLessThanOrEqual(80);
  for (const w of want) expect(got.map((c) => c.whole)).toContain(w);
  expect(got.some((c) => c.lines.length > 1)).toBe(true);
}

it('axis run, axis reports <id> and axis score fold the ✗ lines at 80 columns in a CI log', async () => {
  const run = await axis(['run'], dir);
  expect(run.code, run.stderr).toBe(1);
  const id = /Report saved: \.axis\/reports\/(\S+)/.exec(run.stdout)![1]!;
  const v = JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8'))
    .verdict as RunVerdict;
  const whole = failureLines(v);
  expect(Math.max(...whole.map(textWidth))).toBeGreaterThan(110);
  // The summary's one cause per pair, and the CI gate block's one line per failure.
  const ci = run.stdout.slice(run.stdout.indexOf('CI gate:'));
  expectFolded(ci, whole);
  const causes = run.stdout.slice(0, run.stdout.indexOf('Gate: '));
  const messages = v.pairs[0]!.failures.map((f) => f.message).join('; ');
  expectFolded(causes, [`  ✗ ${KEY} · ${AGENT}: ${messages}`]);

  const reports = await axis(['reports', id], dir);
  expect(reports.code, reports.stderr).toBe(0);
  expectFolded(reports.stdout, whole);
  const score = await axis(['score', id], dir);
  expect(score.code, score.stderr).toBe(0);
  expectFolded(score.stdout, whole);
}, 120_000);

it("axis run's other summary lines (average, report files, View it) fit 80 columns in a CI log", async () => {
  const run = await axis(['run'], dir, { CI: 'true' });
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stdout.split('\n');
  // Tables are out of scope: everything from the average line on, and the lines before the table.
  const after = lines.slice(lines.findIndex((l) => l.startsWith('Average AXIS Result: ')));
  expect(after.join('\n')).toMatch(/judge .+: [\d,]+ tokens/);
  for (const l of after) expect(textWidth(l), l).toBeLessThanOrEqual(80);
  const id = /Report saved: \.axis\/reports\/(\S+)/.exec(run.stdout)![1]!;
  // Each command stays whole on its own line, ready to copy.
  expect(after).toContain(`View it: axis reports ${id}   ·`);
  expect(after).toContain(`  in a browser: axis reports ${id} --html`);
  expect(after).toContain('  report.json (summary), report.html (open in a browser),');
  expect(after).toContain("  scenarios/ (each run's detail and raw output)");
}, 120_000);

it("a failed job's line puts a reason wider than 80 columns on its own folded lines in a CI log", async () => {
  const why = 'fatal: the model exploded while reading the very long configuration of the workspace';
  const agent = { agent: 'command', name: 'bot', command: 'sh', args: ['-c', `echo '${why}' >&2; exit 3`] };
  const project = join(dir, 'failing');
  mkdirSync(join(project, 'scenarios'), { recursive: true });
  writeFileSync(
    join(project, 'axis.config.json'),
    JSON.stringify({ agents: [{ ...agent, output: 'text' }] }),
  );
  writeFileSync(
    join(project, 'scenarios/s.json'),
    JSON.stringify({ name: 's', prompt: 'p', checks: [{ result_matches: '.*' }] }),
  );
  const run = await axis(['run', '--no-score'], project, { CI: 'true' });
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stdout.split('\n');
  for (const l of lines) expect(textWidth(l), l).toBeLessThanOrEqual(80);
  const at = lines.findIndex((l) => /^ {2}✗ s +bot +failed +\S+ +0 tokens$/.test(l));
  expect(at, run.stdout).toBeGreaterThan(0);
  const reason = lines.slice(at + 1, at + 3);
  expect(reason.every((l) => l.startsWith('      '))).toBe(true);
  expect(reason.map((l) => l.trim()).join(' ')).toBe(`crash: command agent "bot" exited with code 3: ${why}`);
}, 60_000);
