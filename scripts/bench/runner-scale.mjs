// What `axis run` costs per job beside the physical floor. The agent is a real child process printing a
// fixed AXIS NDJSON transcript (the `command` agent running /bin/cat), `--no-score`, concurrency 15. The
// floor is a plain Node script spawning the same child the same number of times at the same concurrency
// (lib/spawn-floor.mjs). Both are timed as whole processes, so start-up cancels out of the marginal cost
// (T(N) − T(1)) / (N − 1). Passes are interleaved (floor, axis, floor, axis, …) so load hits both alike.
// A second floor runs the same child through AXIS's containment wrapper (the PID-namespace prefix of
// dist/exec/contain.js), so the figure splits into what the wrapper costs and what AXIS itself does.
// A file-system floor makes and removes, with plain fs calls from this process, the directories and
// files a job of this project creates (lib/fs-floor.mjs), so the CPU figure says how much of AXIS's own
// cost is the temp dir's file system (on ext4 without a journal, most of it: docs/performance.md).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { containment } from '../../dist/exec/contain.js';
import { COMPACT_HEAP_MIN_JOBS } from '../../dist/runner/heap.js';
import { fileFloorCpuPerJob } from './lib/fs-floor.mjs';
import {
  AXIS_BIN,
  FLOOR_SCRIPT,
  fmtMs,
  fileCreationMicros,
  fmtRatio,
  interleave,
  loadAverage,
  makeRunnerProject,
  median,
  PASSES,
  timeNode,
} from './lib/measure.mjs';

export const name = 'runner: per-job cost of `axis run --no-score` beside the spawn floor (c=15)';

const SIZES = [1, 200, 1000];
const NATIVE_DIR = join(import.meta.dirname, '../../dist/native');
/** The wrapped floor only at the sizes of the headline figure (it is there to split that figure). */
const WRAPPED_SIZES = [1, 200];

/**
 * What dist/native's programs were linked with (scripts/build-native.mjs writes it): a figure taken with
 * glibc's static start-up is ~0.25 ms per job slower than with musl's, so a reader must know which.
 */
function nativeBuild() {
  try {
    const kinds = Object.values(JSON.parse(readFileSync(join(NATIVE_DIR, 'build.json'), 'utf8')));
    return [...new Set(kinds)].join(' / ') || 'not built';
  } catch {
    return 'not built (no dist/native/build.json)';
  }
}

