import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src/sim/index.js';
import { startRecorder, type Recorder } from '../../../src/sim/record.js';
import type { RecordExchange } from '../../../src/sim/record-exchange.js';
import { targetUrl } from '../../../src/sim/record-http.js';
import type { Recording } from '../../../src/sim/recording.js';
import { bodies, rawPost } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A plain upstream on 127.0.0.1 that hands each request to `handler`. */
async function upstream(
  handler: (
    req: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer },
    res: ServerResponse,
  ) => void,
): Promise<{
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }[];
}> {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts),
      };
      seen.push(r);
      handler(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function recorder(upstreamUrl: string, out?: string): Promise<Recorder & { log: RecordExchange[] }> {
  const log: RecordExchange[] = [];
  const rec = await startRecorder({
    upstream: upstreamUrl,
    ...(out ? { out } : {}),
    onExchange: (x) => log.push(x),
  });
  closers.push(() => rec.stop());
  return Object.assign(rec, { log });
}

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  chunks: Buffer[];
  broken: boolean;
}

/** Raw HTTP request on 127.0.0.1 that keeps every chunk as received; `onChunk` sees each one. */
function raw(
  url: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    onChunk?: (c: Buffer) => void;
  } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      let broken = false;
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        opts.onChunk?.(c);
      });
      res.on('error', () => (broken = true));
      res.on('close', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          chunks,
          broken: broken || !res.complete,
        }),
      );
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const anthropicBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...bodies.anthropic({ stream: true }), ...extra });

/** An Anthropic SSE answer; the text holds a non-ASCII character so a chunk split can cut it in half. */
function sseAnswer(text: string): string {
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    ev('message_start', {
      message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens: 12, output_tokens: 1 } },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }),
    ev('message_stop', {}),
  ].join('');
}

