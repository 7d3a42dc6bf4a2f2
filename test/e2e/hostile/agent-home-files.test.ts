/**
 * Files in the job's HOME that AXIS reads after the agent CLI exits (Gemini CLI's and Qwen Code's chat
 * records, for shell exit codes) are the agent's to write: a FIFO there must not stall the job until its
 * time limit, nor a link to /dev/zero be read without end.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RELAUNCH_ENV } from '../../helpers/fast-start.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { buildDist } from '../run/helpers.js';
import { axis } from './helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const CASES = [
  { agent: 'gemini', chats: '~/.gemini/tmp/axis-probe/chats' },
  { agent: 'qwen-code', chats: '~/.qwen/projects/axis-probe/chats' },
];

interface Detail {
  status: string;
  reason?: string;
  durationMs: number;
  transcript: { events: { kind: string; input?: unknown; isError?: boolean }[] };
}

describe.each(CASES)('$agent', ({ agent, chats }) => {
  it('a FIFO and a link to /dev/zero among its chat records neither stall nor flood the job', async () => {
    const plant = `mkdir -p ${chats} && mkfifo ${chats}/a.jsonl && ln -s /dev/zero ${chats}/b.jsonl`;
    const dir = makeProject({
      'axis.config.json': {
        scenarios: './scenarios',
        agents: [{ agent, env: NO_RELAUNCH_ENV }],
        // The job may take its whole time limit only if AXIS waits on the FIFO.
        settings: { simulate: true, limits: { scenario: { time_minutes: 1 } } },
      },
      'scenarios/chats.json': { name: 'chats', prompt: 'Plant them.', judge: [{ check: 'it ran' }] },
      'tapes/chats.json': {
        turns: [{ text: 'Planting.', tools: [{ shell: plant }] }, { text: 'Planted.' }],
      },
    });
    // Before the fix the job sat out its time limit, then AXIS never exited (a read stuck on the FIFO).
    const r = await axis(['run', '--no-score'], dir, { budgetMs: 150_000 });
    expect(r.hung, r.stdout + r.stderr).toBe(false);
    const root = join(dir, '.axis/reports');
    const id = readdirSync(root)[0]!;
    const detail = readJson<Detail>(join(root, id, 'scenarios', `chats/${agent}.json`));
    expect(detail.status, `${detail.reason ?? ''}\n${r.stdout}${r.stderr}`).toBe('completed');
    expect(detail.durationMs).toBeLessThan(55_000);
    // The tool call really planted them (else the test would prove nothing).
    const events = detail.transcript.events;
    expect(JSON.stringify(events.filter((e) => e.kind === 'tool_call'))).toContain('mkfifo');
    expect(events.filter((e) => e.kind === 'tool_result').map((e) => e.isError)).toEqual([false]);
  }, 240_000);
});
