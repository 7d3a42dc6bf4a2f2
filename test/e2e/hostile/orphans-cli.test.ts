/**
 * Orphans through real agent CLIs: Claude Code and Gemini CLI, against the simulator, run a shell tool
 * call that starts `nohup sleep … &`. The sleeper must not outlive the job.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLeaks, processesWith } from '../../helpers/leaks.js';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
import { sleepToken } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

interface Detail {
  status: string;
  transcript: { events: { kind: string; name?: string; input?: unknown }[] };
}

const CASES = ['claude-code', 'gemini'].flatMap((agent) => [
  { agent, mode: 'pid-namespace', env: {} },
  { agent, mode: 'process-group', env: { AXIS_CONTAINMENT: 'process-group' } },
]);

describe.each(CASES)('$agent ($mode)', ({ agent, env }) => {
  it('a `nohup sleep &` started by its shell tool ends with the job', async () => {
    const token = sleepToken();
    const dir = makeProject({
      'axis.config.json': {
        scenarios: './scenarios',
        agents: [agent],
        settings: { simulate: true, limits: { scenario: { time_minutes: 3 } } },
      },
      'scenarios/bg.json': { name: 'background', prompt: 'Start a sleeper.', judge: [{ check: 'it ran' }] },
      'tapes/bg.json': {
        turns: [
          { text: 'Starting it.', tools: [{ shell: `nohup sleep ${token} >/dev/null 2>&1 &` }] },
          { text: 'Started.' },
        ],
      },
    });
    const r = await axis(['run', '--no-score'], dir, env);
    const root = join(dir, '.axis/reports');
    const id = readdirSync(root)[0]!;
    const detail = readJson<Detail>(join(root, id, 'scenarios', `bg/${agent}.json`));
    expect(detail.status, r.stdout + r.stderr).toBe('completed');
    // The tool call really ran the command (else the test would prove nothing).
    expect(JSON.stringify(detail.transcript.events.filter((e) => e.kind === 'tool_call'))).toContain(token);
    expect(processesWith(token)).toEqual([]);
  }, 240_000);
});
