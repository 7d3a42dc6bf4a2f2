// axis-contain checks its parent against AXIS_CONTAIN_PARENT (native/axis-contain.c): whoever forks it
// must name itself there, the spawner for jobs it starts, AXIS for those it starts directly. A wrapper
// in place of the helper (AXIS_CONTAIN_HELPER) logs what each start was given and its real parent,
// then execs the real helper.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containment } from '../../../src/exec/contain.js';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { buildDist, ROOT, startAxis } from '../run/helpers.js';
import { shellProject } from './runtime-helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

const helperInUse = containment().helper !== undefined;

describe.runIf(helperInUse)('the containment helper is told its parent', () => {
  for (const [how, env] of [
    ['through the spawner', {}],
    ['through the Node spawner (AXIS_SPAWNER=node)', { AXIS_SPAWNER: 'node' }],
    ['started by AXIS itself (AXIS_SPAWNER=off)', { AXIS_SPAWNER: 'off' }],
  ] as const) {
    it(`each job process, ${how}: AXIS_CONTAIN_PARENT is the pid that forked the helper`, async () => {
      const bin = tempDir('axis-contain-wrapper-');
      const log = join(bin, 'log');
      const wrapper = join(bin, 'axis-contain');
      writeFileSync(
        wrapper,
        `#!/bin/sh\necho "\${AXIS_CONTAIN_PARENT-unset} $PPID" >> '${log}'\n` +
          `exec '${join(ROOT, 'dist/native/axis-contain')}' "$@"\n`,
      );
      chmodSync(wrapper, 0o755);
      const dir = shellProject(
        { a: 'cat >/dev/null; echo "[${AXIS_CONTAIN_PARENT-unset}]"' },
        { one: {}, two: {} },
      );
      const run = startAxis(['run', '--no-score', '--json'], dir, { AXIS_CONTAIN_HELPER: wrapper, ...env });
      const r = await run.done;
      expect(r.code, run.output()).toBe(0);
      const starts = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' '));
      // The self-tests run with spawnSync and name no parent; every job start names the one it has.
      const jobs = starts.filter(([given]) => given !== 'unset');
      expect(jobs.length).toBeGreaterThanOrEqual(2);
      for (const [given, parent] of jobs) expect(given).toBe(parent);
      const forker = Number(jobs[0]![1]);
      if ('AXIS_SPAWNER' in env && env.AXIS_SPAWNER === 'off') expect(forker).toBe(run.child.pid);
      else expect(forker).not.toBe(run.child.pid);
      // The agent never sees the variable (the helper removes it).
      const { reportId } = JSON.parse(r.stdout) as { reportId: string };
      const detail = readFileSync(join(dir, '.axis/reports', reportId, 'scenarios/one/a.json'), 'utf8');
      expect(detail).toContain('[unset]');
    });
  }
});
