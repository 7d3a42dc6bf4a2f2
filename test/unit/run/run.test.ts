import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ReportStore } from '../../../src/report/store.js';
import { type ReportManifest } from '../../../src/report/manifest.js';
import { liveTempDirs } from '../../../src/exec/workspace.js';
import type { RunEvent } from '../../../src/runner/events.js';
import { run } from '../../../src/runner/run.js';
import { AGENTS, listFiles, makeProject, nodeAgent, readJson, removeTempDirs, scenario } from './helpers.js';
import { expectValidReport } from '../../helpers/report-schema.js';

afterAll(removeTempDirs);

const T = 60_000;

function reportDir(project: string): string {
  const ids = readdirSync(join(project, '.axis', 'reports')).sort();
  return join(project, '.axis', 'reports', ids[ids.length - 1]!);
}

afterEach(() => {
  // Every job's temp dir is removed, failed or not.
  expect(liveTempDirs().filter((d) => /axis-[^/]*$/.test(d) && !d.includes('axis-run-test-'))).toEqual([]);
});

describe('run(): the job pipeline with real command agents', () => {
  it(
    'runs every job and writes report.json, per-run detail, raw lines and artifacts',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      writeConfig(
        dir,
        {
          agents: [nodeAgent('echo', join(dir, 'echo.mjs'))],
          artifacts: ['answer.txt'],
          settings: { concurrency: 2 },
        },
        {
          one: scenario('first prompt', {
            setup: [
              {
                action: 'run_script',
                command: 'echo "- setup for $AXIS_SCENARIO run $AXIS_RUN_INDEX" >> "$AXIS_OUTPUT"',
              },
            ],
            teardown: [{ action: 'run_script', command: 'echo "- torn down" >> "$AXIS_OUTPUT"' }],
          }),
          two: scenario('second prompt'),
        },
      );

      const events: RunEvent[] = [];
      const out = await run({ configPath: dir, cwd: dir, onEvent: (e) => events.push(e) });

      // No judge is reachable here, so no pair is scored and the gate fails the run (unscored-gate.test.ts).
      expect(out.verdict.unscored).toContain('judge');
      expect(out.exitCode).toBe(1);
      expect(out.results.map((r) => [r.scenarioKey, r.status])).toEqual([
        ['one', 'completed'],
        ['two', 'completed'],
      ]);
      const rd = reportDir(dir);
      expect(rd).toBe(out.reportDir);
      expect(listFiles(rd)).toEqual([
        'report.html',
        'report.json',
        'scenarios/one/echo.json',
        'scenarios/one/echo.raw.ndjson',
        // run() scores like `axis run` (the scoring stage writes each run's sparse index)
        'scenarios/one/echo.sparse-index.txt',
        'scenarios/one/echo/artifacts/answer.txt',
        'scenarios/two/echo.json',
        'scenarios/two/echo.raw.ndjson',
        'scenarios/two/echo.sparse-index.txt',
        'scenarios/two/echo/artifacts/answer.txt',
      ]);
      expectValidReport(rd);
      const manifest = readJson<typeof out.manifest>(join(rd, 'report.json'));
      expect(manifest).toMatchObject({
        reportId: out.reportId,
        summary: { total: 2, completed: 2, failed: 0 },
      });
      expect(manifest.incomplete).toBeUndefined();
      expect(readFileSync(join(rd, 'scenarios/one/echo/artifacts/answer.txt'), 'utf8')).toBe('first prompt');
      expect(readFileSync(join(rd, 'scenarios/one/echo.raw.ndjson'), 'utf8')).toBe('answer: first prompt\n');

      const detail = readJson(join(rd, 'scenarios/one/echo.json'));
      expect(detail).toMatchObject({
        reportId: out.reportId,
        scenarioKey: 'one',
        scenarioFile: 'scenarios/one.json',
        prompt: 'first prompt',
        status: 'completed',
        setupNotes: '- setup for one run 1',
        teardownNotes: '- torn down',
        rawLineCount: 1,
        artifacts: [{ path: 'answer.txt', size: 12, mimeType: 'text/plain' }],
        transcript: { result: 'answer: first prompt', exitCode: 0 },
        criteria: [{ kind: 'judge', check: 'the agent did it' }],
      });

      const types = events.filter((e) => e.type !== 'log').map((e) => e.type);
      expect(types[0]).toBe('run_started');
      expect(types.at(-1)).toBe('run_finished');
      expect(types.filter((t) => t === 'job_finished')).toHaveLength(2);
      for (const t of ['job_queued', 'job_started', 'job_setup', 'job_running', 'job_teardown'] as const) {
        expect(types).toContain(t);
      }
    },
    T,
  );

  it(
    'a job whose setup fails gets status failed/setup_failed; every other job completes and teardown still runs',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      writeConfig(
        dir,
        { agents: [nodeAgent('echo', join(dir, 'echo.mjs'))], settings: { concurrency: 1 } },
        {
          'a-ok': scenario('a'),
          'b-broken': scenario('b', {
            setup: [
              { action: 'run_script', command: 'echo "half ready" >> "$AXIS_OUTPUT"; echo nope >&2; exit 7' },
            ],
            teardown: [{ action: 'run_script', command: 'echo cleaned >> "$AXIS_OUTPUT"' }],
          }),
          'c-ok': scenario('c'),
        },
      );
      const out = await run({ configPath: dir, cwd: dir });
      expect(out.exitCode).toBe(1);
      expect(out.results.map((r) => r.status)).toEqual(['completed', 'failed', 'completed']);
      const broken = out.results[1]!;
      expect(broken).toMatchObject({
        errorClass: 'setup_failed',
        setupNotes: 'half ready',
        teardownNotes: 'cleaned',
        rawLineCount: 0,
        transcript: { error: { class: 'setup_failed' } },
      });
      expect(broken.reason).toMatch(
        /^setup\[0\]: Lifecycle action failed: .* exited with code 7\nstderr:\nnope/,
      );
      expect(out.manifest.summary).toMatchObject({ total: 3, completed: 2, failed: 1 });
    },
    T,
  );

  it(
    'a job whose live token usage passes its limit is stopped: limit_exceeded with the reason',
    async () => {
      const dir = makeProject({ 'hog.mjs': AGENTS.tokenHog });
      writeConfig(
        dir,
        { agents: [nodeAgent('hog', join(dir, 'hog.mjs'), { output: 'ndjson' })] },
        {
          greedy: scenario('use tokens', { limits: { tokens: 1200, time_minutes: 2 } }),
        },
      );
      const out = await run({ configPath: dir, cwd: dir });
      const [r] = out.results;
      expect(r).toMatchObject({
        status: 'limit_exceeded',
        errorClass: 'limit_exceeded',
        reason: 'Scenario token limit reached (1200 tokens)',
      });
      expect(r!.transcript.usage.input + r!.transcript.usage.output).toBeGreaterThan(1200);
      expect(out.exitCode).toBe(1);
    },
    T,
  );

  it(
    'a hanging agent hits the scenario time limit: status timeout',
    async () => {
      const dir = makeProject({ 'hang.mjs': AGENTS.hang });
      writeConfig(
        dir,
        { agents: [nodeAgent('hang', join(dir, 'hang.mjs'))] },
        {
          stuck: scenario('wait forever', { limits: { time_minutes: 0.02 } }),
        },
      );
      const out = await run({ configPath: dir, cwd: dir });
      expect(out.results[0]).toMatchObject({
        status: 'timeout',
        errorClass: 'timeout',
        reason: 'Scenario time limit reached (0.02m)',
        rawLineCount: 1,
      });
    },
    T,
  );

  it(
    'a time limit under a millisecond still stops the agent, and its reason does not read 0m',
    async () => {
      // It rounded to a 0 ms timeout, which the process core reads as none: the agent ran to the end.
      const dir = makeProject({ 'late.mjs': `setTimeout(() => process.stdout.write('done\\n'), 1500);\n` });
      writeConfig(
        dir,
        { agents: [nodeAgent('late', join(dir, 'late.mjs'))] },
        { tiny: scenario('answer late', { limits: { time_minutes: 1e-9 } }) },
      );
      const out = await run({ configPath: dir, cwd: dir });
      expect(out.results[0]).toMatchObject({
        status: 'timeout',
        reason: 'Scenario time limit reached (1e-9m)',
      });
    },
    T,
  );

  it(
    'the run token budget stops the run: the running job is limit_exceeded, pending ones cancelled',
    async () => {
      const dir = makeProject({ 'hog.mjs': AGENTS.tokenHog });
      writeConfig(
        dir,
        {
          agents: [nodeAgent('hog', join(dir, 'hog.mjs'), { output: 'ndjson' })],
          settings: { concurrency: 1, limits: { run: { tokens: 1000 } } },
        },
        { a: scenario('a', { limits: { time_minutes: 2 } }), b: scenario('b'), c: scenario('c') },
      );
      const out = await run({ configPath: dir, cwd: dir });
      expect(out.results.map((r) => r.status)).toEqual(['limit_exceeded', 'cancelled', 'cancelled']);
      expect(out.results[0]!.reason).toBe('Overall token limit reached (1000 tokens)');
      expect(out.results[1]!.reason).toBe('Overall token limit reached (1000 tokens)');
      expect(out.incomplete).toBe(true);
      expect(readJson(join(out.reportDir, 'report.json'))).toMatchObject({
        incomplete: true,
        summary: { failed: 1, cancelled: 2, runsFailed: 1, runsCancelled: 2 },
      });
      // An unfinished run never passes.
      expect(out.exitCode).toBe(1);
      // Cancelled jobs still have a detail file.
      expect(existsSync(join(out.reportDir, 'scenarios/c/hog.json'))).toBe(true);
      expectValidReport(out.reportDir);
    },
    T,
  );

  it(
    'the run time limit stops the running job (limit_exceeded) and cancels the rest',
    async () => {
      const dir = makeProject({ 'hang.mjs': AGENTS.hang });
      writeConfig(
        dir,
        {
          agents: [nodeAgent('hang', join(dir, 'hang.mjs'))],
          settings: { concurrency: 1, limits: { run: { time_minutes: 0.02 } } },
        },
        { a: scenario('a'), b: scenario('b') },
      );
      const out = await run({ configPath: dir, cwd: dir });
      expect(out.results.map((r) => [r.status, r.reason])).toEqual([
        ['limit_exceeded', 'Overall time limit reached (0.02m)'],
        ['cancelled', 'Overall time limit reached (0.02m)'],
      ]);
      expect(out.manifest).toMatchObject({
        incomplete: true,
        incompleteReason: 'Overall time limit reached (0.02m)',
      });
    },
    T,
  );

  it(
    'an aborted signal (Ctrl-C) stops running jobs, keeps finished results and marks the report incomplete',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo, 'hang.mjs': AGENTS.hang });
      writeConfig(
        dir,
        {
          agents: [nodeAgent('echo', join(dir, 'echo.mjs')), nodeAgent('hang', join(dir, 'hang.mjs'))],
          settings: { concurrency: 1 },
        },
        { only: scenario('x') },
      );
      const controller = new AbortController();
      const out = await run({
        configPath: dir,
        cwd: dir,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'job_running' && e.job.agentName === 'hang') {
            setTimeout(() => controller.abort(new Error('Run cancelled by SIGINT')), 200);
          }
        },
      });
      expect(out.results.map((r) => [r.agentName, r.status, r.reason])).toEqual([
        ['echo', 'completed', undefined],
        ['hang', 'cancelled', 'Run cancelled by SIGINT'],
      ]);
      expect(out).toMatchObject({ incomplete: true, interrupted: true, exitCode: 1 });
      expect(out.manifest.incomplete).toBe(true);
      expect(out.manifest.incompleteReason).toBe('Run cancelled by SIGINT');
      // Nothing of the run keeps the process alive afterwards (a stray timer would delay exit).
      expect(timers()).toBe(0);
    },
    T,
  );

  it(
    'secrets from the environment never reach a written file, and stored paths are project-relative',
    async () => {
      const secret = 'sk-planted-0123456789abcdef';
      process.env.AXIS_TEST_API_KEY = secret;
      try {
        const dir = makeProject({ 'env.mjs': AGENTS.env });
        writeConfig(
          dir,
          {
            agents: [nodeAgent('env', join(dir, 'env.mjs'), { env: { MY_TOKEN: 'tok-explicit-987654321' } })],
            env: ['AXIS_TEST_API_KEY'],
            artifacts: ['leak.txt'],
          },
          {
            leak: scenario('leak it', {
              setup: [
                {
                  action: 'run_script',
                  command:
                    'echo "key=$AXIS_TEST_API_KEY" >> "$AXIS_OUTPUT"; echo "$AXIS_TEST_API_KEY" > leak.txt',
                },
              ],
            }),
          },
        );
        const out = await run({ configPath: dir, cwd: dir, debug: true });
        expect(out.results[0]!.status).toBe('completed');
        const files = listFiles(out.reportDir);
        expectValidReport(out.reportDir);
        expect(files).toContain('scenarios/leak/env.debug.ndjson');
        expect(files).toContain('scenarios/leak/env/artifacts/leak.txt');
        let sawWorkspace = false;
        for (const f of files) {
          const text = readFileSync(join(out.reportDir, f), 'utf8');
          expect(text, f).not.toContain(secret);
          expect(text, f).not.toContain('tok-explicit-987654321');
          expect(text, f).not.toMatch(/\/axis-[A-Za-z0-9]{6}\//); // no job temp dir
          expect(text, f).not.toContain(dir); // no absolute project path
          if (text.includes('<workspace>')) sawWorkspace = true;
        }
        expect(sawWorkspace).toBe(true);
        const detail = readJson(join(out.reportDir, 'scenarios/leak/env.json'));
        expect(detail).toMatchObject({
          setupNotes: 'key=[REDACTED]',
          agent: { env: { MY_TOKEN: '[REDACTED]' } },
        });
      } finally {
        delete process.env.AXIS_TEST_API_KEY;
      }
    },
    T,
  );

  it(
    'the agent gets a minimal env: its workspace as cwd, a private HOME, no AXIS_CONFIG_DIR, no host secrets',
    async () => {
      process.env.AXIS_TEST_HIDDEN_SECRET = 'should-not-pass-through';
      try {
        const dir = makeProject({ 'env.mjs': AGENTS.env });
        writeConfig(
          dir,
          { agents: [nodeAgent('env', join(dir, 'env.mjs'), { env: { PLAIN: 'yes' } })] },
          { e: scenario('e') },
        );
        const out = await run({ configPath: dir, cwd: dir });
        const seen = JSON.parse(out.results[0]!.transcript.result!) as {
          env: Record<string, string>;
          cwd: string;
        };
        expect(seen.cwd).toBe('<workspace>');
        expect(seen.env.HOME).toBe('<home>');
        expect(seen.env.PLAIN).toBe('yes');
        expect(seen.env.AXIS_CONFIG_DIR).toBeUndefined();
        expect(seen.env.AXIS_TEST_HIDDEN_SECRET).toBeUndefined();
      } finally {
        delete process.env.AXIS_TEST_HIDDEN_SECRET;
      }
    },
    T,
  );

  it(
    'runs > 1 writes one detail file per run and counts runs separately from pairs',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      writeConfig(
        dir,
        { agents: [nodeAgent('echo', join(dir, 'echo.mjs'))], settings: { concurrency: 3 } },
        {
          r: scenario('r', {
            setup: [{ action: 'run_script', command: 'echo "run $AXIS_RUN_INDEX" >> "$AXIS_OUTPUT"' }],
          }),
        },
      );
      const out = await run({ configPath: dir, cwd: dir, runs: 3 });
      expect(out.manifest.summary).toMatchObject({ total: 1, completed: 1, runsTotal: 3, runsFailed: 0 });
      expect(out.results.map((r) => r.setupNotes)).toEqual(['run 1', 'run 2', 'run 3']);
      expect(listFiles(join(out.reportDir, 'scenarios'))).toEqual([
        'r/echo.run-1.json',
        'r/echo.run-1.raw.ndjson',
        'r/echo.run-1.sparse-index.txt',
        'r/echo.run-2.json',
        'r/echo.run-2.raw.ndjson',
        'r/echo.run-2.sparse-index.txt',
        'r/echo.run-3.json',
        'r/echo.run-3.raw.ndjson',
        'r/echo.run-3.sparse-index.txt',
      ]);
    },
    T,
  );

  it(
    '`only` runs exactly the listed pairs into a new report that records rerunOf',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      writeConfig(
        dir,
        { agents: [nodeAgent('a1', join(dir, 'echo.mjs')), nodeAgent('a2', join(dir, 'echo.mjs'))] },
        { x: scenario('x'), y: scenario('y') },
      );
      const out = await run({
        configPath: dir,
        cwd: dir,
        only: [{ scenarioKey: 'y', agentName: 'a1' }],
        rerunOf: '2026-01-01-000000',
      });
      expect(out.results.map((r) => `${r.scenarioKey}/${r.agentName}`)).toEqual(['y/a1']);
      expect(out.manifest.rerunOf).toBe('2026-01-01-000000');
    },
    T,
  );

  it('concurrency and runs overrides are validated before anything runs (exit code 2)', async () => {
    const dir = makeProject({ 'echo.mjs': AGENTS.echo });
    writeConfig(dir, { agents: [nodeAgent('e', join(dir, 'echo.mjs'))] }, { x: scenario('x') });
    for (const concurrency of [0, -1, 'abc', 1.5]) {
      await expect(run({ configPath: dir, cwd: dir, concurrency })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('--concurrency: expected an integer ≥ 1'),
      });
    }
    await expect(run({ configPath: dir, cwd: dir, runs: 2 })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('odd number of runs'),
    });
    await expect(run({ configPath: dir, cwd: dir, runs: 21 })).rejects.toMatchObject({ exitCode: 2 });
    expect(existsSync(join(dir, '.axis'))).toBe(false);
  });
});

