import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { JudgeCache } from '../../../../src/scoring/cache.js';
import { askJudge } from '../../../../src/scoring/judges/ask.js';
import { createAnthropicJudge } from '../../../../src/scoring/judges/anthropic.js';
import { goalSpec } from '../../../../src/scoring/judges/schemas.js';
import { anthropicReply, lastUserText, startServer, type TestServer } from './server.js';

let server: TestServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const caches: JudgeCache[] = [];
// Closed first: an answer still waiting for its write would otherwise be written after the folder is
// removed (by its timer, or when the process exits), making the folder again in the temp dir.
afterAll(() => {
  for (const c of caches) c.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tmpCache = () => {
  const dir = mkdtempSync(join(tmpdir(), 'axis-judge-cache-'));
  dirs.push(dir);
  const cache = new JudgeCache(dir);
  caches.push(cache);
  return cache;
};
const GOOD = '{"grades":[{"criterion_index":0,"score":7,"rationale":"mostly"}]}';
const judgeFor = (url: string, model = 'claude-sonnet-4-5') =>
  createAnthropicJudge({
    model,
    baseUrl: url,
    apiKey: 'k',
    retry: { maxRetries: 1, timeoutMs: 5_000, baseDelayMs: 1 },
    cacheId: `anthropic|${model}|${url}`,
  });

describe('askJudge', () => {
  it('repairs a garbage answer once, showing the judge its answer and the problem', async () => {
    server = await startServer((_req, n) => anthropicReply(n === 1 ? 'I think it went well!' : GOOD));
    const res = await askJudge({
      client: judgeFor(server.url),
      cache: new JudgeCache(null),
      spec: goalSpec([0]),
      system: 's',
      prompt: 'grade it',
    });
    expect(res.value).toEqual({ grades: [{ criterion_index: 0, score: 7, rationale: 'mostly' }] });
    expect(res.record).toMatchObject({
      status: 'ok',
      calls: 2,
      requests: 2,
      repaired: true,
      tokens: { input: 200, output: 40 },
    });
    const second = server.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second[0]!.content).toBe('grade it');
    expect(second[1]!.content).toBe('I think it went well!');
    expect(lastUserText(server.requests[1]!)).toMatch(
      /^Your answer could not be used: the answer contains no JSON object\./,
    );
    expect(res.record.inputChars).toBe(
      1 + 'grade it'.length + 1 + second.reduce((n, m) => n + m.content.length, 0),
    );
  });

  it('fails after a second invalid answer, with both the client and the problem named', async () => {
    server = await startServer(() => anthropicReply('{"grades":[{"criterion_index":0,"score":"high"}]}'));
    const res = await askJudge({
      client: judgeFor(server.url),
      cache: new JudgeCache(null),
      spec: goalSpec([0]),
      system: 's',
      prompt: 'p',
    });
    expect(res.value).toBeUndefined();
    expect(res.record.status).toBe('failed');
    expect(res.record.error).toMatch(
      /^anthropic claude-sonnet-4-5: the answer was invalid twice \(grades\[0\]\.score: /,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('asks again for missing grades and keeps an answer that stays incomplete, saying so', async () => {
    server = await startServer(() => anthropicReply('{"grades":[{"criterion_index":0,"score":5}]}'));
    const res = await askJudge({
      client: judgeFor(server.url),
      cache: new JudgeCache(null),
      spec: goalSpec([0, 1]),
      system: 's',
      prompt: 'p',
    });
    expect(res.value?.grades).toHaveLength(1);
    expect(res.record.incomplete).toEqual(['missing entries for criterion_index 1']);
    expect(lastUserText(server.requests[1]!)).toContain('missing entries for criterion_index 1');
  });

  it('reports a transport failure after retries as a failed record', async () => {
    server = await startServer(() => ({ status: 529, body: { error: { message: 'Overloaded' } } }));
    const res = await askJudge({
      client: judgeFor(server.url),
      cache: new JudgeCache(null),
      spec: goalSpec([0]),
      system: 's',
      prompt: 'p',
    });
    expect(res.record).toMatchObject({
      status: 'failed',
      calls: 1,
      requests: 2,
      error: 'anthropic claude-sonnet-4-5: HTTP 529: Overloaded (2 attempts)',
    });
  });
});

describe('judge cache', () => {
  it('a second identical question is answered from the cache; a changed prompt or model is not', async () => {
    server = await startServer(() => anthropicReply(GOOD));
    const cache = tmpCache();
    const ask = (prompt: string, model?: string) =>
      askJudge({ client: judgeFor(server!.url, model), cache, spec: goalSpec([0]), system: 's', prompt });
    const first = await ask('p');
    expect(first.record.status).toBe('ok');
    // One answer: one line of this instance's pack file, once written.
    cache.flush();
    const packs = readdirSync(cache.dir!).filter((f) => f.endsWith('.pack'));
    expect(packs).toHaveLength(1);
    expect(readFileSync(join(cache.dir!, packs[0]!), 'utf8').trimEnd().split('\n')).toHaveLength(1);

    const hit = await ask('p');
    expect(hit.record).toMatchObject({
      status: 'cached',
      calls: 0,
      requests: 0,
      tokens: { input: 0, output: 0 },
    });
    expect(hit.value).toEqual(first.value);
    expect(server.requests).toHaveLength(1);
    // A later process (a new instance) finds it too.
    const later = await askJudge({
      client: judgeFor(server.url),
      cache: new JudgeCache(cache.dir),
      spec: goalSpec([0]),
      system: 's',
      prompt: 'p',
    });
    expect(later.record.status).toBe('cached');
    expect(server.requests).toHaveLength(1);

    expect((await ask('p2')).record.status).toBe('ok');
    expect((await ask('p', 'claude-haiku-4-5')).record.status).toBe('ok');
    expect(server.requests).toHaveLength(3);
  });

  it('a disabled cache (--no-cache) and a client without cache id always ask', async () => {
    server = await startServer(() => anthropicReply(GOOD));
    const cache = tmpCache();
    await askJudge({ client: judgeFor(server.url), cache, spec: goalSpec([0]), system: 's', prompt: 'p' });
    await askJudge({
      client: judgeFor(server.url),
      cache: new JudgeCache(null),
      spec: goalSpec([0]),
      system: 's',
      prompt: 'p',
    });
    const uncached = { ...judgeFor(server.url), cacheId: null };
    await askJudge({ client: uncached, cache, spec: goalSpec([0]), system: 's', prompt: 'p' });
    expect(server.requests).toHaveLength(3);
  });

  it('stores only validated answers: a garbage-then-repair exchange caches the repaired answer', async () => {
    server = await startServer((_req, n) => anthropicReply(n === 1 ? 'nope' : GOOD));
    const cache = tmpCache();
    await askJudge({ client: judgeFor(server.url), cache, spec: goalSpec([0]), system: 's', prompt: 'p' });
    const hit = await askJudge({
      client: judgeFor(server.url),
      cache,
      spec: goalSpec([0]),
      system: 's',
      prompt: 'p',
    });
    expect(hit.record.status).toBe('cached');
    expect(hit.value?.grades[0]?.score).toBe(7);
    expect(server.requests).toHaveLength(2);
  });

  it('keys differ by every part and ignore nothing', () => {
    const c = new JudgeCache('/x');
    const base = {
      cacheId: 'a',
      system: 's',
      messages: [{ role: 'user' as const, content: 'p' }],
      schema: 'goal@1',
    };
    const k = c.key(base);
    expect(c.key({ ...base })).toBe(k);
    expect(c.key({ ...base, cacheId: 'b' })).not.toBe(k);
    expect(c.key({ ...base, system: 't' })).not.toBe(k);
    expect(c.key({ ...base, schema: 'goal@2' })).not.toBe(k);
    expect(c.key({ ...base, messages: [{ role: 'user', content: 'q' }] })).not.toBe(k);
  });
});
