import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, waitFor } from '../../unit/exec/helpers.js';
import {
  AGENTS,
  makeProject,
  nodeAgent,
  readJson,
  removeTempDirs,
  scenario,
} from '../../unit/run/helpers.js';
import { axis, buildDist, startAxis } from './helpers.js';

const T = 90_000;

beforeAll(buildDist, 180_000);
afterAll(removeTempDirs);

describe('axis run stopped while afterAll runs', () => {
  it(
    'a second Ctrl-C during afterAll: report.json says afterAll did not finish, and axis reports shows it',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo });
      mkdirSync(join(dir, 'scenarios'));
      writeFileSync(join(dir, 'scenarios/a.json'), JSON.stringify(scenario('a')));
      // Ignores SIGTERM: only the second Ctrl-C's SIGKILL ends it.
      const hook = `trap '' TERM; sleep 300 & echo $! > after-all.pid; wait`;
      const config = {
        scenarios: './scenarios',
        agents: [nodeAgent('fast', join(dir, 'echo.mjs'))],
        afterAll: [{ action: 'run_script', command: hook }],
      };
      writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config));
      const pidFile = join(dir, 'after-all.pid');

      const proc = startAxis(['run', '--no-score'], dir, { AXIS_CONTAINMENT: 'process-group' });
      expect(
        await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes('\n'), 30_000),
      ).toBe(true);
      const sleeper = Number(readFileSync(pidFile, 'utf8'));
      proc.child.kill('SIGINT');
      expect(await waitFor(() => proc.output().includes('SIGINT received'), 10_000)).toBe(true);
      proc.child.kill('SIGINT');
      const r = await proc.done;

      expect(r.code, proc.output()).toBe(130);
      expect(await waitFor(() => !isAlive(sleeper), 10_000)).toBe(true);
      const [id] = readdirSync(join(dir, '.axis/reports'));
      const report = readJson<{ hooks?: { afterAll?: { ok: boolean; error?: string } } }>(
        join(dir, '.axis/reports', id!, 'report.json'),
      );
      expect(report.hooks?.afterAll?.ok).toBe(false);
      expect(report.hooks?.afterAll?.error).toContain('AXIS exited while afterAll ran');
      const shown = await axis(['reports', id!], dir);
      expect(shown.stdout).toMatch(/afterAll +failed: .*AXIS exited while afterAll ran/);
    },
    T,
  );
});
