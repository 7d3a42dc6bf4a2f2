// Runner core: what spawnAgentProcess adds on top of a bare child_process.spawn, per trivial process
// (200 runs of `/bin/true`, 15 at a time through runPool). Imports the built code from dist/.
// Three kinds, interleaved pass by pass: a bare spawn, the same spawn through the containment prefix
// (contain.ts: what every job process starts under), and spawnAgentProcess. The latency figures split
// into the wrapper and the process core; the CPU figures are this process's own (user + system,
// children excluded), so what the wrapper's programs cost is not in them: only AXIS's work per process.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { loadAverage, median, PASSES } from './lib/measure.mjs';

export const name = 'runner core (process spawn + collect)';

const RUNS = 200;
const CONCURRENCY = 15;
const dist = new URL('../../dist/', import.meta.url);

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** spawn → 'close', the floor no wrapper can beat (`prefix`: the same through a wrapper). */
function bareSpawn(prefix = []) {
  const [command, ...args] = [...prefix, '/bin/true'];
  return new Promise((resolve) => {
    const t = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve(performance.now() - t));
  });
}

async function measure(runPool, task) {
  const durations = [];
  const cpu = process.cpuUsage();
  const t = performance.now();
  await runPool(
    Array.from({ length: RUNS }, () => async () => durations.push(await task())),
    { concurrency: CONCURRENCY },
  );
  const used = process.cpuUsage(cpu);
  return { durations, wallMs: performance.now() - t, cpuMs: (used.user + used.system) / 1000 / RUNS };
}

export default async function bench() {
  const load = await loadAverage();
  const { spawnAgentProcess } = await import(new URL('exec/process.js', dist).href);
  const { runPool } = await import(new URL('runner/pool.js', dist).href);
  const { containment } = await import(new URL('exec/contain.js', dist).href);
  const wrapper = containment();
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const ours = () =>
    spawnAgentProcess({
      command: '/bin/true',
      args: [],
      cwd: process.cwd(),
      env,
      timeoutMs: 10_000,
      maxStdoutBytes: 1 << 20,
      maxStderrBytes: 1 << 16,
      onStdoutLine: () => {},
    }).then((r) => {
      if (r.exitCode !== 0) throw new Error(r.spawnError ?? `exit ${r.exitCode}`);
      return r.durationMs;
    });
  const tasks = { bare: () => bareSpawn(), wrapped: () => bareSpawn(wrapper.prefix), ours };

  await measure(runPool, bareSpawn); // warm-up
  const runs = { bare: [], wrapped: [], ours: [] };
  for (let p = 0; p < PASSES; p++)
    for (const [key, task] of Object.entries(tasks)) runs[key].push(await measure(runPool, task));
  const lat = (key) => median(runs[key].map((r) => median(r.durations)));
  const cpu = (key) => median(runs[key].map((r) => r.cpuMs));
  const fmt = (ms) => `${ms.toFixed(2)} ms`;
  const wrappedRows =
    wrapper.prefix.length === 0
      ? [{ label: `containment wrapper: none (${wrapper.mode})`, value: '' }]
      : [
          { label: 'bare spawn through the containment wrapper median', value: fmt(lat('wrapped')) },
          { label: '  of which the wrapper (wrapped − bare)', value: fmt(lat('wrapped') - lat('bare')) },
          { label: '  spawnAgentProcess beyond the wrapper', value: fmt(lat('ours') - lat('wrapped')) },
        ];
  return [
    { label: 'machine load (1, 5, 15 min) at the start', value: load },
    { label: `passes (interleaved), medians below`, value: PASSES },
    {
      label: `spawnAgentProcess median, ${RUNS} × /bin/true @ ${CONCURRENCY}`,
      value: fmt(lat('ours')),
    },
    {
      label: 'spawnAgentProcess p95 (last pass)',
      value: fmt(percentile(runs.ours.at(-1).durations, 95)),
    },
    { label: 'bare child_process.spawn median (same passes)', value: fmt(lat('bare')) },
    {
      label: 'overhead per process (median difference)',
      value: fmt(lat('ours') - lat('bare')),
      target: '< 5 ms',
    },
    ...wrappedRows,
    { label: 'AXIS process CPU per process, spawnAgentProcess', value: fmt(cpu('ours')) },
    {
      label: '  bare spawn / through the wrapper (same process)',
      value: `${fmt(cpu('bare'))} / ${fmt(cpu('wrapped'))}`,
    },
    {
      label: 'throughput through runPool',
      value: `${((RUNS / median(runs.ours.map((r) => r.wallMs))) * 1000).toFixed(0)} proc/s`,
    },
  ];
}

// Also runnable on its own: `node scripts/bench/runner-core.mjs`.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  for (const row of await bench()) {
    const target = row.target ? `   (target: ${row.target})` : '';
    process.stdout.write(`${row.label.padEnd(58)} ${String(row.value).padStart(14)}${target}\n`);
  }
}
