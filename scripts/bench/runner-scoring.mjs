// What scoring adds per short job: `axis run` against `axis run --no-score` on the same 200 jobs (40
// scenarios × 5 `command` agents printing a fixed transcript, c=15), whose judge answers every question
// at once from a tape (the "instant judge"), measured two ways: under `settings.simulate` (the judge is
// the simulator inside the AXIS process, so its HTTP server's work counts as AXIS's), and against
// `axis sim serve` in a process of its own as the configured judge endpoint (`judge.base_url`), the way a
// real judge provider is reached, its answers then stored in the judge cache (cleared before each run). The floor is the --no-score run of the same project, interleaved.
// A second floor, for the judge in its own process: a plain Node script sending the same judge requests
// per job (same count and sizes, read from a scored job's detail file) to the same server at the same
// concurrency (lib/judge-floor.mjs): what asking a judge over HTTP costs any client on this machine.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  addedPerJob,
  addedPerPass,
  AXIS_BIN,
  discard,
  JUDGE_FLOOR_SCRIPT,
  fmtMs,
  fmtRatio,
  interleave,
  loadAverage,
  makeRunnerProject,
  instantJudgeTape,
  median,
  PASSES,
  tempDir,
  timeNode,
} from './lib/measure.mjs';
import { startDelayingProxy } from './lib/delaying-proxy.mjs';

export const name = 'runner: what scoring adds per short job (instant simulator judge, 200 jobs, c=15)';

const JOBS = 200;
/** The judge that takes time: each answer held this long (a real provider's take seconds). */
const SLOW_JUDGE_MS = 100;
/**
 * Scored 200-job runs against the judge before the measured passes. The judge stands in for a remote
 * provider, whose CPU is not this machine's; a fresh `axis sim serve` runs its request handling in V8's
 * baseline tiers for its first ~2,000 requests, at 2-3× the CPU per request of a warmed one (its CPU per
 * 200-job run: 290, 200, 250, 190, 120, 90, 150, 80, 70, 80 ms in ten runs in a row), which on 2 cores
 * came out of the scored runs' wall time while the first passes ran. Warmed, it still costs this
 * machine's CPU (printed below), so the figure stays on the safe side of a remote judge.
 */
const JUDGE_WARMUP_RUNS = 5;
/**
 * Passes of this bench: at least five. Its target figure is a small difference (~2 ms) of two ~9 ms
 * marginal costs, so it takes the median of more paired passes than the other benches' three.
 */
const SCORING_PASSES = Math.max(PASSES, 5);

/** The judge summary of one scored job, read back from its detail file: what "a short job asks" means here. */
function judgeOf(dir) {
  const reports = join(dir, '.axis/reports');
  for (const id of readdirSync(reports).sort().reverse()) {
    const detail = join(reports, id, 'scenarios/s0000/fixed-1.json');
    const judge = JSON.parse(readFileSync(detail, 'utf8')).score?.judge;
    if (judge) return judge;
  }
  throw new Error(`no scored job in ${reports}`);
}

function judgeRequests(dir) {
  const judge = judgeOf(dir);
  return `${judge.requests} (${judge.judges.map((j) => j.name).join(', ')})`;
}

/** `axis sim serve` of the instant judge's tape in its own process: the judge endpoint of a real run. */
async function judgeServer() {
  const tape = join(tempDir('axis-bench-judge-'), 'judge.json');
  writeFileSync(tape, JSON.stringify(instantJudgeTape()));
  const child = spawn(process.execPath, [AXIS_BIN, 'sim', 'serve', '-t', tape, '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise((resolve, reject) => {
    let head = '';
    const onData = (c) => {
      head += c;
      if (!head.includes('\n')) return;
      child.stdout.off('data', onData);
      child.stdout.resume(); // its request log, read and dropped
      resolve(JSON.parse(head.slice(0, head.indexOf('\n'))).url);
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`axis sim serve exited ${code}`)));
  });
  return { url, cpuMs: () => processCpuMs(child.pid), stop: () => child.kill() };
}

/** User + system CPU of a process so far, from /proc (clock ticks of 10 ms); NaN where there is none. */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