export default async function bench() {
  const load = await loadAverage();
  const projects = Object.fromEntries(SIZES.map((n) => [n, makeRunnerProject(n)]));
  const creation = [fileCreationMicros(projects[200].dir)];
  try {
    const tasks = {};
    const wrapper = containment();
    for (const n of SIZES) {
      const p = projects[n];
      const child = ['/bin/cat', `${p.dir}/transcript.ndjson`];
      tasks[`floor${n}`] = () => timeNode([FLOOR_SCRIPT, String(n), '15', ...child]);
      if (wrapper.prefix.length > 0 && WRAPPED_SIZES.includes(n))
        tasks[`wrapped${n}`] = () => timeNode([FLOOR_SCRIPT, String(n), '15', ...wrapper.prefix, ...child]);
      tasks[`axis${n}`] = async () => {
        const r = await timeNode([AXIS_BIN, 'run', '--no-score'], { cwd: p.dir });
        if (!r.stdout.includes(`${n} pair${n === 1 ? '' : 's'}: ${n} completed`))
          throw new Error(`axis run of ${n} jobs did not complete them all:\n${r.stdout.slice(-500)}`);
        return r;
      };
    }
    // In the same passes, so the machine's load hits it and AXIS alike; it deletes nothing (discard).
    tasks.fsFloor = () => fileFloorCpuPerJob(200, 15);
    const runs = await interleave(tasks, PASSES);
    creation.push(fileCreationMicros(projects[200].dir));
    const fsFloor = median(runs.fsFloor);
    const t = (key) => median(runs[key].map((r) => r.ms));
    const m = (key, f) => median(runs[key].map(f));
    const slope = (kind, n) => (t(`${kind}${n}`) - t(`${kind}1`)) / (n - 1);
    const floor200 = slope('floor', 200);
    const axis200 = slope('axis', 200);
    const axis1000 = slope('axis', 1000);
    const cpu = (kind, n) => (m(`${kind}${n}`, (r) => r.cpuMs) - m(`${kind}1`, (r) => r.cpuMs)) / (n - 1);
    const memPerJob = (m('axis1000', (r) => r.rssBytes) - m('axis1', (r) => r.rssBytes)) / 999 / 1024;
    /** AXIS's spawner process forks the jobs (src/exec/spawner.ts): its CPU is AXIS's too. */
    function spawnerRows() {
      const child = (n) => m(`axis${n}`, (r) => r.childCpuMs ?? 0);
      if (!(child(200) > 0))
        return [{ label: 'spawner process', value: 'none alive at exit (AXIS_SPAWNER=off?)' }];
      const perJob = (child(200) - child(1)) / 199;
      return [
        { label: '  spawner process CPU per job (its own, jobs excluded)', value: fmtMs(perJob) },
        { label: '  AXIS + spawner CPU per job', value: fmtMs(cpu('axis', 200) + perJob) },
      ];
    }
    /**
     * Every process's CPU per job (AXIS, its spawner, the wrapper and the job's own processes), and the
     * same for the floor: at c=15 on 2 cores the machine is nearly always busy, so wall time per job is
     * about this ÷ the cores, and no faster than AXIS's main thread alone (next rows).
     */
    function machineRows() {
      const per = (kind) =>
        (m(`${kind}200`, (r) => r.machineCpuMs) - m(`${kind}1`, (r) => r.machineCpuMs)) / 199;
      const cores = availableParallelism();
      return [
        {
          label: `machine CPU per job, every process: axis / floor (÷ ${cores} cores)`,
          value: `${fmtMs(per('axis'))} / ${fmtMs(per('floor'))} (${fmtMs(per('axis') / cores)} / ${fmtMs(per('floor') / cores)})`,
        },
      ];
    }
    function wrappedRows() {
      if (!runs.wrapped1) return [{ label: 'containment wrapper', value: wrapper.mode }];
      const wrapped200 = slope('wrapped', 200);
      return [
        { label: 'marginal per job, floor through the containment wrapper', value: fmtMs(wrapped200) },
        { label: '  of which the wrapper (wrapped floor − floor)', value: fmtMs(wrapped200 - floor200) },
        { label: '  axis ÷ wrapped floor (what AXIS adds itself)', value: fmtRatio(axis200 / wrapped200) },
      ];
    }
    return [
      { label: 'machine load (1, 5, 15 min) at the start', value: load },
      { label: `passes (interleaved), medians below`, value: PASSES },
      { label: 'containment helper and spawner linked with', value: nativeBuild() },
      {
        label: 'creating one file in a project dir, before / after the passes',
        value: creation.map((us) => `${us.toFixed(0)}`).join(' / ') + ' µs',
      },
      {
        label: 'T1 / T200 / T1000, axis run (whole process)',
        value: `${[1, 200, 1000].map((n) => t(`axis${n}`).toFixed(0)).join(' / ')} ms`,
      },
      {
        label: 'T1 / T200 / T1000, spawn floor (whole process)',
        value: `${[1, 200, 1000].map((n) => t(`floor${n}`).toFixed(0)).join(' / ')} ms`,
      },
      { label: 'marginal per job, axis (T200 − T1) / 199', value: fmtMs(axis200) },
      { label: 'marginal per job, spawn floor', value: fmtMs(floor200) },
      { label: 'marginal per job, axis ÷ floor', value: fmtRatio(axis200 / floor200), target: '≤ 2×' },
      ...wrappedRows(),
      {
        label: 'per job at 1000 ÷ per job at 200 ((T1000−T1)/999 ÷ (T200−T1)/199)',
        value: fmtRatio(axis1000 / axis200),
        target: '≤ 1.25×',
      },
      { label: '  spawn floor, same ratio', value: fmtRatio(slope('floor', 1000) / floor200) },
      { label: 'AXIS process CPU per job (user+sys, 200 jobs)', value: fmtMs(cpu('axis', 200)) },
      {
        // Wall time per job cannot go below the main thread's CPU per job: one thread does each job's work.
        label: '  of which its main thread (the rest: V8 GC / compiler threads)',
        value: fmtMs((m('axis200', (r) => r.mainThreadCpuMs) - m('axis1', (r) => r.mainThreadCpuMs)) / 199),
      },
      { label: '  spawn floor process CPU per job', value: fmtMs(cpu('floor', 200)) },
      ...spawnerRows(),
      {
        label: "  file-system floor: a job's dirs and files made and removed (CPU per job)",
        value: fmtMs(fsFloor),
      },
      { label: '  AXIS process CPU per job beyond that floor', value: fmtMs(cpu('axis', 200) - fsFloor) },
      ...machineRows(),
      {
        label: 'peak RSS per job ((RSS1000 − RSS1) / 999)',
        value: `${memPerJob.toFixed(1)} KB`,
        target: '≤ 40 KB',
      },
      {
        label: 'peak RSS at 1 / 1000 jobs',
        value: `${(m('axis1', (r) => r.rssBytes) / 2 ** 20).toFixed(0)} / ${(m('axis1000', (r) => r.rssBytes) / 2 ** 20).toFixed(0)} MB`,
      },
      {
        label: '  V8 heap (src/runner/heap.ts)',
        value: `compact from ${COMPACT_HEAP_MIN_JOBS} jobs: the 200/1000-job runs; defaults once a 1-job plan is known`,
      },
      { label: 'machine load (1, 5, 15 min) at the end', value: await loadAverage() },
    ];
  } finally {
    for (const p of Object.values(projects)) p.remove();
  }
}
