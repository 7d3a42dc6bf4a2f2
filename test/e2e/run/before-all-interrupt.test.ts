/**
 * Ctrl-C while `beforeAll` runs: no job has run, so no report is written (docs/running.md). The notice
 * said "finished results are kept and the report is still written", and no report came.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../unit/exec/helpers.js';
import { AGENTS, makeProject, nodeAgent, removeTempDirs, scenario } from '../../unit/run/helpers.js';
import { buildDist, startAxis } from './helpers.js';

beforeAll(buildDist, 180_000);
afterAll(removeTempDirs);

it('says that no job ran and no report is written', async () => {
  const dir = makeProject({ 'echo.mjs': AGENTS.echo });
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(join(dir, 'scenarios/a.json'), JSON.stringify(scenario('a')));
  const config = {
    scenarios: './scenarios',
    agents: [nodeAgent('fast', join(dir, 'echo.mjs'))],
    beforeAll: [{ action: 'run_script', command: 'echo started > before-all.txt; sleep 300' }],
  };
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config));
  const proc = startAxis(['run', '--no-score'], dir);
  const marker = join(dir, 'before-all.txt');
  expect(await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8') !== '', 30_000)).toBe(true);
  proc.child.kill('SIGINT');
  const r = await proc.done;
  expect(r.code, proc.output()).toBe(130);
  expect(proc.output()).toContain(
    'SIGINT received before any job started (beforeAll, preparation): no job has run, so no report is written.',
  );
  expect(proc.output()).not.toContain('the report is still written');
}, 90_000);
