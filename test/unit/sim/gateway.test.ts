import { spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createAnthropicJudge } from '../../../src/scoring/judges/anthropic.js';
import { startSimulator, type Tape } from '../../../src/sim/index.js';
import { rawPost } from './helpers.js';

const judgeTape = (score: number): Tape => ({
  turns: [],
  judge: [
    { match: 'grade', answer: { score } },
    { match: 'flaky', fault: { status: 503, times: 1 }, answer: 1 },
  ],
});
const retry = { maxRetries: 2, timeoutMs: 5_000, baseDelayMs: 1 };
const judgeFor = (baseUrl: string) =>
  createAnthropicJudge({ model: 'm', baseUrl, apiKey: 'k', retry, via: 'simulator', cacheId: null });
const ask = (baseUrl: string, prompt: string) =>
  judgeFor(baseUrl).complete({ system: 'sys', messages: [{ role: 'user', content: prompt }] });

describe('the judge gateway (localUrl)', () => {
  it('reaches the same simulator as its own port: answers, faults and the request log', async () => {
    const a = await startSimulator({ tape: judgeTape(7) });
    const b = await startSimulator({ tape: judgeTape(9) });
    try {
      const [urlA, urlB] = [await a.localUrl(), await b.localUrl()];
      expect(urlA).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sim\/\d+$/);
      expect(new URL(urlA).port).toBe(new URL(urlB).port);
      expect(new URL(urlA).port).not.toBe(String(a.port));
      expect((await ask(urlA, 'please grade')).text).toBe('{"score":7}');
      expect((await ask(urlB, 'please grade')).text).toBe('{"score":9}');
      // The tape's fault is the simulator's: a 503 once, retried by the judge client.
      const flaky = await ask(urlA, 'flaky one');
      expect(flaky.attempts).toBe(2);
      expect((await ask(a.url, 'please grade')).text).toBe('{"score":7}');
      expect(a.requests.map((r) => [r.path, r.status, r.answer])).toEqual([
        ['/v1/messages', 200, { kind: 'judge', judge: 0 }],
        ['/v1/messages', 503, { kind: 'judge', judge: 1, fault: 'status 503' }],
        ['/v1/messages', 200, { kind: 'judge', judge: 1 }],
        ['/v1/messages', 200, { kind: 'judge', judge: 0 }],
      ]);
      expect(b.requests).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps one connection for the questions of many simulators, one after another', async () => {
    const sockets = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const sim = await startSimulator({ tape: judgeTape(i) });
      const url = await sim.localUrl();
      const seen = await new Promise<string>((resolve, reject) => {
        const body = JSON.stringify({
          model: 'm',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'grade' }],
        });
        const req = request(
          `${url}/v1/messages`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, agent: keepAlive },
          (res) => {
            res.resume();
            res.on('end', () => resolve(`${req.socket?.localPort}`));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      sockets.add(seen);
      await sim.close();
    }
    expect(sockets.size).toBe(1);
  });

  it('answers 404 for a simulator that was closed, and never for another one', async () => {
    const sim = await startSimulator({ tape: judgeTape(1) });
    const other = await startSimulator({ tape: judgeTape(2) });
    try {
      const url = await sim.localUrl();
      await other.localUrl();
      await sim.close();
      const res = await rawPost(`${url}/v1/messages`, { model: 'm', messages: [] });
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text).error.message).toMatch(/no simulator is mounted at \/sim\/\d+/);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('holds nothing open that keeps the process alive once the simulator is closed', () => {
    // A fresh process (the built modules), so nothing of other tests is counted.
    const dist = (f: string) => JSON.stringify(new URL(`../../../dist/${f}`, import.meta.url).pathname);
    const script = `
      const { startSimulator } = await import(${dist('sim/index.js')});
      const { createAnthropicJudge } = await import(${dist('scoring/judges/anthropic.js')});
      const sim = await startSimulator({ tape: { turns: [], judge: [{ answer: { score: 4 } }] } });
      const judge = createAnthropicJudge({ model: 'm', baseUrl: await sim.localUrl(), apiKey: 'k',
        retry: { maxRetries: 0, timeoutMs: 5000 }, via: 'simulator', cacheId: null });
      const reply = await judge.complete({ system: 's', messages: [{ role: 'user', content: 'x' }] });
      await sim.close();
      // A closed handle leaves the list on the next turn of the loop.
      await new Promise((r) => setTimeout(r, 50));
      console.log(JSON.stringify({ text: reply.text, open: process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP')) }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ text: '{"score":4}', open: [] });
    expect(run.status).toBe(0);
  });
});

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