describe('recorder proxy', () => {
  it('streams SSE through byte for byte, chunk by chunk as it arrives, with status and headers', async () => {
    const answer = Buffer.from(sseAnswer('Café ready'), 'utf8');
    // Split inside the two-byte "é": the proxy must pass bytes, not re-encoded text.
    const cut = answer.indexOf(Buffer.from('é')) + 1;
    let release: () => void = () => undefined;
    const firstSeen = new Promise<void>((r) => (release = r));
    const up = await upstream((_req, res) => {
      res.writeHead(201, 'Created Here', {
        'content-type': 'text/event-stream',
        'x-request-id': 'req_123',
        'anthropic-ratelimit-requests-remaining': '99',
      });
      res.write(answer.subarray(0, cut));
      // The rest is sent only once the agent has received the first part: a buffering proxy would hang here.
      void firstSeen.then(() => res.end(answer.subarray(cut)));
    });
    const rec = await recorder(up.url);
    const res = await raw(`${rec.url}/v1/messages?beta=true`, {
      headers: { 'content-type': 'application/json' },
      body: anthropicBody(),
      onChunk: () => release(),
    });
    expect(res.status).toBe(201);
    expect(res.body.equals(answer)).toBe(true);
    expect(res.chunks.length).toBeGreaterThanOrEqual(2);
    expect(res.headers).toMatchObject({
      'content-type': 'text/event-stream',
      'x-request-id': 'req_123',
      'anthropic-ratelimit-requests-remaining': '99',
    });
    expect(rec.recording().turns).toEqual([
      { text: 'Café ready', offered: ['Bash'], usage: { input: 12, output: 7 } },
    ]);
    expect(rec.log[0]).toMatchObject({
      seq: 1,
      status: 201,
      provider: 'anthropic',
      recorded: { kind: 'turn', turn: 0 },
    });
  });

  it('forwards the request unchanged (API keys included) but never writes keys to the tape or the log', async () => {
    const secrets = ['sk-ant-secret-0123456789', 'sk-openai-secret-9876543210', 'goog-secret-key-555555'];
    const up = await upstream((_req, res) => {
      // The model echoes a key back: it must still not reach the tape.
      const body = {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: `Your key is ${secrets[0]}` },
          { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: `echo ${secrets[1]}` } },
        ],
        usage: { input_tokens: 3, output_tokens: 4 },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const out = join(dir, 'keys.json');
    const rec = await recorder(up.url, out);
    const body = JSON.stringify(bodies.anthropic({ stream: false }));
    const res = await raw(`${rec.url}/v1/messages?beta=true&key=${secrets[2]}`, {
      headers: {
        'content-type': 'application/json',
        'x-api-key': secrets[0] as string,
        authorization: `Bearer ${secrets[1]}`,
        'anthropic-version': '2023-06-01',
        connection: 'keep-alive',
      },
      body,
    });
    expect(res.status).toBe(200);
    const seen = up.seen[0];
    expect(seen?.url).toBe(`/v1/messages?beta=true&key=${secrets[2]}`);
    expect(seen?.body.toString('utf8')).toBe(body);
    expect(seen?.headers).toMatchObject({
      'x-api-key': secrets[0],
      authorization: `Bearer ${secrets[1]}`,
      'anthropic-version': '2023-06-01',
      host: new URL(up.url).host,
      'content-length': String(Buffer.byteLength(body)),
    });
    const recording = await rec.stop();
    const tape = readFileSync(out, 'utf8');
    const log = JSON.stringify(rec.log);
    for (const s of secrets) {
      expect(tape).not.toContain(s);
      expect(log).not.toContain(s);
      expect(JSON.stringify(recording)).not.toContain(s);
    }
    expect(tape).toContain('Your key is <redacted>');
    expect(rec.log[0]?.path).toBe('/v1/messages?beta=true&key=<redacted>');
  });

  it('passes an upstream 500 through as is and records no turn', async () => {
    const errorBody = '{"type":"error","error":{"type":"api_error","message":"upstream broke"}}';
    const up = await upstream((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'true' });
      res.end(errorBody);
    });
    const rec = await recorder(up.url);
    const res = await raw(`${rec.url}/v1/messages`, { body: anthropicBody() });
    expect(res.status).toBe(500);
    expect(res.body.toString('utf8')).toBe(errorBody);
    expect(res.headers['x-should-retry']).toBe('true');
    expect(rec.recording().turns).toEqual([]);
    expect(rec.log[0]).toMatchObject({ status: 500, recorded: { kind: 'none', reason: 'HTTP 500' } });
  });

  it('answers 502 in the provider error shape when the upstream refuses the connection', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const rec = await recorder(`http://127.0.0.1:${deadPort}`);
    const res = await raw(`${rec.url}/v1/chat/completions`, {
      body: JSON.stringify(bodies.chat({ stream: true })),
    });
    expect(res.status).toBe(502);
    const body = JSON.parse(res.body.toString('utf8'));
    expect(body.error.type).toBe('server_error');
    expect(body.error.message).toContain(`upstream http://127.0.0.1:${deadPort} unreachable: ECONNREFUSED`);
    expect(rec.log[0]).toMatchObject({
      status: 502,
      recorded: { kind: 'none', reason: 'upstream unreachable' },
    });
  });

  it('cuts the agent connection when the upstream drops mid-stream, and records nothing', async () => {
    const sim = await startSimulator({
      tape: { turns: [{ text: 'a long answer here', fault: { drop: 'mid-stream' } }] },
    });
    closers.push(() => sim.close());
    const rec = await recorder(sim.url);
    const res = await rawPost(`${rec.url}/v1/messages`, bodies.anthropic({ stream: true }));
    expect(res.status).toBe(200);
    expect(res.broken).toBe(true);
    expect(res.text).toContain('message_start');
    expect(rec.recording().turns).toEqual([]);
    await expect
      .poll(() => rec.log[0]?.recorded)
      .toEqual({ kind: 'none', reason: 'upstream closed mid-response' });
  });

  it('forwards any other path and method too, without recording it', async () => {
    const up = await upstream((req, res) => {
      res.writeHead(req.method === 'HEAD' ? 200 : 404, { 'content-type': 'text/plain' });
      res.end(req.method === 'HEAD' ? undefined : 'nope');
    });
    const rec = await recorder(`${up.url}/base/`);
    expect((await raw(`${rec.url}/`, { method: 'HEAD' })).status).toBe(200);
    const res = await raw(`${rec.url}/v2/other`, { method: 'GET' });
    expect(res.status).toBe(404);
    expect(res.body.toString()).toBe('nope');
    expect(up.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['HEAD /base/', 'GET /base/v2/other']);
    expect(rec.log.map((x) => x.recorded)).toEqual([
      { kind: 'none', reason: 'not a model request' },
      { kind: 'none', reason: 'not a model request' },
    ]);
  });
});

describe('targetUrl', () => {
  it('joins the base path and the request path without doubling the version segment', () => {
    const t = (base: string, path: string) => targetUrl(new URL(base), path).href;
    expect(t('https://api.anthropic.com', '/v1/messages?beta=true')).toBe(
      'https://api.anthropic.com/v1/messages?beta=true',
    );
    expect(t('https://api.openai.com/v1', '/v1/responses')).toBe('https://api.openai.com/v1/responses');
    expect(t('https://gw.example/team-a/', '/v1/chat/completions')).toBe(
      'https://gw.example/team-a/v1/chat/completions',
    );
    expect(t('https://g.example/v1beta', '/v1beta/models/m:streamGenerateContent?alt=sse')).toBe(
      'https://g.example/v1beta/models/m:streamGenerateContent?alt=sse',
    );
  });

  it('rejects an upstream that is not an http(s) URL', async () => {
    await expect(startRecorder({ upstream: 'ftp://x' })).rejects.toThrow(
      'upstream: expected an http:// or https:// URL, found "ftp://x"',
    );
  });
});

