// CLI start-up: `axis --help` and `axis --version` must not load config, zod or jiti. Each is timed
// beside the floor, a bare `node -e 0`, in interleaved runs (floor, help, version, floor, …).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage, median } from './lib/measure.mjs';

export const name = 'CLI start-up (median of 15, interleaved with bare node)';

const bin = join(dirname(fileURLToPath(import.meta.url)), '../../bin/axis.js');
const RUNS = 15;

function timeOnce(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export default async () => {
  const load = await loadAverage();
  const times = { floor: [], help: [], version: [] };
  for (let i = 0; i < RUNS; i++) {
    times.floor.push(timeOnce(['-e', '0']));
    times.help.push(timeOnce([bin, '--help']));
    times.version.push(timeOnce([bin, '--version']));
  }
  const [floor, help, version] = [times.floor, times.help, times.version].map(median);
  return [
    { label: 'machine load (1, 5, 15 min) at the start', value: load },
    { label: 'bare `node -e 0` (the floor)', value: `${floor.toFixed(0)} ms` },
    { label: 'axis --help', value: `${help.toFixed(0)} ms` },
    { label: 'axis --help ÷ floor', value: `${(help / floor).toFixed(2)}×`, target: '≤ 1.5×' },
    { label: 'axis --version ÷ floor', value: `${(version / floor).toFixed(2)}×`, target: '≤ 1.5×' },
  ];
};
