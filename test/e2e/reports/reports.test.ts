/**
 * `axis reports` end to end: reports produced by `node bin/axis.js run` with command agents (the toy
 * NDJSON agent in test/fixtures/command-agent), then read back in all three shapes, as JSON and as
 * HTML — also with the config broken, since reading old reports must never need it.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeReportData } from '../../../src/report/html/render.js';
import { expectValidReport } from '../../helpers/report-schema.js';
import { waitFor } from '../../unit/exec/helpers.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const T = 120_000;
const AGENT = join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh');
/** No display, no $BROWSER, not CI: `--html` must fall back to printing the path. */
const HEADLESS = { DISPLAY: undefined, WAYLAND_DISPLAY: undefined, BROWSER: undefined, CI: undefined };

const dirs: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-reports-e2e-')));
  dirs.push(dir);
  return dir;
}

function writeFiles(dir: string, files: Record<string, unknown>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

const toy = (name: string) => ({ agent: 'command', name, command: AGENT, output: 'ndjson' });

/** Two agents × (a scenario that works, one whose agent crashes); raw results only. */
function rawProject(): string {
  const dir = tempDir();
  writeFiles(dir, {
    'axis.config.json': {
      name: 'Toy suite',
      scenarios: './scenarios',
      agents: [toy('toy'), toy('toy-b')],
      artifacts: ['out.txt'],
    },
    'scenarios/files/hello.json': {
      name: 'Write a file',
      prompt: 'Write out.txt please',
      judge: [{ check: 'out.txt was written' }],
      checks: [{ file: 'out.txt', exists: true }],
      setup: [{ action: 'run_script', command: 'printf "## Seeded\\n- one row\\n" > "$AXIS_OUTPUT"' }],
    },
    'scenarios/crash.json': { name: 'Crash', prompt: 'CRASH now', judge: [{ check: 'did it' }] },
  });
  return dir;
}

beforeAll(buildDist, 180_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('axis reports on a --no-score report (real runs, command agents)', () => {
  let dir: string;
  let id: string;

  beforeAll(async () => {
    dir = rawProject();
    const r = await axis(['run', '--no-score'], dir);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1); // the crashing scenario fails
    [id] = readdirSync(join(dir, '.axis/reports')) as [string];
  }, T);

  it('the run left report.json, per-run files matching the published schema, and report.html', () => {
    const rd = join(dir, '.axis/reports', id);
    const m = expectValidReport(rd);
    expect(m.results).toHaveLength(4);
    expect(existsSync(join(rd, 'report.html'))).toBe(true);
    expect(readFileSync(join(rd, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it(
    'lists the report with its columns',
    async () => {
      const r = await axis(['reports'], dir);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe('AXIS Reports (.axis/reports/)');
      expect(lines[2]).toMatch(/^Report ID +Scenarios +AXIS +Completed +Failed +Gate +Duration +Cost$/);
      expect(lines[3]).toMatch(new RegExp(`^${id} +4 +– +2 +2 +fail +\\S+ +—$`));
      expect(r.stdout).not.toContain('more');
    },
    T,
  );

  it(
    'FORCE_COLOR colours it in a pipe, over NO_COLOR, as axis run does; FORCE_COLOR=0 does not',
    async () => {
      const forced = await axis(['reports', 'latest'], dir, { FORCE_COLOR: '1', NO_COLOR: '1' });
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toContain('\u001b[');
      const list = await axis(['reports'], dir, { FORCE_COLOR: 'true', NO_COLOR: '' });
      expect(list.stdout).toContain('\u001b[');
      const off = await axis(['reports', 'latest'], dir, { FORCE_COLOR: '0', NO_COLOR: '' });
      expect(off.stdout).not.toContain('\u001b[');
    },
    T,
  );

  it(
    'shows the report: one row per pair, failures with their reason, not-scored note and footer',
    async () => {
      const r = await axis(['reports', 'latest'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe(`AXIS Report: ${id} · Toy suite`);
      expect(r.stdout).toContain('Scenarios    4 pairs: 2 completed, 2 failed\n');
      expect(r.stdout).toContain(`AXIS Result  not scored (run with --no-score): axis score ${id}\n`);
      expect(r.stdout).toMatch(/\ncrash +toy +– +– +– +– +– +\S+ +0 +— +✗ failed\n/);
      expect(r.stdout).toContain(
        '  ↳ crash: command agent "toy" exited with code 3: fatal: the model exploded\n',
      );
      expect(r.stdout).toMatch(/\nfiles\/hello +toy-b +– +– +– +– +– +\S+ +125 +— +✓ completed\n/);
      expect(r.stdout).toContain(`\nView scenario detail: axis reports ${id} <scenarioKey>\n`);
    },
    T,
  );

  it(
    'shows one scenario: criteria with check outcomes, sparse index, notes, artifacts, files; -a picks an agent',
    async () => {
      const r = await axis(['reports', id, 'files/hello', '-a', 'toy-b'], dir);
      expect(r.code, r.stderr).toBe(0);
      const out = r.stdout;
      expect(out.split('\n')[0]).toBe('files/hello · toy-b  Write a file');
      expect(out).not.toContain('files/hello · toy ');
      expect(out).toContain('Status       completed · exit code 0 · ');
      expect(out).toContain(
        '\nCriteria\n  · out.txt was written  (weight 50%)\n      not graded: the run was not scored\n',
      );
      expect(out).toContain('  ✔ out.txt exists [check]  (weight 50%)\n      Passed: out.txt exists');
      expect(out).toContain('\nTranscript (sparse index)\n  # Sparse Index: files/hello / toy-b\n');
      expect(out).toMatch(/\n {2}#2 +env +tool +shell\(command: echo hi > out\.txt\) -> ok /);
      expect(out).toContain('\nSetup notes\n  ## Seeded\n  - one row\n');
      expect(out).toContain(
        `\nArtifacts\n  out.txt  3 B  text/plain\n  in .axis/reports/${id}/scenarios/files/hello/toy-b/artifacts/\n`,
      );
      expect(out).toContain(`  detail        .axis/reports/${id}/scenarios/files/hello/toy-b.json\n`);

      const both = await axis(['reports', id, 'files/hello'], dir);
      expect(both.stdout).toContain('files/hello · toy  Write a file');
      expect(both.stdout).toContain('files/hello · toy-b  Write a file');

      const crash = await axis(['reports', id, 'crash', '-a', 'toy'], dir);
      expect(crash.stdout).toContain(
        '\nErrors\n  crash: command agent "toy" exited with code 3: fatal: the model exploded\n',
      );
    },
    T,
  );

  it(
    '--json: the list as summaries, the report as report.json, a scenario as its per-run detail',
    async () => {
      const list = await axis(['reports', '--json'], dir);
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([
        expect.objectContaining({
          reportId: id,
          name: 'Toy suite',
          pairs: 4,
          completed: 2,
          failed: 2,
          averageAxisScore: null,
          scored: false,
          costUsd: null,
          incomplete: false,
          path: `.axis/reports/${id}`,
        }),
      ]);

      const rd = join(dir, '.axis/reports', id);
      const report = await axis(['reports', 'latest', '--json'], dir);
      expect(JSON.parse(report.stdout)).toEqual(JSON.parse(readFileSync(join(rd, 'report.json'), 'utf8')));

      const one = await axis(['reports', id, 'files/hello', '-a', 'toy', '--json'], dir);
      expect(JSON.parse(one.stdout)).toEqual(
        JSON.parse(readFileSync(join(rd, 'scenarios/files/hello/toy.json'), 'utf8')),
      );
      const two = await axis(['reports', id, 'files/hello', '--json'], dir);
      const arr = JSON.parse(two.stdout) as { agentName: string }[];
      expect(arr.map((d) => d.agentName)).toEqual(['toy', 'toy-b']);
    },
    T,
  );

  it(
    '--html rewrites report.html and, with no browser, prints its project-relative path',
    async () => {
      const path = join(dir, '.axis/reports', id, 'report.html');
      rmSync(path);
      const r = await axis(['reports', 'latest', '--html'], join(dir, 'scenarios'), HEADLESS);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`.axis/reports/${id}/report.html\n`);
      expect(existsSync(path)).toBe(true);
    },
    T,
  );

  it.skipIf(process.platform !== 'linux')(
    '--html opens the page with xdg-open when a display is there, without waiting for it',
    async () => {
      const bin = tempDir();
      const marker = join(bin, 'opened.txt');
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${marker}'\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
      const r = await axis(['reports', id, '--html'], dir, {
        ...HEADLESS,
        DISPLAY: ':99',
        PATH: `${bin}:${process.env.PATH ?? ''}`,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`.axis/reports/${id}/report.html\nOpening it with xdg-open.\n`);
      expect(await waitFor(() => existsSync(marker), 10_000)).toBe(true);
      expect(readFileSync(marker, 'utf8')).toBe(join(dir, '.axis/reports', id, 'report.html'));
    },
    T,
  );

  it(
    'axis reports latest --agent X narrows the report: only its rows, counts over those pairs; JSON says so',
    async () => {
      const r = await axis(['reports', 'latest', '--agent', 'toy-b'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(
        'Agent filter "toy-b": 2 of 4 pairs; counts and averages below cover these pairs only.',
      );
      expect(r.stdout).toContain('Scenarios    2 pairs: 1 completed, 1 failed\n');
      expect(r.stdout).toMatch(/\nfiles\/hello +toy-b +/);
      expect(r.stdout).not.toMatch(/\n\S+ +toy +/);
      const j = await axis(['reports', 'latest', '-a', 'toy-b', '--json'], dir);
      const doc = JSON.parse(j.stdout) as {
        filter: unknown;
        summary: { total: number };
        results: { agentName: string }[];
      };
      expect(doc.filter).toEqual({ agent: 'toy-b' });
      expect(doc.summary.total).toBe(2);
      expect(doc.results.map((e) => e.agentName)).toEqual(['toy-b', 'toy-b']);
      const none = await axis(['reports', 'latest', '-a', 'codex'], dir);
      expect(none.code).toBe(1);
      expect(none.stderr).toBe(`No agent matching "codex" ran in report "${id}". Agents in it: toy, toy-b\n`);
    },
    T,
  );

  it(
    'unknown ids and keys: a clear message and exit 1; bad flags exit 2',
    async () => {
      const r = await axis(['reports', '2001-01-01-000000'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`Report "2001-01-01-000000" not found.\nLatest reports: ${id}\n`);
      const k = await axis(['reports', id, 'nope'], dir);
      expect(k.code).toBe(1);
      expect(k.stderr).toBe(
        `Scenario "nope" not found in report "${id}".\nScenarios in this report: crash, files/hello\n`,
      );
      const a = await axis(['reports', id, 'crash', '-a', 'claude-code'], dir);
      expect(a.code).toBe(1);
      expect(a.stderr).toContain(`Scenario "crash" (agent: claude-code) not found in report "${id}".`);
      const n = await axis(['reports', '-n', '0'], dir);
      expect(n.code).toBe(2);
      expect(n.stderr).toBe('-n/--limit: expected a whole number of reports ≥ 1, found "0"\n');
      const both = await axis(['reports', '--html', '--json'], dir);
      expect(both.code).toBe(2);
      expect(both.stderr).toBe('--html and --json cannot be combined.\n');
    },
    T,
  );

  it(
    'from another folder with -c, the commands a report view prints work as printed there (paths stay project-relative)',
    async () => {
      const cwd = dirname(dir);
      const cfg = join(dir, 'axis.config.json');
      const r = await axis(['reports', 'latest', '-c', cfg], cwd);
      expect(r.code, r.stderr).toBe(0);
      // A line over 80 columns puts its command on the next one, whole.
      const html = /\nHTML report: (\S+)(?: |\n {2})\(axis reports (.+)\)\n/.exec(r.stdout)!;
      expect(html[1]).toBe(`.axis/reports/${id}/report.html`);
      expect(html[2]).toBe(`${id} -c ${cfg} --html`);
      expect(r.stdout).toContain(`\nView scenario detail:\n  axis reports ${id} -c ${cfg} <scenarioKey>\n`);
      const list = await axis(['reports', '-c', cfg], cwd);
      expect(list.stdout).toContain(`\nView a report: axis reports <reportId|latest> -c ${cfg}\n`);
    },
    T,
  );

  it(
    'a broken config stops neither the list, the report, the scenario, nor -c pointing at it',
    async () => {
      const broken = tempDir();
      cpSync(dir, broken, { recursive: true });
      writeFileSync(join(broken, 'axis.config.json'), '{ "agents": [ this is not json');
      const run = await axis(['run', '--no-score'], broken);
      expect(run.code).toBe(2); // the config really is broken

      const list = await axis(['reports'], broken);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain(id);
      const report = await axis(['reports', 'latest'], join(broken, 'scenarios/files'));
      expect(report.code, report.stderr).toBe(0);
      expect(report.stdout).toContain(`AXIS Report: ${id}`);
      const scenario = await axis(['reports', id, 'crash', '-c', join(broken, 'axis.config.json')], tmpdir());
      expect(scenario.code, scenario.stderr).toBe(0);
      expect(scenario.stdout).toContain('crash · toy');
    },
    T,
  );
});

describe('axis reports: empty projects, several reports, scored reports', () => {
  it(
    '--help lists exactly the flags docs/cli.md documents',
    async () => {
      const r = await axis(['reports', '--help'], tmpdir());
      expect(r.code).toBe(0);
      const flags = [...r.stdout.matchAll(/^ {2}(-\S.*?)(?: {2,}|$)/gm)].map((m) => m[1]!.trim());
      expect(flags).toContain('-n, --limit <count>');
      const cli = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
      const start = cli.indexOf('## axis reports');
      const section = cli.slice(start, cli.indexOf('\n## ', start + 1));
      for (const flag of flags.filter((f) => f !== '-h, --help'))
        expect(section, flag).toContain(`| \`${flag}\``);
    },
    T,
  );

  it(
    '-n limits the list only: with a report id or --html it is refused (exit 2), not ignored',
    async () => {
      const dir = tempDir();
      writeFiles(dir, { 'axis.config.json': '{}' });
      for (const args of [
        ['reports', 'latest', '-n', '2'],
        ['reports', '--html', '-n', '2'],
      ]) {
        const r = await axis(args, dir);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toContain('-n/--limit caps the list of reports (axis reports -n <count>)');
      }
    },
    T,
  );

  it(
    'no reports: says how to make one, exit 0',
    async () => {
      const dir = tempDir();
      writeFiles(dir, { 'axis.config.json': '{}' });
      const r = await axis(['reports'], dir);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('No reports found. Run `axis run` to generate one.\n');
      expect((await axis(['reports', '--json'], dir)).stdout).toBe('[]\n');
    },
    T,
  );

  it(
    'every report by default; -n caps the list, newest first, and says how many more there are',
    async () => {
      const dir = rawProject();
      for (let i = 0; i < 2; i++) {
        const r = await axis(['run', '--no-score'], dir);
        expect(r.code, r.stderr).toBe(1);
      }
      const ids = readdirSync(join(dir, '.axis/reports')).sort();
      expect(ids).toHaveLength(2);
      const r = await axis(['reports', '-n', '1'], dir);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`\\n${ids[1]} +4 +– +2 +2 `));
      expect(r.stdout).not.toContain(`\n${ids[0]} `);
      expect(r.stdout).toContain('... and 1 more (axis reports without -n lists them all)\n');

      // Without -n every report is listed, however many (the spec: -n only caps the list).
      const older = Array.from({ length: 11 }, (_, i) => `2001-01-01-0000${String(i).padStart(2, '0')}`);
      for (const id of older)
        cpSync(join(dir, '.axis/reports', ids[0]!), join(dir, '.axis/reports', id), { recursive: true });
      const all = await axis(['reports'], dir);
      expect(all.code, all.stderr).toBe(0);
      for (const id of [...ids, ...older]) expect(all.stdout).toContain(`\n${id} `);
      expect(all.stdout).not.toContain('more (axis reports');
    },
    T,
  );

  it(
    'a scored report (simulator as judge): AXIS, dimensions with n/a, the weakest signal, repeated runs',
    async () => {
      const dir = tempDir();
      const judge = [
        {
          match: 'AXIS judge: goal',
          answer: {
            grades: [
              { criterion_index: 0, score: 9, rationale: 'out.txt is there' },
              { criterion_index: 1, score: 2, rationale: 'it never explained what it did' },
            ],
          },
        },
        {
          match: 'AXIS judge: environment',
          answer: { audits: [{ id: 4, success: 0.2, rationale: 'ls on a missing file' }] },
        },
        {
          match: 'AXIS judge: agent',
          answer: {
            audits: [1, 2, 3, 4].map((i) => ({
              id: i,
              success: 1,
              weight: 1,
              relevance: i === 4 ? 0.3 : 1,
              rationale: i === 4 ? 'a pointless ls' : 'fine',
            })),
            necessity: { score: 0.5, unnecessaryIds: [4], rationale: 'the ls was not needed' },
            patterns: [],
          },
        },
      ];
      writeFiles(dir, {
        'axis.config.json': {
          scenarios: './scenarios',
          agents: [toy('toy')],
          settings: { simulate: true, runs: 3 },
          judge: { provider: 'anthropic', max_retries: 0 },
        },
        'scenarios/hello.json': {
          name: 'Hello',
          prompt: 'Write out.txt FAIL_TOOL',
          judge: [{ check: 'out.txt was written' }, { check: 'the agent explained what it did' }],
        },
        'tapes/hello.json': { turns: [{ text: 'unused: the toy agent has no model' }], judge },
      });
      const run = await axis(['run'], dir);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const [id] = readdirSync(join(dir, '.axis/reports')) as [string];
      expectValidReport(join(dir, '.axis/reports', id));

      const list = await axis(['reports'], dir);
      expect(list.stdout).toMatch(new RegExp(`\\n${id} +1 +\\d+ +1 +0 `));

      const r = await axis(['reports', 'latest'], dir);
      expect(r.code, r.stderr).toBe(0);
      // Folded at 80 columns, the rest under the value's column.
      expect(r.stdout).toMatch(
        /\nAXIS Result {2}\d+ \/ 100 average \(1 scored, 0 unscored, 0 failed\) ·\n {13}reliability 100% \(3\/3 runs completed\)\n/,
      );
      expect(r.stdout).toMatch(/\nhello +toy +\d+ +\d+ +\d+ +n\/a +\d+ +\S+ +125 +simulated +✓ completed\n/);
      expect(r.stdout).toContain('  ↳ 3 runs (3 scored): median ');
      // -a matching every pair narrows nothing: runs (not pairs) stay the reliability's denominator.
      const narrowed = await axis(['reports', 'latest', '-a', 'toy'], dir);
      expect(narrowed.stdout).toContain('reliability 100% (3/3 runs completed)\n');
      const whole = JSON.parse((await axis(['reports', 'latest', '--json'], dir)).stdout) as object;
      const some = JSON.parse(
        (await axis(['reports', 'latest', '-a', 'toy', '--json'], dir)).stdout,
      ) as object;
      expect(some).toMatchObject({ summary: (whole as { summary: object }).summary });
      // A note folded at 80 columns goes on under its arrow, 4 spaces in.
      expect(r.stdout.replace(/\n {4}(?=\S)/g, ' ')).toMatch(
        / {2}↳ .*Goal \d+: "the agent explained what it did" scored 2\/10/,
      );

      const s = await axis(['reports', 'latest', 'hello'], dir);
      expect(s.stdout).toMatch(/3 runs; the pair reports run \d \(\*\)/);
      expect(s.stdout).toContain('  Service          n/a   nothing in the run exercised it\n');
      expect(s.stdout).toContain(
        '  ✗  2/10  the agent explained what it did  (weight 50%)\n          it never explained what it did\n',
      );
      expect(s.stdout).toMatch(/ {4}#4 {2}worked 20 .*\[judged by a model\] {2}ls on a missing file/);
      // One 0–100 scale: no audit value, necessity or weight is printed as a 0–1 fraction.
      expect(s.stdout).not.toMatch(
        /\b(?:worked|speed|right-sized|on task|needed|weight|success|relevance|necessity) 0?\.\d/i,
      );
      expect(s.stdout.match(/^── Run \d of 3/gm)).toHaveLength(3);
      expect(s.stdout.match(/^── Run \d of 3 \(representative\) ──$/gm)).toHaveLength(1);

      // axis score rewrites the report, report.html included.
      rmSync(join(dir, '.axis/reports', id, 'report.html'));
      const rescore = await axis(['score'], dir);
      expect(rescore.code, rescore.stderr).toBe(0);
      expect(existsSync(join(dir, '.axis/reports', id, 'report.html'))).toBe(true);
      expectValidReport(join(dir, '.axis/reports', id));
      // The rebuilt page embeds the trend up to this report, with the average axis history prints.
      const page = readFileSync(join(dir, '.axis/reports', id, 'report.html'), 'utf8');
      const data = decodeReportData(
        /type="application\/octet-stream"[^>]*>([A-Za-z0-9+/=]+)</.exec(page)![1]!,
      );
      const history = JSON.parse((await axis(['history', '--json'], dir)).stdout) as {
        points: { reportId: string; axisScore: number | null }[];
      };
      expect(data.trend?.reports.at(-1)?.id).toBe(id);
      expect(data.trend?.average.at(-1)).toBe(history.points.find((p) => p.reportId === id)?.axisScore);
    },
    T,
  );
});
