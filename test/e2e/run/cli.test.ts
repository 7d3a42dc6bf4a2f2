import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReportId } from '../../../src/report/ids.js';
import { isAlive, waitFor } from '../../unit/exec/helpers.js';
import { AGENTS, listFiles, makeProject, nodeAgent, readJson, scenario } from '../../unit/run/helpers.js';
import { axis, buildDist, startAxis } from './helpers.js';
import { expectValidReport } from '../../helpers/report-schema.js';

const T = 90_000;
const dirs: string[] = [];

function project(
  agents: Record<string, unknown>[],
  scenarios: Record<string, object>,
  extra: Record<string, unknown> = {},
  files: Record<string, string> = {},
): string {
  const dir = makeProject(files);
  dirs.push(dir);
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  const resolved = agents.map((a) => ({
    ...a,
    args: (a.args as string[]).map((x) => (x.endsWith('.mjs') ? join(dir, x) : x)),
  }));
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents: resolved, ...extra }, null, 2),
  );
  for (const [key, s] of Object.entries(scenarios))
    writeFileSync(join(dir, 'scenarios', `${key}.json`), JSON.stringify(s));
  return dir;
}

function reportIds(dir: string): string[] {
  const root = join(dir, '.axis', 'reports');
  return existsSync(root) ? readdirSync(root).sort() : [];
}

