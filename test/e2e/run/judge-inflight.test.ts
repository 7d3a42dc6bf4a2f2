/**
 * Many judge requests in flight at once, as a run of many short jobs at a high concurrency makes: each
 * waits on the run's one judging signal, and past ten listeners Node printed a leak warning
 * (MaxListenersExceededWarning) on stderr in the middle of a healthy CI run.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { startFakeJudge } from './fake-judge.js';
import { axis, buildDist, TOY_AGENT } from './helpers.js';

const T = 60_000;
const SCENARIOS = 12;
/** The judge holds its answers until this many requests wait at once (or HOLD_MS passed). */
const TOGETHER = 12;
const HOLD_MS = 5000;

let server: Server;
let url = '';
let inFlight = 0;
let mostInFlight = 0;
const held: (() => void)[] = [];
beforeAll(async () => {
  buildDist();
  ({ server, url } = await startFakeJudge((send) => {
    const answer = () => {
      inFlight--;
      send();
    };
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    held.push(answer);
    if (held.length >= TOGETHER) for (const s of held.splice(0)) s();
    else setTimeout(() => held.splice(held.indexOf(answer), 1).forEach((s) => s()), HOLD_MS);
  }));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterAll(removeTempDirs);

describe('many judge requests in flight', () => {
  it(
    'a scored run with a dozen judge requests waiting at once prints no warning',
    async () => {
      const files: Record<string, object> = {
        'axis.config.json': {
          agents: [TOY_AGENT],
          judge: { provider: 'anthropic', base_url: url, api_key_env: 'JUDGE_KEY', max_retries: 0 },
          settings: { concurrency: 15 },
        },
      };
      for (let i = 0; i < SCENARIOS; i++)
        files[`scenarios/s${i}.json`] = {
          name: `s${i}`,
          prompt: 'Write out.txt',
          judge: [{ check: 'out.txt' }],
        };
      const dir = makeProject(files);
      const r = await axis(['run'], dir, { JUDGE_KEY: 'judge-key-0123456789' });
      expect(r.stdout).toContain(`${SCENARIOS} completed`);
      expect(r.stdout).toContain(`(${SCENARIOS} scored`);
      // The judge did see the requests together: without that, the run could not have warned.
      expect(mostInFlight).toBeGreaterThanOrEqual(TOGETHER);
      expect(r.stderr).not.toMatch(/Warning|MaxListeners/);
      expect(r.code).toBe(0);
    },
    T,
  );
});