describe('run(): beforeAll / afterAll and afterAgent', () => {
  it('a failing beforeAll runs no job and writes no report (exit 1)', async () => {
    const dir = makeProject({ 'echo.mjs': AGENTS.echo });
    writeConfig(
      dir,
      {
        agents: [nodeAgent('e', join(dir, 'echo.mjs'))],
        beforeAll: [{ action: 'run_script', command: 'exit 4' }],
      },
      { x: scenario('x') },
    );
    await expect(run({ configPath: dir, cwd: dir })).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(
        /^beforeAll failed, no job was run:\nbeforeAll\[0\]: .*exited with code 4/,
      ),
    });
    expect(existsSync(join(dir, '.axis'))).toBe(false);
  });

  it(
    'afterAll runs in the config dir with the report dir and totals; its failure keeps the report and exits 1',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      writeConfig(
        dir,
        {
          agents: [nodeAgent('e', join(dir, 'echo.mjs'))],
          beforeAll: [{ action: 'run_script', command: 'echo before > before.txt' }],
          afterAll: [
            {
              action: 'run_script',
              command:
                'echo "$AXIS_TOTAL $AXIS_COMPLETED $AXIS_FAILED" > totals.txt; test -f "$AXIS_REPORT_DIR/report.json" && pwd > where.txt; exit 5',
            },
          ],
        },
        { x: scenario('x') },
      );
      const out = await run({ configPath: dir, cwd: dir });
      expect(readFileSync(join(dir, 'before.txt'), 'utf8')).toBe('before\n');
      expect(readFileSync(join(dir, 'totals.txt'), 'utf8')).toBe('1 1 0\n');
      expect(readFileSync(join(dir, 'where.txt'), 'utf8').trim()).toBe(dir);
      expect(out.exitCode).toBe(1);
      expect(out.afterAllError).toMatch(/^afterAll failed:\nafterAll\[0\]: .*exited with code 5/);
      expect(readJson(join(out.reportDir, 'report.json'))).toMatchObject({
        summary: { completed: 1 },
        hooks: { beforeAll: { ok: true }, afterAll: { ok: false } },
      });
      expectValidReport(out.reportDir);
    },
    T,
  );

  it(
    'afterAgent runs before teardown with the workspace in place; what it adds is kept; a throw never fails the job',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      writeConfig(
        dir,
        { agents: [nodeAgent('e', join(dir, 'echo.mjs'))] },
        {
          x: scenario('x', { teardown: [{ action: 'run_script', command: 'rm answer.txt' }] }),
          y: scenario('y'),
        },
      );
      const seen: string[] = [];
      const out = await run({
        configPath: dir,
        cwd: dir,
        afterAgent: async (ctx) => {
          seen.push(readFileSync(join(ctx.workDir, 'answer.txt'), 'utf8'));
          if (ctx.job.scenario.key === 'y') throw new Error('judge unavailable');
          (ctx.result as unknown as Record<string, unknown>).checks = [{ ok: true }];
        },
      });
      expect(seen.sort()).toEqual(['x', 'y']);
      expect(out.results.map((r) => r.status)).toEqual(['completed', 'completed']);
      expect((out.results[0] as unknown as Record<string, unknown>).checks).toEqual([{ ok: true }]);
      expect(out.results[1]!.afterAgentError).toBe('judge unavailable');
    },
    T,
  );
});

