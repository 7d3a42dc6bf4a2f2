/**
 * Orphans: whatever a job's processes fork, detach (`setsid`) or disown (`nohup … &`) ends with the job,
 * in the PID-namespace mode (started by the helper, and by the util-linux chain) and in the process-group
 * fallback; after `kill -9` of AXIS the next run reaps
 * what was left (only because its owner is provably dead).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containment, statFields } from '../../../src/exec/contain.js';
import { checkLeaks, processesWith } from '../../helpers/leaks.js';
import { readJson, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { waitFor } from '../../unit/exec/helpers.js';
import { axis, buildDist, startAxis } from '../run/helpers.js';
import { shellProject, sleepToken } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const T = 90_000;
const MODES = [
  {
    mode: 'pid-namespace',
    chain: 'axis-contain',
    env: {},
    says: /containment: PID namespace (in a user namespace )?per process \(axis-contain, one exec/,
  },
  {
    // A helper that fails its self-test: the util-linux chain takes over, and -v says why.
    mode: 'pid-namespace',
    chain: 'util-linux',
    env: { AXIS_CONTAIN_HELPER: '/bin/false' },
    says: /\(util-linux unshare, dies with AXIS; axis-contain not used: \/bin\/false: self-test exit 1\)/,
  },
  {
    mode: 'process-group',
    chain: '',
    env: { AXIS_CONTAINMENT: 'process-group' },
    says: /containment: process groups/,
  },
] as const;
const nsAvailable = containment().mode === 'pid-namespace';

/** Agent and lifecycle scripts that leave `setsid` and `nohup` sleepers behind and exit at once. */
function forkingProject(tokens: string[]) {
  const [a, b, c, d] = tokens;
  const detach = (t: string | undefined) => `setsid sleep ${t} </dev/null >/dev/null 2>&1 &`;
  return shellProject(
    {
      forker: `cat >/dev/null; ${detach(a)} nohup sleep ${b} </dev/null >/dev/null 2>&1 & echo started`,
    },
    {
      fork: {
        setup: [{ action: 'run_script', command: detach(c) }],
        teardown: [{ action: 'run_script', command: `nohup sleep ${d} >/dev/null 2>&1 &` }],
      },
    },
  );
}

function latestDetail(dir: string, agent: string): Record<string, unknown> {
  const root = join(dir, '.axis/reports');
  const id = readdirSync(root).sort().at(-1)!;
  return readJson(join(root, id, 'scenarios/fork', `${agent}.json`));
}

describe.each(MODES)('containment: $mode $chain', ({ mode, env, says }) => {
  it.skipIf(mode === 'pid-namespace' && !nsAvailable)(
    'setsid and nohup sleepers of the agent, setup and teardown end with the job; -v names the mode',
    async () => {
      const tokens = [sleepToken(), sleepToken(), sleepToken(), sleepToken()];
      const dir = forkingProject(tokens);
      const r = await axis(['run', '--no-score', '-v'], dir, env);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toMatch(says);
      expect(latestDetail(dir, 'forker')).toMatchObject({ status: 'completed' });
      for (const t of tokens) expect(processesWith(t), `sleep ${t}`).toEqual([]);
    },
    T,
  );

  it.skipIf(mode === 'pid-namespace' && !nsAvailable)(
    'after kill -9 of AXIS the next run reaps its temp dir and anything of the job still alive',
    async () => {
      const token = sleepToken();
      const dir = shellProject(
        { hang: `cat >/dev/null; setsid sleep ${token} </dev/null >/dev/null 2>&1 & exec sleep 600` },
        { fork: {} },
      );
      // A private TMPDIR: any AXIS run elsewhere on the machine would (rightly) sweep the dead run's dir too.
      const tmp = tempDir('axis-sweep-tmp-');
      const runEnv = { ...env, TMPDIR: tmp };
      const first = startAxis(['run', '--no-score'], dir, runEnv);
      try {
        // The sleeper has left the job's session (setsid done), so killing the job's group misses it.
        const detached = () => processesWith(token).some((pid) => Number(statFields(pid)?.[3]) === pid);
        await waitFor(detached, 30_000);
      } finally {
        first.child.kill('SIGKILL');
      }
      await first.done;
      const ours = readdirSync(tmp).filter((n) => existsSync(join(tmp, n, 'work')));
      expect(ours).toHaveLength(1);
      if (mode === 'pid-namespace') {
        // The namespace dies with AXIS (parent-death signal): nothing of the job survives the kill.
        await waitFor(() => processesWith(token).length === 0, 5000);
      }
      // Without namespaces the detached sleeper survives until a later run sweeps it; any AXIS run on the
      // machine sweeps it (parallel test files run AXIS too), so it may already be gone here. That the sweep
      // kills such processes is proven in test/unit/exec/sweep.test.ts.
      const second = await axis(['run', '--no-score', '-v', '-s', 'nothing-*'], dir, runEnv);
      // Nothing matches the filter (exit 2), but the sweep runs first.
      expect(second.code).toBe(2);
      expect(second.stdout + second.stderr).toMatch(
        /start-up sweep: killed \d+ process\(es\) and removed 1 temp dir/,
      );
      expect(existsSync(join(tmp, ours[0]!))).toBe(false);
      // SIGKILL is delivered when the process next runs: a loaded machine may take a moment.
      await waitFor(() => processesWith(token).length === 0, 3000);
      expect(processesWith(token)).toEqual([]);
    },
    T,
  );
});
