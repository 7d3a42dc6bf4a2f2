// What kind of machine the figures come from, printed before the benches (bench.mjs). Two of the targets
// are absolute (the 20 MB run in ≤ 1.0 s, ≤ 2 ms of scoring per short job), and machines of the same
// size differ most in two things this measures, each in a fresh Node process, median of three:
// - CPU speed: a fixed loop of 10^8 additions;
// - fresh memory: the first touch of 64 MB (every page faulted in) against touching it again. On some
//   VMs a page fault costs ~10 µs instead of ~0.5 µs, and a run's peak RSS is then a large part of its
//   time: the 20 MB run touches ~220 MB, so 2.7 ms per MB is ~0.6 s of it (docs/performance.md).
import { spawnSync } from 'node:child_process';
import { median } from './measure.mjs';

const PROBE = `
const t0 = performance.now();
let s = 0;
for (let i = 0; i < 1e8; i++) s += i;
const loop = performance.now() - t0;
const t1 = performance.now();
const b = Buffer.alloc(64 << 20, 1);
const first = performance.now() - t1;
const t2 = performance.now();
b.fill(2);
const again = performance.now() - t2;
process.stdout.write(JSON.stringify({ loop, first, again, s: s > 0 }));
`;

let measured;

/** The machine's profile, measured once per bench process (bench.mjs prints it; scoring-e2e.mjs uses it). */
export function machineProfile(runs = 3) {
  if (measured) return measured;
  // Each bench runs in a process of its own: bench.mjs measures once and hands the profile on.
  if (process.env.AXIS_BENCH_MACHINE) return (measured = JSON.parse(process.env.AXIS_BENCH_MACHINE));
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['-e', PROBE], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`machine probe failed: ${r.stderr}`);
    results.push(JSON.parse(r.stdout));
  }
  const m = (k) => median(results.map((r) => r[k]));
  measured = {
    loopMs: m('loop'),
    freshMs: m('first'),
    againMs: m('again'),
    freshMsPerMb: (m('first') - m('again')) / 64,
  };
  return measured;
}

/** The rows bench.mjs prints first. */
export function machineRows() {
  const p = machineProfile();
  return [
    { label: 'CPU: a loop of 10^8 additions', value: `${p.loopMs.toFixed(0)} ms` },
    {
      label: 'fresh memory: first touch of 64 MB / touched again',
      value: `${p.freshMs.toFixed(0)} / ${p.againMs.toFixed(0)} ms`,
    },
    { label: '  page faults cost, per MB touched the first time', value: `${p.freshMsPerMb.toFixed(2)} ms` },
  ];
}