describe('run(): what afterAgent leaves for after teardown', () => {
  it(
    'runs after teardown with the place given to the next job, at most `concurrency` at once; a throw is afterAgentError',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      writeConfig(
        dir,
        { agents: [nodeAgent('e', join(dir, 'echo.mjs'))], settings: { concurrency: 1 } },
        {
          a: scenario('a', { teardown: [{ action: 'run_script', command: 'rm answer.txt' }] }),
          b: scenario('b'),
          c: scenario('c'),
        },
      );
      const order: string[] = [];
      const out = await run({
        configPath: dir,
        cwd: dir,
        onEvent: (e) => {
          if (e.type === 'job_started' || e.type === 'job_teardown' || e.type === 'job_judging')
            order.push(`${e.type} ${e.job.scenarioKey}`);
          if (e.type === 'job_finished') order.push(`job_finished ${e.result.scenarioKey}`);
        },
        afterAgent: async (ctx) => {
          const key = ctx.job.scenario.key;
          // Step 6, workspace in place.
          order.push(`checks ${key} ${readFileSync(join(ctx.workDir, 'answer.txt'), 'utf8')}`);
          return async () => {
            // Step 10: after teardown (a's removed answer.txt), the workspace gone.
            order.push(`judge ${key} ${existsSync(join(ctx.workDir, 'answer.txt')) ? 'workspace' : 'gone'}`);
            await new Promise((r) => setTimeout(r, 300));
            if (key === 'b') throw new Error('judge unavailable');
            (ctx.result as unknown as Record<string, unknown>).judged = key;
            order.push(`judged ${key}`);
          };
        },
      });
      expect(out.results.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
      expect(out.results.map((r) => (r as unknown as Record<string, unknown>).judged)).toEqual([
        'a',
        undefined,
        'c',
      ]);
      expect(out.results[1]!.afterAgentError).toBe('judge unavailable');
      // The step's time counts in afterAgentMs, and in the job's duration.
      for (const r of out.results.filter((x) => x.scenarioKey !== 'b')) {
        expect(r.timings.afterAgentMs).toBeGreaterThanOrEqual(290);
        expect(r.durationMs).toBeGreaterThanOrEqual(r.timings.afterAgentMs);
      }
      const at = (line: string) => {
        const i = order.indexOf(line);
        expect(i, `${line} in ${order.join(' | ')}`).toBeGreaterThanOrEqual(0);
        return i;
      };
      // Checks before teardown, the judge after it with the workspace gone.
      expect(at('checks a a')).toBeLessThan(at('job_teardown a'));
      expect(at('job_teardown a')).toBeLessThan(at('judge a gone'));
      // The live view shows the job as judging again once it is.
      expect(order.lastIndexOf('job_judging a')).toBeGreaterThan(at('job_teardown a'));
      expect(order.lastIndexOf('job_judging a')).toBeLessThan(at('judge a gone'));
      // b starts while a is judged (concurrency 1)…
      expect(at('job_started b')).toBeLessThan(at('judged a'));
      // …but b's own judging waits for a's to end, and b keeps its place meanwhile: c starts after it.
      expect(at('judge b gone')).toBeGreaterThan(at('judged a'));
      expect(at('job_started c')).toBeGreaterThan(at('judged a'));
      expect(at('job_finished a')).toBeGreaterThan(at('judged a'));
      // What the step added reached the detail file, written after it.
      expect(readJson(join(out.reportDir, 'scenarios/a/e.json'))).toMatchObject({ judged: 'a' });
    },
    T,
  );
});

