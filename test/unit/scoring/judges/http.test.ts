import { afterEach, describe, expect, it } from 'vitest';
import { postJson, retryAfter } from '../../../../src/scoring/judges/http.js';
import { JudgeError } from '../../../../src/scoring/judges/types.js';
import { startServer, type Reply, type TestServer } from './server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { timeoutMs: 5_000, baseDelayMs: 5 };

describe('postJson retries', () => {
  it('retries a 429 and returns the later 200', async () => {
    server = await startServer((_req, n) =>
      n === 1 ? { status: 429, body: { error: { message: 'slow down' } } } : { body: { ok: true } },
    );
    const waits: number[] = [];
    const res = await postJson(
      `${server.url}/x`,
      {},
      { q: 1 },
      {
        ...fast,
        maxRetries: 3,
        onRetry: (i) => waits.push(i.delayMs),
      },
    );
    expect(res).toEqual({ json: { ok: true }, status: 200, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual({ q: 1 });
    expect(waits).toEqual([5]);
  });

  it('honours Retry-After and retry-after-ms for the wait', async () => {
    const replies: Reply[] = [
      { status: 429, headers: { 'retry-after': '0' }, body: {} },
      { status: 503, headers: { 'retry-after-ms': '7' }, body: {} },
      { body: { ok: 1 } },
    ];
    server = await startServer((_req, n) => replies[n - 1]!);
    const waits: number[] = [];
    await postJson(
      server.url,
      {},
      {},
      { ...fast, baseDelayMs: 1_000, maxRetries: 3, onRetry: (i) => waits.push(i.delayMs) },
    );
    expect(waits).toEqual([0, 7]);
  });

  it('backs off exponentially and gives up after max_retries with the last reason', async () => {
    server = await startServer(() => ({ status: 500, body: { error: { message: 'boom' } } }));
    const waits: number[] = [];
    const err = await postJson(
      server.url,
      {},
      {},
      { ...fast, maxRetries: 2, onRetry: (i) => waits.push(i.delayMs) },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JudgeError);
    expect((err as JudgeError).message).toBe('HTTP 500: boom (3 attempts)');
    expect((err as JudgeError).attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(waits).toEqual([5, 10]);
  });

  it('does not retry other client errors', async () => {
    server = await startServer(() => ({
      status: 401,
      body: { error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    }));
    const err = (await postJson(server.url, {}, {}, { ...fast, maxRetries: 3 }).catch(
      (e: unknown) => e,
    )) as JudgeError;
    expect(err.message).toBe('HTTP 401: invalid x-api-key');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a timeout, then succeeds', async () => {
    server = await startServer((_req, n) =>
      n === 1 ? { delayMs: 1_500, body: { late: true } } : { body: { ok: true } },
    );
    const reasons: string[] = [];
    const res = await postJson(
      server.url,
      {},
      {},
      {
        timeoutMs: 300,
        baseDelayMs: 1,
        maxRetries: 1,
        onRetry: (i) => reasons.push(i.reason),
      },
    );
    expect(res.json).toEqual({ ok: true });
    expect(reasons).toEqual(['no answer within 0.3 s']);
  });

  it('retries a dropped connection and a non-JSON body', async () => {
    server = await startServer((_req, n) =>
      n === 1 ? { hangUp: true } : n === 2 ? { body: '<html>gateway</html>' } : { body: { ok: true } },
    );
    const reasons: string[] = [];
    const res = await postJson(
      server.url,
      {},
      {},
      { ...fast, maxRetries: 2, onRetry: (i) => reasons.push(i.reason) },
    );
    expect(res.attempts).toBe(3);
    expect(reasons[0]).toMatch(/^network error: /);
    expect(reasons[1]).toBe('HTTP 200 with a body that is not JSON: <html>gateway</html>');
  });

  it('fails with the network reason when nothing listens', async () => {
    const probe = await startServer(() => ({}));
    const url = probe.url;
    await probe.close();
    const err = (await postJson(url, {}, {}, { ...fast, maxRetries: 1 }).catch(
      (e: unknown) => e,
    )) as JudgeError;
    expect(err.message).toMatch(/^network error: ECONNREFUSED \(2 attempts\)$/);
  });

  it('times out an answer whose body stops half way', async () => {
    const http = await import('node:http');
    const stall = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    await new Promise<void>((r) => stall.listen(0, '127.0.0.1', r));
    const { port } = stall.address() as { port: number };
    try {
      const err = (await postJson(
        `http://127.0.0.1:${port}/x`,
        {},
        {},
        {
          timeoutMs: 300,
          baseDelayMs: 1,
          maxRetries: 1,
        },
      ).catch((e: unknown) => e)) as JudgeError;
      expect(err.message).toBe('no answer within 0.3 s (2 attempts)');
    } finally {
      stall.closeAllConnections();
      stall.close();
    }
  });

  it('stops an attempt in flight when the caller cancels, without retrying', async () => {
    server = await startServer(() => ({ delayMs: 5_000, body: { late: true } }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = (await postJson(
      server.url,
      {},
      {},
      { ...fast, maxRetries: 3, signal: controller.signal },
    ).catch((e: unknown) => e)) as JudgeError;
    expect(err).toBeInstanceOf(JudgeError);
    expect(err.message).toBe('judge call cancelled');
    expect(err.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('sends JSON with the given headers', async () => {
    server = await startServer(() => ({ body: {} }));
    await postJson(server.url, { 'x-api-key': 'k' }, { a: [1] }, { ...fast, maxRetries: 0 });
    expect(server.requests[0]!.headers['x-api-key']).toBe('k');
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(server.requests[0]!.body).toEqual({ a: [1] });
  });
});

describe('retryAfter', () => {
  it('reads seconds, an HTTP date, and milliseconds', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfter(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(10_000);
    expect(retryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfter(new Headers({}), now)).toBeUndefined();
    expect(retryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });
});
