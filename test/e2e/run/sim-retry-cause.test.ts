/**
 * The retry cause of a job whose provider keeps answering HTTP 500 (the simulator's `status` fault), with
 * the real Gemini CLI and Codex: the provider answered, so the cause is a server error, never "API
 * unreachable (no response)", and the retry count is what the simulator served minus the first call.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from './helpers.js';

const T = 180_000;

interface Detail {
  status: string;
  reason: string;
  errorClass: string;
  simulator: { requests: number };
}

let dir = '';
let stdout = '';

beforeAll(async () => {
  buildDist();
  dir = makeProject({
    'axis.config.json': {
      scenarios: './scenarios',
      agents: ['gemini', 'codex'],
      settings: { simulate: true, concurrency: 2, limits: { scenario: { time_minutes: 2 } } },
    },
    'scenarios/hello.json': { name: 'hello', prompt: 'Say hello.', judge: [{ check: 'said hello' }] },
    'tapes/hello.json': { turns: [{ text: 'hello', fault: { status: 500 } }] },
  });
  const r = await axis(['run', '--no-score'], dir);
  expect(r.code, r.stderr).toBe(1);
  stdout = r.stdout;
}, T);
afterAll(() => removeTempDirs());

function detail(agent: string): Detail {
  const [id] = readdirSync(join(dir, '.axis/reports'));
  return readJson<Detail>(join(dir, '.axis/reports', id!, 'scenarios/hello', `${agent}.json`));
}

it('Gemini CLI: its last "Attempt n failed … Max attempts reached" is no retry and keeps the 500', () => {
  const d = detail('gemini');
  expect(d.status).toBe('failed');
  expect(d.errorClass).toBe('api_error');
  const retries = d.simulator.requests - 1;
  expect(d.reason).toContain(`API server error (500) after ${retries} retries`);
  expect(stdout).not.toContain('unreachable');
});

it('Codex: "Reconnecting… n/m (high demand)" after an HTTP 500 is a server error, not no response', () => {
  const d = detail('codex');
  expect(d.status).toBe('failed');
  expect(d.errorClass).toBe('api_error');
  expect(d.reason).toMatch(/while the agent was retrying: API server error after 2 retries$/);
});
