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
import { buildDist, startAxis } from './helpers.js';

const T = 90_000;

// Writes its pid and workspace, then sleeps and ignores SIGTERM: only the group's SIGKILL ends it.
const SLOW = `import { renameSync, writeFileSync } from 'node:fs';
process.on('SIGTERM', () => {});
writeFileSync(process.argv[2] + '.tmp', JSON.stringify({ pid: process.pid, cwd: process.cwd() }));
renameSync(process.argv[2] + '.tmp', process.argv[2]);
setInterval(() => {}, 1000);
`;

beforeAll(buildDist, 180_000);
afterAll(removeTempDirs);

describe('axis run and a closed terminal (SIGHUP)', () => {
  it(
    'SIGHUP stops the run as SIGTERM does: report incomplete with the cancelled jobs, afterAll runs, nothing left, exit 129',
    async () => {
      const dir = makeProject({ 'echo.mjs': AGENTS.echo, 'slow.mjs': SLOW });
      const pidFile = join(dir, 'pids.json');
      mkdirSync(join(dir, 'scenarios'));
      writeFileSync(join(dir, 'scenarios/a.json'), JSON.stringify(scenario('a')));
      writeFileSync(join(dir, 'scenarios/b.json'), JSON.stringify(scenario('b')));
      const config = {
        scenarios: './scenarios',
        agents: [
          nodeAgent('fast', join(dir, 'echo.mjs')),
          nodeAgent('slow', join(dir, 'slow.mjs'), { args: [join(dir, 'slow.mjs'), pidFile] }),
        ],
        settings: { concurrency: 1 },
        afterAll: [{ action: 'run_script', command: 'echo done > after-all.txt' }],
      };
      writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config));

      // The agent's own pid means something only outside a PID namespace: process-group mode.
      const proc = startAxis(['run', '--no-score'], dir, { AXIS_CONTAINMENT: 'process-group' });
      expect(await waitFor(() => existsSync(pidFile), 30_000), proc.output()).toBe(true);
      const job = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; cwd: string };
      proc.child.kill('SIGHUP');
      const r = await proc.done;

      expect(r.code, proc.output()).toBe(129);
      expect(r.stderr).toContain('SIGHUP received: stopping running jobs');
      expect(await waitFor(() => !isAlive(job.pid), 10_000)).toBe(true);
      expect(existsSync(job.cwd)).toBe(false);
      expect(existsSync(join(dir, 'after-all.txt'))).toBe(true);

      const [id] = readdirSync(join(dir, '.axis/reports'));
      const report = readJson<{
        incomplete: boolean;
        incompleteReason: string;
        results: { scenarioKey: string; agentName: string; status: string }[];
      }>(join(dir, '.axis/reports', id!, 'report.json'));
      expect(report.incomplete).toBe(true);
      expect(report.incompleteReason).toBe('Run cancelled by SIGHUP');
      expect(report.results.map((x) => `${x.scenarioKey}/${x.agentName}:${x.status}`)).toEqual([
        'a/fast:completed',
        'a/slow:cancelled',
        'b/fast:cancelled',
        'b/slow:cancelled',
      ]);
    },
    T,
  );
});
