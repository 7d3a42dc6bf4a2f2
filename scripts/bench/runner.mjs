// Job orchestration: what `run()` adds around a trivial agent. 200 jobs (40 scenarios × 5 `command`
// agents running /bin/cat), concurrency 15, no scoring, the raw store written as usual. Per job, the
// overhead is its duration minus the agent process's own time (workspace, env, setup/teardown phases,
// artifacts, temp dir removal). Imports the built code from dist/.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const SCENARIOS = 40;
const AGENTS = 5;
/** BENCH_CONCURRENCY=1 shows the overhead without CPU contention (2 cores here). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 15);

export const name = `runner (run(): ${SCENARIOS * AGENTS} trivial jobs, concurrency ${CONCURRENCY}, no scoring)`;

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const ms = (v) => `${v.toFixed(1)} ms`;

function makeProject() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-bench-run-')));
  mkdirSync(join(dir, 'scenarios'));
  const agents = Array.from({ length: AGENTS }, (_, i) => ({
    agent: 'command',
    name: `cat-${i + 1}`,
    command: '/bin/cat',
  }));
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents, settings: { concurrency: CONCURRENCY } }),
  );
  for (let i = 0; i < SCENARIOS; i++) {
    const scenario = { name: `Scenario ${i}`, prompt: `Say ${i}.`, judge: [{ check: 'It said the number' }] };
    writeFileSync(join(dir, 'scenarios', `s${String(i).padStart(3, '0')}.json`), JSON.stringify(scenario));
  }
  return dir;
}

export default async function bench() {
  const { run } = await import(new URL('../../dist/runner/run.js', import.meta.url).href);
  const dir = makeProject();
  try {
    const t = performance.now();
    const out = await run({ configPath: dir, cwd: dir });
    const wallMs = performance.now() - t;
    const results = out.results;
    if (results.length !== SCENARIOS * AGENTS)
      throw new Error(`expected ${SCENARIOS * AGENTS} jobs, got ${results.length}`);
    const bad = results.filter((r) => r.status !== 'completed');
    if (bad.length) throw new Error(`${bad.length} job(s) did not complete: ${bad[0].reason}`);
    const overhead = results.map((r) => r.durationMs - r.timings.agentMs);
    const agent = results.map((r) => r.timings.agentMs);
    const setup = results.map((r) => r.timings.setupMs);
    const teardown = results.map((r) => r.timings.teardownMs);
    return [
      { label: 'jobs', value: results.length },
      { label: 'wall clock, whole run (config load → report written)', value: ms(wallMs) },
      { label: 'throughput', value: `${(results.length / (wallMs / 1000)).toFixed(1)} jobs/s` },
      { label: 'agent process (/bin/cat), median', value: ms(percentile(agent, 50)) },
      {
        label: 'runner overhead per job, median (duration − agent)',
        value: ms(percentile(overhead, 50)),
        target: '< 50 ms',
      },
      { label: 'runner overhead per job, p95', value: ms(percentile(overhead, 95)), target: '< 150 ms' },
      { label: '  of which setup (workspace, env), median', value: ms(percentile(setup, 50)) },
      {
        label: '  of which teardown (artifacts, temp dir removal), median',
        value: ms(percentile(teardown, 50)),
      },
      { label: `wall clock per job at concurrency ${CONCURRENCY}`, value: ms(wallMs / results.length) },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
