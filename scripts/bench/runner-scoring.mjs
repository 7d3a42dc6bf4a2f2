// What scoring adds per short job: `axis run` against `axis run --no-score` on the same 200 jobs (40
// scenarios × 5 `command` agents printing a fixed transcript, c=15), both under the simulator, whose
// judge answers every question at once from the tape (the "instant judge"). The floor is the --no-score
// run measured in the same passes, interleaved.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AXIS_BIN,
  fmtMs,
  interleave,
  loadAverage,
  makeRunnerProject,
  median,
  PASSES,
  timeNode,
} from './lib/measure.mjs';

export const name = 'runner: what scoring adds per short job (instant simulator judge, 200 jobs, c=15)';

const JOBS = 200;

/** Judge requests of one scored job, read back from its detail file: what "a short job asks" means here. */
function judgeRequests(dir) {
  const reports = join(dir, '.axis/reports');
  for (const id of readdirSync(reports).sort().reverse()) {
    const detail = join(reports, id, 'scenarios/s0000/fixed-1.json');
    const judge = JSON.parse(readFileSync(detail, 'utf8')).score?.judge;
    if (judge) return `${judge.requests} (${judge.judges.map((j) => j.name).join(', ')})`;
  }
  return 'none';
}

export default async function bench() {
  const load = await loadAverage();
  const small = makeRunnerProject(1, { simulate: true });
  const big = makeRunnerProject(JOBS, { simulate: true });
  const run = (p, n, args) => async () => {
    const r = await timeNode([AXIS_BIN, 'run', ...args], { cwd: p.dir });
    if (!r.stdout.includes(`${n} completed`))
      throw new Error(`not every job completed:\n${r.stdout.slice(-400)}`);
    if (!args.includes('--no-score') && !r.stdout.includes(`(${n} scored`))
      throw new Error(`not every job was scored:\n${r.stdout.slice(-400)}`);
    return r;
  };
  try {
    const runs = await interleave(
      {
        plain1: run(small, 1, ['--no-score']),
        scored1: run(small, 1, []),
        plain: run(big, JOBS, ['--no-score']),
        scored: run(big, JOBS, []),
      },
      PASSES,
    );
    const t = (k) => median(runs[k].map((r) => r.ms));
    const perJob = (k, k1) => (t(k) - t(k1)) / (JOBS - 1);
    const added = perJob('scored', 'scored1') - perJob('plain', 'plain1');
    // CPU time of the axis process (user + system, children excluded): a loaded machine disturbs it
    // far less than wall time.
    const cpu = (k) => median(runs[k].map((r) => r.cpuMs));
    const cpuPerJob = (k, k1) => (cpu(k) - cpu(k1)) / (JOBS - 1);
    const cpuAdded = cpuPerJob('scored', 'scored1') - cpuPerJob('plain', 'plain1');
    return [
      { label: 'machine load (1, 5, 15 min) at the start', value: load },
      { label: 'judge requests per job (HTTP, to the simulator)', value: judgeRequests(big.dir) },
      { label: 'marginal per job, --no-score (the floor here)', value: fmtMs(perJob('plain', 'plain1')) },
      { label: 'marginal per job, scored', value: fmtMs(perJob('scored', 'scored1')) },
      { label: 'scoring adds per job', value: fmtMs(added), target: '≤ 2 ms' },
      {
        label: 'process CPU per job, --no-score (the floor here)',
        value: fmtMs(cpuPerJob('plain', 'plain1')),
      },
      { label: 'process CPU scoring adds per job', value: fmtMs(cpuAdded) },
    ];
  } finally {
    small.remove();
    big.remove();
  }
}
