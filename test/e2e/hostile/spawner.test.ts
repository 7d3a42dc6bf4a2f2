/**
 * The spawner process through `axis run`: it dies with AXIS (kill -9 included) and takes every job
 * process along; killed mid-run, the job in flight fails with the reason and the next job is forked by
 * AXIS itself, as `-v` says; `AXIS_SPAWNER=off` forces that from the start.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containment } from '../../../src/exec/contain.js';
import { checkLeaks, descendantsOf, processesWith } from '../../helpers/leaks.js';
import { readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { isAlive, waitFor } from '../../unit/exec/helpers.js';
import { axis, buildDist, startAxis } from '../run/helpers.js';
import { shellProject, sleepToken } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const T = 90_000;
// Each containment with the C spawner (dist/native/axis-spawner) and with the Node one (AXIS_SPAWNER=node).
const MODES = [
  { mode: 'pid-namespace', spawner: 'native', env: {} },
  { mode: 'process-group', spawner: 'native', env: { AXIS_CONTAINMENT: 'process-group' } },
  { mode: 'pid-namespace', spawner: 'node', env: { AXIS_SPAWNER: 'node' } },
  {
    mode: 'process-group',
    spawner: 'node',
    env: { AXIS_CONTAINMENT: 'process-group', AXIS_SPAWNER: 'node' },
  },
] as const;
const nsAvailable = containment().mode === 'pid-namespace';
const NATIVE = join(import.meta.dirname, '../../../dist/native/axis-spawner');

/** The spawner among `root`'s descendants (its command line names axis-spawner or spawner-main.js). */
function spawnerOf(root: number, kind: 'native' | 'node'): number | undefined {
  return descendantsOf(root).find((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return kind === 'native' ? cmdline.startsWith(NATIVE) : cmdline.includes('spawner-main.js');
    } catch {
      return false;
    }
  });
}

function detail(dir: string, scenario: string, agent: string): Record<string, unknown> {
  const root = join(dir, '.axis/reports');
  const id = readdirSync(root).sort().at(-1)!;
  return readJson(join(root, id, 'scenarios', scenario, `${agent}.json`));
}

describe.each(MODES)('$spawner spawner, containment $mode', ({ mode, spawner: kind, env }) => {
  it.skipIf(mode === 'pid-namespace' && !nsAvailable)(
    'kill -9 of AXIS: the spawner and every job process are gone at once',
    async () => {
      const token = sleepToken();
      // The agent's own process (the group leader) sleeps: nothing detached, so nothing for a sweep.
      const dir = shellProject({ hang: `cat >/dev/null; exec sleep ${token}` }, { wait: {} });
      const run = startAxis(['run', '--no-score'], dir, env);
      try {
        await waitFor(() => processesWith(token).length > 0, 30_000);
      } finally {
        const spawner = spawnerOf(run.child.pid!, kind);
        expect(spawner, run.output()).toBeGreaterThan(0);
        run.child.kill('SIGKILL');
        await run.done;
        expect(await waitFor(() => !isAlive(spawner!), 5000)).toBe(true);
      }
      expect(await waitFor(() => processesWith(token).length === 0, 5000)).toBe(true);
    },
    T,
  );

  it.skipIf(mode === 'pid-namespace' && !nsAvailable)(
    'spawner killed mid-run: the job in flight fails with the reason, the next one runs forked by AXIS',
    async () => {
      const token = sleepToken();
      const dir = shellProject(
        { first: `cat >/dev/null; exec sleep ${token}`, second: 'cat >/dev/null; echo done' },
        { crash: {} },
        { settings: { concurrency: 1 } },
      );
      const run = startAxis(['run', '--no-score', '-v'], dir, env);
      await waitFor(() => processesWith(token).length > 0, 30_000);
      const spawner = spawnerOf(run.child.pid!, kind);
      expect(spawner, run.output()).toBeGreaterThan(0);
      process.kill(spawner!, 'SIGKILL');
      const r = await run.done;
      const out = r.stdout + r.stderr;
      expect(out).toMatch(/spawner: job processes are forked by a small spawner process/);
      // Started before the run's log existed (while `run` loads), and still named in it: the one killed.
      expect(out).toContain(`spawner: started (pid ${spawner})`);
      expect(out).toMatch(
        /spawner: it exited \(signal SIGKILL\); 1 process\(es\) in flight failed; job processes now start directly from the AXIS process/,
      );
      const [first, second] = ['first', 'second'].map((a) => detail(dir, 'crash', a));
      expect(first, out).toMatchObject({ status: 'failed' });
      expect(JSON.stringify(first)).toMatch(
        /AXIS's spawner process \(pid \d+\) failed: it exited \(signal SIGKILL\)/,
      );
      expect(second, out).toMatchObject({ status: 'completed' });
      expect(processesWith(token)).toEqual([]);
    },
    T,
  );
});

it(
  'AXIS_SPAWNER=off: -v says so and the run works without a spawner',
  async () => {
    const dir = shellProject({ plain: 'cat >/dev/null; echo hi' }, { one: {} });
    const r = await axis(['run', '--no-score', '-v'], dir, { AXIS_SPAWNER: 'off' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(
      /spawner: off \(AXIS_SPAWNER=off\); job processes are forked by the AXIS process itself/,
    );
    expect(detail(dir, 'one', 'plain')).toMatchObject({ status: 'completed' });
  },
  T,
);
