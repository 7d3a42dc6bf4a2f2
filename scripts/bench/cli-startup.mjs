// CLI start-up: `axis --help` and `axis --version` must not load config, zod or jiti. Each is timed
// beside the floor, a bare `node -e 0`, in interleaved runs (floor, help, version, floor, …), without the
// environment's extra CA bundle (and with it, when it is set, for comparison). Then a
// one-job `axis run --no-score` and an `axis validate`, each timed through bin/axis.js (the bundle,
// scripts/bundle.mjs) and through dist/cli/main.js (the same build, one file per module), interleaved:
// what the bundle saves every command that loads the config.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage, makeRunnerProject, median } from './lib/measure.mjs';

export const name = 'CLI start-up (median of 15, interleaved with bare node)';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'bin/axis.js');
const unbundled = join(root, 'dist/cli/main.js');
const RUNS = 15;
const COMMAND_RUNS = 9;

/**
 * The environment's extra CA bundle, which Node reads at every start (about 40 ms on the 2-core machines
 * here): a constant on both sides of the ratio, so the target is taken without it, and the ratio as this
 * environment has it is printed beside.
 */
const EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS;
const { NODE_EXTRA_CA_CERTS: _ca, ...ENV_WITHOUT_CA } = process.env;

function timeOnce(args, cwd, env = process.env) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    stdio: 'ignore',
    cwd,
    env: { ...env, NO_COLOR: '1' },
  });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A one-job `run --no-score` and a `validate`, bundle and one-file-per-module build interleaved. */
function commands() {
  const p = makeRunnerProject(1);
  try {
    const t = { run: [], runFiles: [], validate: [], validateFiles: [] };
    timeOnce([bin, 'run', '--no-score'], p.dir); // the first run makes the caches and the spawner's files
    for (let i = 0; i < COMMAND_RUNS; i++) {
      t.run.push(timeOnce([bin, 'run', '--no-score'], p.dir));
      t.runFiles.push(timeOnce([unbundled, 'run', '--no-score'], p.dir));
      t.validate.push(timeOnce([bin, 'validate'], p.dir));
      t.validateFiles.push(timeOnce([unbundled, 'validate'], p.dir));
    }
    return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
  } finally {
    p.remove();
  }
}

export default async () => {
  const load = await loadAverage();
  const times = { floor: [], help: [], version: [], floorCa: [], helpCa: [], versionCa: [] };
  for (let i = 0; i < RUNS; i++) {
    times.floor.push(timeOnce(['-e', '0'], undefined, ENV_WITHOUT_CA));
    times.help.push(timeOnce([bin, '--help'], undefined, ENV_WITHOUT_CA));
    times.version.push(timeOnce([bin, '--version'], undefined, ENV_WITHOUT_CA));
    if (EXTRA_CA === undefined) continue;
    times.floorCa.push(timeOnce(['-e', '0']));
    times.helpCa.push(timeOnce([bin, '--help']));
    times.versionCa.push(timeOnce([bin, '--version']));
  }
  const [floor, help, version] = [times.floor, times.help, times.version].map(median);
  const c = commands();
  const pair = (a, b) => `${a.toFixed(0)} / ${b.toFixed(0)} ms = ${(a / b).toFixed(2)}×`;
  const withCa =
    EXTRA_CA === undefined
      ? []
      : [
          {
            label: '  with NODE_EXTRA_CA_CERTS as set here: node / --help / --version',
            value: `${median(times.floorCa).toFixed(0)} / ${median(times.helpCa).toFixed(0)} / ${median(times.versionCa).toFixed(0)} ms (${(median(times.helpCa) / median(times.floorCa)).toFixed(2)}× / ${(median(times.versionCa) / median(times.floorCa)).toFixed(2)}×)`,
          },
        ];
  return [
    { label: 'machine load (1, 5, 15 min) at the start', value: load },
    {
      label: 'bare `node -e 0` (the floor; no NODE_EXTRA_CA_CERTS on either side)',
      value: `${floor.toFixed(0)} ms`,
    },
    { label: 'axis --help', value: `${help.toFixed(0)} ms` },
    { label: 'axis --help ÷ floor', value: `${(help / floor).toFixed(2)}×`, target: '≤ 1.5×' },
    { label: 'axis --version ÷ floor', value: `${(version / floor).toFixed(2)}×`, target: '≤ 1.5×' },
    ...withCa,
    {
      label: `one-job run --no-score: bundle / one file per module (median of ${COMMAND_RUNS})`,
      value: pair(c.run, c.runFiles),
    },
    { label: 'validate: bundle / one file per module', value: pair(c.validate, c.validateFiles) },
  ];
};