export default async function bench() {
  const load = await loadAverage();
  const small = makeRunnerProject(1, { simulate: true });
  const big = makeRunnerProject(JOBS, { simulate: true });
  const server = await judgeServer();
  const judge = { provider: 'anthropic', base_url: server.url, model: 'axis-sim' };
  const smallX = makeRunnerProject(1, { judge });
  const bigX = makeRunnerProject(JOBS, { judge });
  const proxy = await startDelayingProxy(server.url, SLOW_JUDGE_MS);
  const slowJudge = { ...judge, base_url: proxy.url };
  const smallS = makeRunnerProject(1, { judge: slowJudge });
  const bigS = makeRunnerProject(JOBS, { judge: slowJudge });
  const env = { ANTHROPIC_API_KEY: 'axis-sim-key' };
  const run = (p, n, args) => async () => {
    // Each scored run is a first scoring: answers asked and stored in the judge cache, never read from it
    // (a real judge's answers are cached; the simulator's never are).
    // Only the judge cache: report.html's trend cache stays, as in any run after the first.
    discard(join(p.dir, '.axis/cache/judge'));
    const judgeBefore = server.cpuMs();
    const r = await timeNode([AXIS_BIN, 'run', ...args], { cwd: p.dir, env });
    r.judgeCpuMs = server.cpuMs() - judgeBefore;
    if (!r.stdout.includes(`${n} completed`))
      throw new Error(`not every job completed:\n${r.stdout.slice(-400)}`);
    if (!args.includes('--no-score') && !r.stdout.includes(`(${n} scored`))
      throw new Error(`not every job was scored:\n${r.stdout.slice(-400)}`);
    return r;
  };
  try {
    // One scored job first: the sizes of the judge requests the judge floor sends.
    await run(smallX, 1, [])();
    for (let i = 0; i < JUDGE_WARMUP_RUNS; i++) await run(bigX, JOBS, [])();
    const sizes = judgeOf(smallX.dir)
      .judges.map((j) => j.inputChars)
      .join(',');
    const floor = (n) => () => timeNode([JUDGE_FLOOR_SCRIPT, server.url, String(n), '15', sizes]);
    const runs = await interleave(
      {
        floor1: floor(1),
        floor: floor(JOBS),
        plain1: run(small, 1, ['--no-score']),
        scored1: run(small, 1, []),
        plain: run(big, JOBS, ['--no-score']),
        scored: run(big, JOBS, []),
        xplain1: run(smallX, 1, ['--no-score']),
        xscored1: run(smallX, 1, []),
        xplain: run(bigX, JOBS, ['--no-score']),
        xscored: run(bigX, JOBS, []),
        sscored1: run(smallS, 1, []),
        sscored: run(bigS, JOBS, []),
      },
      SCORING_PASSES,
      { alternate: true },
    );
    const t = (k) => median(runs[k].map((r) => r.ms));
    const perJob = (k, k1) => (t(k) - t(k1)) / (JOBS - 1);
    const addedOf = (field, scored, plain) => addedPerJob(runs, field, scored, plain, JOBS);
    const unpairedAddedOf = (field, scored, plain) =>
      addedPerJob(runs, field, scored, plain, JOBS, { paired: false });
    const added = addedOf('ms', 'scored', 'plain');
    // CPU time of the axis process (user + system, children excluded): a loaded machine disturbs it
    // far less than wall time.
    const cpu = (k) => median(runs[k].map((r) => r.cpuMs));
    const busy = (usedMs, ofMs) => `${Math.round((100 * usedMs) / ofMs)}%`;
    const cpuAdded = addedOf('cpuMs', 'scored', 'plain');
    const addedX = addedOf('ms', 'xscored', 'xplain');
    const cpuAddedX = addedOf('cpuMs', 'xscored', 'xplain');
    const mainAddedX = addedOf('mainThreadCpuMs', 'xscored', 'xplain');
    const machineAddedX = addedOf('machineCpuMs', 'xscored', 'xplain');
    const cores = availableParallelism();
    return [
      { label: 'machine load (1, 5, 15 min) at the start', value: load },
      { label: 'judge requests per job (HTTP)', value: judgeRequests(big.dir) },
      { label: 'judge in its own process (`axis sim serve` as judge.base_url)', value: '' },
      { label: '  marginal per job, --no-score (the floor here)', value: fmtMs(perJob('xplain', 'xplain1')) },
      { label: '  marginal per job, scored', value: fmtMs(perJob('xscored', 'xscored1')) },
      { label: '  scoring adds per job (median of the passes)', value: fmtMs(addedX), target: '≤ 2 ms' },
      {
        // The spread a single bench's figure comes from: on a 2-core VM it can be wider than the margin.
        label: '    each pass, in order',
        value: addedPerPass(runs, 'ms', 'xscored', 'xplain', JOBS)
          .map((v) => v.toFixed(2))
          .join(', '),
      },
      {
        label: '    the same as a difference of the kinds’ medians',
        value: fmtMs(unpairedAddedOf('ms', 'xscored', 'xplain')),
      },
      {
        label: `  floor: same judge requests, plain Node (${sizes} chars)`,
        value: fmtMs(perJob('floor', 'floor1')),
      },
      { label: '  scoring adds ÷ that floor', value: fmtRatio(addedX / perJob('floor', 'floor1')) },
      {
        label: '  floor process CPU per job',
        value: fmtMs((cpu('floor') - cpu('floor1')) / (JOBS - 1)),
      },
      { label: '  AXIS process CPU scoring adds per job', value: fmtMs(cpuAddedX) },
      {
        label: '    of which its main thread (the rest: V8 GC / compiler threads)',
        value: fmtMs(mainAddedX),
      },
      {
        label: '    of which beyond the judge floor’s CPU',
        value: fmtMs(cpuAddedX - (cpu('floor') - cpu('floor1')) / (JOBS - 1)),
      },
      {
        // Everything scoring makes the machine do (AXIS, the judge process, the spawner). When the cores
        // are the limit the wall figure above is about this ÷ the cores; when AXIS's main thread is
        // (the line below), it is about the main thread's share.
        label: `  machine CPU scoring adds per job, every process (÷ ${cores} cores)`,
        value: `${fmtMs(machineAddedX)} (${fmtMs(machineAddedX / cores)})`,
      },
      {
        // Which of the two a scored run waits on: its main thread's CPU and the machine's busy time,
        // each as a share of the run's wall time (the machine's of all its cores).
        label: '  the scored 200-job run: AXIS main thread / machine busy',
        value: `${busy(median(runs.xscored.map((r) => r.mainThreadCpuMs)), t('xscored'))} / ${busy(
          median(runs.xscored.map((r) => r.machineCpuMs)),
          t('xscored') * cores,
        )}`,
      },
      {
        // On 2 cores the judge's own CPU competes with AXIS's, so part of the wall figure above is its.
        label: '  the judge process’s CPU per scored job (not AXIS’s)',
        value: fmtMs(
          (median(runs.xscored.map((r) => r.judgeCpuMs)) - median(runs.xscored1.map((r) => r.judgeCpuMs))) /
            (JOBS - 1),
        ),
      },
      {
        // A finished job's judging runs outside its place in the pool: the judge's latency should reach
        // the run only as far as the judging places (concurrency) are busy with it.
        label: `the same judge answering after ${SLOW_JUDGE_MS} ms (a delaying proxy in front of it)`,
        value: '',
      },
      { label: '  marginal per job, scored', value: fmtMs(perJob('sscored', 'sscored1')) },
      {
        label: `  what the judge's ${SLOW_JUDGE_MS} ms add per job`,
        value: fmtMs(perJob('sscored', 'sscored1') - perJob('xscored', 'xscored1')),
      },
      { label: 'judge inside AXIS (settings.simulate: its server counts as AXIS)', value: '' },
      { label: '  marginal per job, --no-score (the floor here)', value: fmtMs(perJob('plain', 'plain1')) },
      { label: '  marginal per job, scored', value: fmtMs(perJob('scored', 'scored1')) },
      { label: '  scoring adds per job', value: fmtMs(added) },
      {
        label: '  process CPU per job, --no-score (the floor here)',
        value: fmtMs((cpu('plain') - cpu('plain1')) / (JOBS - 1)),
      },
      { label: '  process CPU scoring adds per job', value: fmtMs(cpuAdded) },
    ];
  } finally {
    proxy.stop();
    server.stop();
    small.remove();
    big.remove();
    smallX.remove();
    bigX.remove();
    smallS.remove();
    bigS.remove();
  }
}
