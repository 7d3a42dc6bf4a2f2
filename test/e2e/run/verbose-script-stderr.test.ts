/**
 * `-v` logs setup/teardown output (docs/cli.md): it showed their stdout only, so a script that warned on
 * stderr and exited 0 left its warning nowhere, neither in the -v lines nor in the report.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from './helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

it("logs the scripts' stderr lines under -v, as it does their stdout", async () => {
  const script = (phase: string) => ({
    action: 'run_script',
    command: `echo ${phase}-out; printf '${phase}-warn 1\\n${phase}-warn' >&2`,
  });
  const dir = makeProject({
    'scenarios/s.json': {
      name: 'S',
      prompt: 'p',
      checks: [{ result_matches: 'ok' }],
      setup: [script('setup')],
      teardown: [script('teardown')],
    },
  });
  const agent = join(dir, 'ok.sh');
  writeFileSync(agent, `#!/bin/sh\necho '{"type":"result","text":"ok"}'\n`);
  chmodSync(agent, 0o755);
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'c', command: agent, output: 'ndjson' }],
      beforeAll: [script('beforeAll')],
    }),
  );
  const r = await axis(['run', '--no-score', '-v'], dir);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  for (const phase of ['beforeAll', 'setup', 'teardown']) {
    expect(r.stderr).toContain(`[${phase}] ${phase}-out`);
    expect(r.stderr).toContain(`[${phase} stderr] ${phase}-warn 1\n`);
    // The last line, without its newline, is logged when the script ends.
    expect(r.stderr).toContain(`[${phase} stderr] ${phase}-warn\n`);
  }
}, 60_000);