beforeAll(buildDist, 180_000);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('axis run (CLI, real processes)', () => {
  it(
    '-s and -a filter the job matrix with keys and globs',
    async () => {
      const dir = project(
        [nodeAgent('echo', 'echo.mjs'), nodeAgent('other', 'echo.mjs')],
        { 'cms-post': scenario('a'), 'cms-page': scenario('b'), hello: scenario('c') },
        {},
        { 'echo.mjs': AGENTS.echo },
      );
      const r = await axis(['run', '--no-score', '-s', 'cms-*', '-a', 'echo'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^AXIS: 2 scenarios · 1 agent · 2 jobs/);
      const [id] = reportIds(dir);
      const manifest = readJson(join(dir, '.axis/reports', id!, 'report.json')) as {
        results: { scenarioKey: string; agentName: string }[];
      };
      expect(manifest.results.map((x) => `${x.scenarioKey}/${x.agentName}`).sort()).toEqual([
        'cms-page/echo',
        'cms-post/echo',
      ]);
      const none = await axis(['run', '--no-score', '-s', 'nope*'], dir);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('nope*');
    },
    T,
  );

  it(
    'prints a line per job with status and reason, then the summary and where the report is; exit 1 on a failure',
    async () => {
      const dir = project(
        [nodeAgent('echo', 'echo.mjs')],
        {
          good: scenario('hello'),
          broken: scenario('x', { setup: [{ action: 'run_script', command: 'echo "db down" >&2; exit 3' }] }),
        },
        {},
        { 'echo.mjs': AGENTS.echo },
      );
      const r = await axis(['run'], dir);
      expect(r.code).toBe(1);
      const [id] = reportIds(dir);
      expect(r.stdout).toMatch(/^AXIS: 2 scenarios · 1 agent · 2 jobs · concurrency 15\n/);
      // Too wide for 80 columns: the reason is under the columns, folded; read as one line again.
      expect(r.stdout.replace(/\n {6}(?=\S)/g, ' ')).toMatch(
        /✗ broken +echo +failed +\S+ +0 tokens +setup_failed: setup\[0\]: Lifecycle action failed: "echo \\"db down\\" >&2; exit 3" exited with code 3\n/,
      );
      expect(r.stdout).toMatch(/✓ good +echo +completed +\S+ +0 tokens\n/);
      expect(r.stdout).toContain('2 pairs: 1 completed, 1 failed');
      expect(r.stdout).toContain(`Report saved: .axis/reports/${id}\n`);
      expectValidReport(join(dir, '.axis/reports', id!));
    },
    T,
  );

  it(
    'failures stay in their job: a broken setup, a token limit and a hang each get their status; the rest completes',
    async () => {
      const dir = project(
        [
          nodeAgent('echo', 'echo.mjs'),
          nodeAgent('hog', 'hog.mjs', { output: 'ndjson' }),
          nodeAgent('hang', 'hang.mjs'),
        ],
        {
          broken: scenario('b', {
            agents: ['echo'],
            setup: [{ action: 'run_script', command: 'exit 9' }],
          }),
          fine: scenario('f', { agents: ['echo'] }),
          greedy: scenario('g', { agents: ['hog'], limits: { tokens: 1500, time_minutes: 2 } }),
          stuck: scenario('s', { agents: ['hang'], limits: { time_minutes: 0.02 } }),
        },
        { settings: { concurrency: 2 } },
        { 'echo.mjs': AGENTS.echo, 'hog.mjs': AGENTS.tokenHog, 'hang.mjs': AGENTS.hang },
      );
      const r = await axis(['run', '--json', '--no-score'], dir);
      expect(r.code, r.stderr).toBe(1);
      const doc = JSON.parse(r.stdout) as {
        summary: Record<string, number>;
        results: { scenarioKey: string; status: string; reason?: string; errorClass?: string }[];
      };
      expect(doc.results.map((x) => [x.scenarioKey, x.status, x.errorClass])).toEqual([
        ['broken', 'failed', 'setup_failed'],
        ['fine', 'completed', undefined],
        ['greedy', 'limit_exceeded', 'limit_exceeded'],
        ['stuck', 'timeout', 'timeout'],
      ]);
      expect(doc.results[2]!.reason).toBe('Scenario token limit reached (1500 tokens)');
      expect(doc.results[3]!.reason).toBe('Scenario time limit reached (0.02m)');
      expect(doc.summary).toMatchObject({ total: 4, completed: 1, failed: 3 });
    },
    T,
  );

  it(
    '--concurrency 0, -1, abc and --runs 2 are rejected with exit code 2 before anything runs',
    async () => {
      const dir = project(
        [nodeAgent('echo', 'echo.mjs')],
        { a: scenario('a') },
        {},
        { 'echo.mjs': AGENTS.echo },
      );
      for (const value of ['0', '-1', 'abc']) {
        const r = await axis(['run', `--concurrency=${value}`], dir);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toBe(`--concurrency: expected an integer ≥ 1, found "${value}"\n`);
      }
      const runs = await axis(['run', '--runs', '2'], dir);
      expect(runs.code).toBe(2);
      expect(runs.stderr).toMatch(/^--runs: expected an odd number of runs, found 2/);
      expect(reportIds(dir)).toEqual([]);
    },
    T,
  );

  it(
    '--failed re-runs only the failed pairs of the latest (or a named) report; exclusive with -s/-a',
    async () => {
      const dir = project(
        [nodeAgent('a1', 'echo.mjs'), nodeAgent('a2', 'echo.mjs')],
        {
          ok: scenario('ok'),
          flaky: scenario('flaky', {
            setup: [
              {
                action: 'run_script',
                command: 'test "$AXIS_AGENT" != a2 || test -f "$AXIS_CONFIG_DIR/fixed"',
              },
            ],
          }),
        },
        {},
        { 'echo.mjs': AGENTS.echo },
      );
      const first = await axis(['run', '--json'], dir);
      expect(first.code).toBe(1);
      const doc = JSON.parse(first.stdout) as {
        reportId: string;
        results: { scenarioKey: string; agentName: string; status: string }[];
      };
      expect(doc.results.map((r) => `${r.scenarioKey}/${r.agentName}:${r.status}`)).toEqual([
        'flaky/a1:completed',
        'flaky/a2:failed',
        'ok/a1:completed',
        'ok/a2:completed',
      ]);

      const mixed = await axis(['run', '--failed', '-s', 'ok'], dir);
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toContain(
        '--failed cannot be combined with -s/--scenario, -a/--agent or -t/--tag',
      );

      writeFileSync(join(dir, 'fixed'), '');
      const rerun = await axis(['run', '--failed', '--no-score'], dir);
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
      expect(rerun.stdout).toContain(`Re-running 1 failed pair(s) of report ${doc.reportId}`);
      const ids = reportIds(dir);
      expect(ids).toHaveLength(2);
      const second = readJson<{
        rerunOf: string;
        results: { scenarioKey: string; agentName: string; status: string }[];
      }>(join(dir, '.axis/reports', ids[1]!, 'report.json'));
      expect(second.rerunOf).toBe(doc.reportId);
      for (const x of ids) expectValidReport(join(dir, '.axis/reports', x));
      expect(second.results.map((r) => `${r.scenarioKey}/${r.agentName}:${r.status}`)).toEqual([
        'flaky/a2:completed',
      ]);

      const none = await axis(['run', '--failed', ids[1]!], dir);
      expect(none.code).toBe(0);
      expect(none.stdout).toBe(`Report ${ids[1]} has no failed pairs: nothing to re-run.\n`);
      const missing = await axis(['run', '--failed', '2001-01-01-000000'], dir);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('Report "2001-01-01-000000" not found');
    },
    T,
  );

  it(
    '--json prints one JSON document without raw lines; -o also writes it to a directory',
    async () => {
      const dir = project(
        [nodeAgent('echo', 'echo.mjs')],
        { a: scenario('hello json') },
        {},
        { 'echo.mjs': AGENTS.echo },
      );
      const r = await axis(['run', '--json', '--no-score', '-o', 'out'], dir);
      expect(r.code).toBe(0);
      // stdout holds exactly one JSON document (warnings, if any, go to stderr).
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(doc).toMatchObject({
        reportDir: `.axis/reports/${doc.reportId as string}`,
        summary: { total: 1, completed: 1, failed: 0, runsTotal: 1, runsFailed: 0 },
        results: [{ scenarioKey: 'a', agentName: 'echo', status: 'completed', exitCode: 0 }],
      });
      expect(r.stdout).not.toContain('answer: hello json');
      const written = readJson(join(dir, 'out', `axis-report-${doc.reportId as string}.json`));
      expect(written).toEqual(doc);
    },
    T,
  );

  it(
    'a run started in a second whose report id is taken gets the next suffix, never overwriting',
    async () => {
      const dir = project(
        [nodeAgent('echo', 'echo.mjs')],
        { a: scenario('a') },
        {},
        { 'echo.mjs': AGENTS.echo },
      );
      // Claim the ids of the next few seconds (with a report.json each), as a concurrent run would.
      const now = Date.now();
      const taken: string[] = [];
      for (let s = 0; s < 20; s++) {
        const id = formatReportId(new Date(now + s * 1000));
        mkdirSync(join(dir, '.axis/reports', id), { recursive: true });
        writeFileSync(join(dir, '.axis/reports', id, 'report.json'), '{"keep":true}');
        taken.push(id);
      }
      const both = ['run', '--json', '--no-score'];
      const [a, b] = await Promise.all([axis(both, dir), axis(both, dir)]);
      expect([a.code, b.code]).toEqual([0, 0]);
      const ida = (JSON.parse(a.stdout) as { reportId: string }).reportId;
      const idb = (JSON.parse(b.stdout) as { reportId: string }).reportId;
      expect(ida).not.toBe(idb);
      for (const id of [ida, idb]) {
        expect(id).toMatch(/^\d{4}-\d{2}-\d{2}-\d{6}-\d+$/);
        expect(taken).toContain(id.replace(/-\d+$/, ''));
      }
      for (const id of taken)
        expect(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8')).toBe('{"keep":true}');
    },
    T,
  );

  it(
    'Ctrl-C: running jobs are stopped, finished results kept, the rest cancelled; report incomplete; no process left; exit 130',
    async () => {
      const slow = `import { spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
// Written under another name and renamed: the test reads the file as soon as it exists.
writeFileSync(process.argv[2] + '.tmp', JSON.stringify({ pid: process.pid, child: child.pid, cwd: process.cwd() }));
renameSync(process.argv[2] + '.tmp', process.argv[2]);
setInterval(() => {}, 1000);
`;
      const dir = project(
        [nodeAgent('fast', 'echo.mjs'), { ...nodeAgent('slow', 'slow.mjs'), args: ['slow.mjs', 'PIDS'] }],
        { a: scenario('a'), b: scenario('b') },
        { settings: { concurrency: 1 } },
        { 'echo.mjs': AGENTS.echo, 'slow.mjs': slow },
      );
      const pidFile = join(dir, 'pids.json');
      const cfg = readJson<{ agents: { args: string[] }[] }>(join(dir, 'axis.config.json'));
      cfg.agents[1]!.args = [join(dir, 'slow.mjs'), pidFile];
      writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(cfg));

      // The agent writes its own pids, meaningful only outside a PID namespace: process-group mode here
      // (the namespace mode's orphan and kill -9 cases are in test/e2e/hostile/orphans.test.ts).
      const proc = startAxis(['run'], dir, { AXIS_CONTAINMENT: 'process-group' });
      expect(await waitFor(() => existsSync(pidFile), 30_000), proc.output()).toBe(true);
      const pids = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number; cwd: string };
      expect(isAlive(pids.pid) && isAlive(pids.child)).toBe(true);
      proc.child.kill('SIGINT');
      const r = await proc.done;

      expect(r.code, proc.output()).toBe(130);
      expect(r.stderr).toContain('SIGINT received: stopping running jobs');
      expect(await waitFor(() => !isAlive(pids.pid) && !isAlive(pids.child), 10_000)).toBe(true);
      expect(existsSync(pids.cwd)).toBe(false);

      const [id] = reportIds(dir);
      const report = readJson<{
        incomplete: boolean;
        incompleteReason: string;
        results: { scenarioKey: string; agentName: string; status: string; reason?: string }[];
      }>(join(dir, '.axis/reports', id!, 'report.json'));
      expect(report.incomplete).toBe(true);
      expect(report.incompleteReason).toBe('Run cancelled by SIGINT');
      expect(report.results.map((x) => `${x.scenarioKey}/${x.agentName}:${x.status}`)).toEqual([
        'a/fast:completed',
        'a/slow:cancelled',
        'b/fast:cancelled',
        'b/slow:cancelled',
      ]);
      expect(report.results[1]!.reason).toBe('Run cancelled by SIGINT');
      expect(listFiles(join(dir, '.axis/reports', id!))).toContain('scenarios/a/fast.raw.ndjson');
      expectValidReport(join(dir, '.axis/reports', id!));
      expect(r.stdout).toContain('Run incomplete: 3 jobs cancelled.');
    },
    T,
  );

  it(
    'a reader that goes away (axis run | head) stops neither the run nor its report',
    async () => {
      const dir = project(
        [nodeAgent('echo', 'echo.mjs')],
        { a: scenario('a'), b: scenario('b'), c: scenario('c') },
        { settings: { concurrency: 1 } },
        { 'echo.mjs': AGENTS.echo },
      );
      const run = startAxis(['run', '--no-score'], dir);
      // Close both pipes at the first line, as `| head -1` with 2>&1 would: every later write fails (EPIPE).
      run.child.stdout!.once('data', () => {
        run.child.stdout!.destroy();
        run.child.stderr!.destroy();
      });
      const r = await run.done;
      expect(r.code, r.stderr).toBe(0);
      const [id] = reportIds(dir);
      const manifest = readJson(join(dir, '.axis/reports', id!, 'report.json')) as {
        incomplete?: boolean;
        results: { scenarioKey: string; status: string }[];
      };
      expect(manifest.incomplete).toBeUndefined();
      expect(manifest.results.map((e) => [e.scenarioKey, e.status])).toEqual([
        ['a', 'completed'],
        ['b', 'completed'],
        ['c', 'completed'],
      ]);
      expect(existsSync(join(dir, '.axis/reports', id!, 'report.html'))).toBe(true);
    },
    T,
  );

  it(
    '-o naming a file, a path through a file or a dangling link: exit 2 before any job runs',
    async () => {
      const dir = project(
        [nodeAgent('echo', 'echo.mjs')],
        { a: scenario('a') },
        {},
        { 'echo.mjs': AGENTS.echo },
      );
      writeFileSync(join(dir, 'taken'), 'x');
      symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
      for (const [given, why] of [
        ['taken', `${join(dir, 'taken')} is not a directory`],
        ['taken/sub', `${join(dir, 'taken')} is not a directory`],
        ['dangling', `${join(dir, 'dangling')} is a symbolic link to a missing target`],
      ] as const) {
        const r = await axis(['run', '--no-score', '-o', given], dir);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toBe(`-o/--output-dir "${given}": ${why}\n`);
        expect(r.stdout).toBe('');
        expect(reportIds(dir)).toEqual([]);
      }
      const ok = await axis(['run', '--no-score', '-o', 'out/ci'], dir);
      expect(ok.code, ok.stderr).toBe(0);
      const [id] = reportIds(dir);
      expect(existsSync(join(dir, 'out/ci', `axis-report-${id}.json`))).toBe(true);
    },
    T,
  );
});
