/**
 * Under `settings.sandbox: "bwrap"` a judge agent (`judge.provider: "agent"`) runs in a temp workspace of
 * its own. It is AXIS's tool, not the agent under test: it must not start inside the finished job's
 * sandbox, whose private /tmp hides the judge's workspace (the judge then never ran, and every run of
 * the suite was `unscored`).
 */
import { chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapProblem } from '../../../src/exec/contain.js';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

/** A judge that answers from the prompt file in its workspace, as a judge agent must. */
const JUDGE = `#!/bin/sh
if grep -q 'AXIS judge: goal' AXIS_JUDGE_PROMPT.md; then
  echo '{"grades":[{"criterion_index":0,"score":9,"rationale":"graded"}]}'
else
  echo '{"audits":[],"necessity":{"score":1,"unnecessaryIds":[],"rationale":"needed"},"patterns":[]}'
fi
`;

describe('a judge agent under settings.sandbox "bwrap"', () => {
  it.skipIf(bwrapProblem() !== null)(
    'judges in its own workspace: the run is scored',
    async () => {
      const dir = makeProject({
        'judge.sh': JUDGE,
        'axis.config.json': {
          agents: [
            { agent: 'command', name: 'a', command: 'sh', args: ['-c', 'echo done > out.txt; echo done'] },
          ],
          settings: { sandbox: 'bwrap' },
          judge: { provider: 'agent', agent: { agent: 'command', name: 'judge', command: './judge.sh' } },
        },
        'scenarios/s.json': { name: 'S', prompt: 'go', judge: [{ check: 'the agent said done' }] },
      });
      chmodSync(join(dir, 'judge.sh'), 0o755);
      const out = await axis(['run'], dir);
      expect(out.code, out.stdout + out.stderr).toBe(0);
      const root = join(dir, '.axis/reports');
      const detail = readJson<{ score?: { status: string; reason?: string } }>(
        join(root, readdirSync(root)[0]!, 'scenarios/s/a.json'),
      );
      expect(detail.score?.status, detail.score?.reason).toBe('scored');
    },
    90_000,
  );
});
