// Runner core: what spawnAgentProcess adds on top of a bare child_process.spawn, per trivial process
// (200 runs of `/bin/true`, 15 at a time through runPool). Imports the built code from dist/.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

export const name = 'runner core (process spawn + collect)';

const RUNS = 200;
const CONCURRENCY = 15;
const dist = new URL('../../dist/runner/', import.meta.url);

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Bare spawn → 'close', the floor no wrapper can beat. */
function bareSpawn() {
  return new Promise((resolve) => {
    const t = performance.now();
    const child = spawn('/bin/true', [], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve(performance.now() - t));
  });
}

async function measure(runPool, task) {
  const durations = [];
  const t = performance.now();
  await runPool(
    Array.from({ length: RUNS }, () => async () => durations.push(await task())),
    { concurrency: CONCURRENCY },
  );
  return { durations, wallMs: performance.now() - t };
}

export default async function bench() {
  const { spawnAgentProcess } = await import(new URL('process.js', dist).href);
  const { runPool } = await import(new URL('pool.js', dist).href);
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

  await measure(runPool, bareSpawn); // warm-up
  const bare = await measure(runPool, bareSpawn);
  const wrapped = await measure(runPool, ours);
  const overhead = median(wrapped.durations) - median(bare.durations);
  const fmt = (ms) => `${ms.toFixed(2)} ms`;
  return [
    {
      label: `spawnAgentProcess median, ${RUNS} × /bin/true @ ${CONCURRENCY}`,
      value: fmt(median(wrapped.durations)),
    },
    { label: 'spawnAgentProcess p95', value: fmt(percentile(wrapped.durations, 95)) },
    { label: 'bare child_process.spawn median (same load)', value: fmt(median(bare.durations)) },
    { label: 'overhead per process (median difference)', value: fmt(overhead), target: '< 5 ms' },
    { label: 'throughput through runPool', value: `${((RUNS / wrapped.wallMs) * 1000).toFixed(0)} proc/s` },
  ];
}

// Also runnable on its own: `node scripts/bench/runner-core.mjs`.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  for (const row of await bench()) {
    const target = row.target ? `   (target: ${row.target})` : '';
    process.stdout.write(`${row.label.padEnd(58)} ${String(row.value).padStart(14)}${target}\n`);
  }
}