describe('tape writing', () => {
  const tools = [
    {
      name: 'Bash',
      schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
  ];

  it('writes the tape at start, after every exchange (atomically), and complete on stop', async () => {
    const sim: Simulator = await startSimulator({
      tape: {
        turns: [{ text: 'Listing.', tools: [{ shell: 'ls' }] }, { text: 'Done.' }],
      },
    });
    closers.push(() => sim.close());
    const out = join(dir, 'nested/dir/run.json');
    const rec = await recorder(sim.url, out);
    const read = () => JSON.parse(readFileSync(out, 'utf8')) as Recording;
    expect(read()).toMatchObject({ format: 'axis-sim-recording', version: 1, complete: false, turns: [] });

    const first = await rawPost(`${rec.url}/v1/messages`, bodies.anthropic({ tools, stream: true }));
    expect(first.status).toBe(200);
    const callId = /"id":"(toolu_sim_\d+)"/.exec(first.text)?.[1] as string;
    await expect.poll(() => read().turns.length).toBe(1);
    expect(read().turns[0]).toMatchObject({ text: 'Listing.', tools: [{ shell: 'ls' }], offered: ['Bash'] });
    expect(read().turns[0]?.results).toBeUndefined();

    const second = bodies.anthropic({
      tools,
      stream: false,
      turns: [{ calls: [{ id: callId, name: 'Bash' }], results: [{ id: callId, output: 'a.txt\nb.txt' }] }],
    });
    await rawPost(`${rec.url}/v1/messages/count_tokens`, second);
    await rawPost(`${rec.url}/v1/messages`, second);
    await rawPost(`${rec.url}/v1/messages`, { ...bodies.anthropic({ tools: [] }), tools: [] });
    await expect.poll(() => read().side.length).toBe(1);
    const mid = read();
    expect(mid.complete).toBe(false);
    expect(mid.turns[0]?.results).toEqual([{ output: 'a.txt\nb.txt', is_error: false }]);
    expect(mid.turns[1]).toMatchObject({ text: 'Done.' });
    expect(mid.side[0]).toMatchObject({ kind: 'no_tools', prompt: 'Do the task.', text: 'Simulated reply.' });
    expect(rec.log.map((x) => x.recorded.kind)).toEqual(['turn', 'none', 'turn', 'side']);

    const final = await rec.stop();
    expect(read()).toEqual(final);
    expect(final).toMatchObject({
      complete: true,
      upstream: sim.url,
      provider: 'anthropic',
      model: 'claude-test',
    });
    expect(final.turns).toHaveLength(2);
    expect(readdirSync(join(dir, 'nested/dir'))).toEqual(['run.json']);
  });

  it('a retried turn replaces the recorded one; a restarted conversation is not recorded', async () => {
    const sim = await startSimulator({
      tape: { turns: [{ tools: [{ shell: 'ls' }] }, { text: 'one' }, { text: 'two' }] },
    });
    closers.push(() => sim.close());
    const rec = await recorder(sim.url);
    const a = await rawPost(`${rec.url}/v1/messages`, bodies.anthropic({ tools }));
    const id = JSON.parse(a.text).content[0].id as string;
    const next = bodies.anthropic({
      tools,
      turns: [{ calls: [{ id, name: 'Bash' }], results: [{ id, output: 'x' }] }],
    });
    await rawPost(`${rec.url}/v1/messages`, next);
    await rawPost(`${rec.url}/v1/messages`, next);
    expect(rec.log.map((x) => x.recorded)).toEqual([
      { kind: 'turn', turn: 0 },
      { kind: 'turn', turn: 1 },
      { kind: 'turn', turn: 1, retry: true },
    ]);
    await rawPost(`${rec.url}/v1/messages`, bodies.anthropic({ tools }));
    expect(rec.log[3]?.recorded).toMatchObject({ kind: 'none' });
    expect(rec.recording().turns).toHaveLength(2);
  });

  it('a tape path that cannot be written fails at start with the path', async () => {
    writeFileSync(join(dir, 'plain-file'), 'x');
    const file = join(dir, 'plain-file', 'below-a-file.json');
    await expect(startRecorder({ upstream: 'http://127.0.0.1:9', out: file })).rejects.toThrow(
      `cannot write tape ${file}`,
    );
  });
});
