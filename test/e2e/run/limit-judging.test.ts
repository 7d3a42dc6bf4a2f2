/**
 * A run limit stops agents; what it does to the judging of runs that already finished depends on what it
 * measures. The token limit counts the agents' tokens, not the judge's: a run that finished before it was
 * reached is still judged, whatever the judge's speed (it was cancelled, unscored, when its judge answered
 * later than the next job crossed the limit). The time limit is time for everything: judging stops too.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { startFakeJudge } from './fake-judge.js';
import { axis, buildDist, TOY_AGENT } from './helpers.js';

const T = 60_000;
/** The judge answers this long after each request: long after the next toy job has run. */
const JUDGE_DELAY_MS = 1500;

let server: Server;
let url = '';
beforeAll(async () => {
  buildDist();
  ({ server, url } = await startFakeJudge((send) => setTimeout(send, JUDGE_DELAY_MS)));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterAll(removeTempDirs);

/** The toy agent (125 tokens a job) on scenarios a, b, c, one job at a time, under `run` limits. */
function project(run: Record<string, number>): string {
  const scenario = (name: string) => ({ name, prompt: 'Write out.txt', judge: [{ check: 'out.txt' }] });
  return makeProject({
    'axis.config.json': {
      agents: [TOY_AGENT],
      judge: { provider: 'anthropic', base_url: url, api_key_env: 'JUDGE_KEY', max_retries: 0 },
      settings: { concurrency: 1, limits: { run } },
    },
    'scenarios/a.json': scenario('a'),
    'scenarios/b.json': scenario('b'),
    'scenarios/c.json': scenario('c'),
  });
}

interface Doc {
  incompleteReason?: string;
  results: { scenarioKey: string; status: string; score?: { axisScore?: number; reason?: string } }[];
}

async function runIn(dir: string): Promise<{ code: number | null; doc: Doc }> {
  const r = await axis(['run', '--json'], dir, { JUDGE_KEY: 'judge-key-0123456789' });
  return { code: r.code, doc: JSON.parse(r.stdout) as Doc };
}

describe('judging when a run limit stops the run', () => {
  it(
    'the token limit: the run that finished first is still judged though its judge answers after the limit',
    async () => {
      const { code, doc } = await runIn(project({ tokens: 200 }));
      expect(code).toBe(1);
      expect(doc.incompleteReason).toContain('Overall token limit reached (200 tokens)');
      const a = doc.results.find((r) => r.scenarioKey === 'a');
      expect(a?.status, JSON.stringify(a)).toBe('completed');
      expect(a?.score?.reason, JSON.stringify(a?.score)).toBeUndefined();
      expect(a?.score?.axisScore, JSON.stringify(a?.score)).toEqual(expect.any(Number));
      expect(doc.results.find((r) => r.scenarioKey === 'c')?.status).toBe('cancelled');
    },
    T,
  );

  it(
    'the time limit: judging still under way when the time is up is cancelled, and says so',
    async () => {
      // 0.02 minutes: the three toy jobs finish well inside it, their judges (1.5 s) do not.
      const { code, doc } = await runIn(project({ time_minutes: 0.02 }));
      expect(code).toBe(1);
      expect(doc.incompleteReason).toContain('Overall time limit reached');
      const a = doc.results.find((r) => r.scenarioKey === 'a');
      expect(a?.status, JSON.stringify(a)).toBe('completed');
      expect(a?.score?.reason, JSON.stringify(a?.score)).toContain('judge call cancelled');
    },
    T,
  );
});