describe('run(): simulate', () => {
  it('a broken tape stops the run before any job with one clear error naming the tape (exit 2)', async () => {
    const dir = makeProject({
      'agent.mjs': AGENTS.echo,
      'tapes/a.json': { turns: [{ tools: [{ teleport: 'x' }] }] },
      'tapes/b.json': { turns: [{ text: 'fine' }] },
    });
    writeConfig(
      dir,
      { agents: [nodeAgent('e', join(dir, 'agent.mjs'))], settings: { simulate: true } },
      {
        a: scenario('a'),
        b: scenario('b'),
      },
    );
    const err = await run({ configPath: dir, cwd: dir }).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: 2, name: 'ConfigError' });
    expect((err as Error).message).toContain(join(dir, 'tapes/a.json'));
    expect((err as Error).message).toContain('unknown tool "teleport"');
    expect(existsSync(join(dir, '.axis'))).toBe(false);
  });

  it(
    'starts a simulator per job, points the agent at it through provider variables, records its events',
    async () => {
      // A node "agent" that calls the Anthropic messages API at ANTHROPIC_BASE_URL, like a real CLI would.
      const agentScript = `const res = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY },
  body: JSON.stringify({ model: 'm', max_tokens: 10, stream: false, messages: [{ role: 'user', content: 'hi' }],
    tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }] }),
});
const body = await res.json();
console.log(JSON.stringify({ status: res.status, key: process.env.ANTHROPIC_API_KEY === undefined ? 'none' : 'set', body }));
`;
      process.env.ANTHROPIC_API_KEY = 'sk-ant-real-host-key-000000';
      try {
        const dir = makeProject({
          'agent.mjs': agentScript,
          'tapes/talk.json': { turns: [{ text: 'hello from the tape' }] },
          'tapes/empty.json': { turns: [] },
        });
        writeConfig(
          dir,
          { agents: [nodeAgent('sim', join(dir, 'agent.mjs'))], settings: { simulate: true } },
          {
            talk: scenario('talk'),
            empty: scenario('empty'),
          },
        );
        // --no-score: only the agent's own model requests reach the simulator (no judge calls).
        const out = await run({ configPath: dir, cwd: dir, score: false });
        const byKey = Object.fromEntries(out.results.map((r) => [r.scenarioKey, r]));
        const talk = JSON.parse(byKey.talk!.transcript.result!) as {
          status: number;
          key: string;
          body: { content: { text: string }[] };
        };
        expect(talk.status).toBe(200);
        expect(talk.body.content[0]!.text).toBe('hello from the tape');
        expect(byKey.talk!.simulator).toMatchObject({ requests: 1, events: [], tape: 'tapes/talk.json' });
        const empty = byKey.empty!;
        expect(empty.simulator!.events.map((e) => e.type)).toEqual(['tape_exhausted']);
        expectValidReport(out.reportDir);
        // The host's real key never reached the agent or a file.
        for (const f of listFiles(out.reportDir)) {
          expect(readFileSync(join(out.reportDir, f), 'utf8')).not.toContain('sk-ant-real-host-key');
        }
      } finally {
        delete process.env.ANTHROPIC_API_KEY;
      }
    },
    T,
  );
});

