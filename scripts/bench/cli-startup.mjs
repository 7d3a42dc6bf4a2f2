// CLI start-up time: `axis --help` and `axis --version` must not load config, zod or jiti.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const name = 'CLI start-up (median of 10)';

const bin = join(dirname(fileURLToPath(import.meta.url)), '../../bin/axis.js');

function medianMs(args) {
  const times = [];
  for (let i = 0; i < 10; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [bin, ...args], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`axis ${args.join(' ')} exited with ${r.status}`);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return (times[4] + times[5]) / 2;
}

export default async () => [
  { label: 'axis --help', value: `${medianMs(['--help']).toFixed(0)} ms`, target: '< 200 ms' },
  { label: 'axis --version', value: `${medianMs(['--version']).toFixed(0)} ms`, target: '< 200 ms' },
];