describe('report.json while a run goes on', () => {
  it(
    'is rewritten after a job that is not the last, and after the last only by the final write',
    async () => {
      // Each job outlasts the rewrite interval (1 s), so every finished job but the last triggers a rewrite.
      const dir = makeProject({ 'slow.mjs': "setTimeout(() => process.stdout.write('done\\n'), 1200);" });
      writeConfig(
        dir,
        { agents: [nodeAgent('slow', join(dir, 'slow.mjs'))], settings: { concurrency: 1 } },
        { one: scenario('first'), two: scenario('second') },
      );
      const writes: { results: number; incomplete: boolean }[] = [];
      const original = ReportStore.prototype.writeManifest;
      const spy = vi.spyOn(ReportStore.prototype, 'writeManifest').mockImplementation(function (
        this: ReportStore,
        manifest: ReportManifest,
      ) {
        writes.push({ results: manifest.results.length, incomplete: manifest.incomplete === true });
        return original.call(this, manifest);
      });
      try {
        const out = await run({ configPath: dir, cwd: dir, score: false });
        expect(out.exitCode).toBe(0);
      } finally {
        spy.mockRestore();
      }
      expect(writes).toEqual([
        { results: 0, incomplete: true },
        { results: 1, incomplete: true },
        { results: 2, incomplete: false },
      ]);
    },
    T,
  );
});

function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

/** Writes axis.config.json and scenarios/<key>.json. */
function writeConfig(dir: string, config: Record<string, unknown>, scenarios: Record<string, object>): void {
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', ...config }, null, 2),
  );
  for (const [key, s] of Object.entries(scenarios))
    writeFileSync(join(dir, 'scenarios', `${key}.json`), JSON.stringify(s));
}
