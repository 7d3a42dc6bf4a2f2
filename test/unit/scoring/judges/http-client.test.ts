import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleConnections, post } from '../../../../src/scoring/judges/http-client.js';
import { postJson } from '../../../../src/scoring/judges/http.js';
import { JudgeError } from '../../../../src/scoring/judges/types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const TLS_DIR = join(ROOT, 'test/fixtures/tls');

class Timeout extends Error {}
const opts = (timeoutMs = 5_000, signal?: AbortSignal) => ({
  timeoutMs,
  signal,
  timeoutError: () => new Timeout(),
});
const body = (v: unknown): string => JSON.stringify(v);

const closers: Array<() => void> = [];
afterEach(() => {
  closeIdleConnections();
  while (closers.length) closers.pop()!();
});

/** An HTTP server on 127.0.0.1 that counts its connections. */
async function httpServer(handle: (body: string, res: ServerResponse, n: number) => void) {
  let n = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => handle(Buffer.concat(parts).toString('utf8'), res, ++n));
  });
  server.on('connection', (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/messages?x=1`),
    sockets,
    server,
  };
}

/** A server speaking raw bytes: `answer` gets each request's text and its connection. */
async function rawServer(answer: (request: string, socket: Socket, nth: number) => void) {
  const sockets: Socket[] = [];
  const server: NetServer = createNetServer((socket) => {
    sockets.push(socket);
    let nth = 0;
    socket.on('data', (c: Buffer) => answer(c.toString('latin1'), socket, ++nth));
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/p`), sockets };
}

describe('judge HTTP client', () => {
  it('sends the request line, Host, JSON headers and the body; keeps one connection for requests in a row', async () => {
    const seen: string[] = [];
    const s = await httpServer((text, res) => {
      seen.push(text);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echo: JSON.parse(text) }));
    });
    let head = '';
    s.server.on('request', (req) => {
      const h = req.headers;
      head = `${req.method} ${req.url} ${h.host} ${h['content-type']} ${h['accept-encoding']} ${h['x-api-key']}`;
    });
    for (let i = 0; i < 3; i++) {
      const res = await post(s.url, { 'x-api-key': 'k-1' }, body({ i, t: 'é ✓' }), opts());
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ echo: { i, t: 'é ✓' } });
    }
    expect(head).toBe(`POST /v1/messages?x=1 ${s.url.host} application/json identity k-1`);
    expect(seen).toHaveLength(3);
    expect(s.sockets.size).toBe(1);
  });

  it('reads a chunked answer of a megabyte, multi-byte characters split across chunks', async () => {
    const text = JSON.stringify({ t: '✓é𝄞'.repeat(100_000) });
    const bytes = Buffer.from(text);
    const s = await httpServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < bytes.length; at += 9_999) res.write(bytes.subarray(at, at + 9_999));
      res.end();
    });
    const res = await post(s.url, {}, body({}), opts());
    expect(res.text).toBe(text);
    expect(res.headers['transfer-encoding']).toBe('chunked');
  });

  it('retries at once on a new connection when a kept-alive one was closed before it answered', async () => {
    const s = await rawServer((_, socket, nth) => {
      // The second request on a connection: the server has given up on it.
      if (nth === 2) return socket.destroy();
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    expect((await post(s.url, {}, body({}), opts())).text).toBe('ok');
    const started = Date.now();
    expect((await post(s.url, {}, body({}), opts())).text).toBe('ok');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(s.sockets).toHaveLength(2);
  });

  it('fails, without retrying, when a new connection closes before the answer', async () => {
    const s = await rawServer((_, socket) => socket.destroy());
    await expect(post(s.url, {}, body({}), opts())).rejects.toThrow(
      /closed before the whole answer|ECONNRESET/,
    );
    expect(s.sockets).toHaveLength(1);
  });

  it('opens a new connection after `Connection: close` or a keep-alive timeout too short to use', async () => {
    for (const header of ['Connection: close', 'Keep-Alive: timeout=1']) {
      const s = await rawServer((_, socket) =>
        socket.write(`HTTP/1.1 200 OK\r\n${header}\r\nContent-Length: 1\r\n\r\nx`),
      );
      await post(s.url, {}, body({}), opts());
      await post(s.url, {}, body({}), opts());
      expect(s.sockets, header).toHaveLength(2);
    }
  });

  it('reads an answer delimited by the connection’s end', async () => {
    const s = await rawServer((_, socket) => socket.end('HTTP/1.1 500 Oops\r\n\r\n{"error":"down"}'));
    const res = await post(s.url, {}, body({}), opts());
    expect(res).toMatchObject({ status: 500, text: '{"error":"down"}' });
  });

  it('drops a connection that sends bytes nobody asked for', async () => {
    const s = await rawServer((_, socket, nth) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx');
      if (nth === 1) setTimeout(() => socket.write('junk'), 20);
    });
    await post(s.url, {}, body({}), opts());
    await new Promise((r) => setTimeout(r, 60));
    await post(s.url, {}, body({}), opts());
    expect(s.sockets).toHaveLength(2);
  });

  it('rejects a garbled answer with the reason', async () => {
    const s = await rawServer((_, socket) => socket.write('SSH-2.0-OpenSSH_9\r\n\r\n'));
    await expect(post(s.url, {}, body({}), opts())).rejects.toThrow(/not an HTTP\/1\.x answer/);
  });

  it('times out, and stops on the caller’s signal', async () => {
    const s = await rawServer(() => {});
    await expect(post(s.url, {}, body({}), opts(100))).rejects.toBeInstanceOf(Timeout);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(post(s.url, {}, body({}), opts(5_000, ac.signal))).rejects.toThrow('cancelled');
  });

  it('refuses a header that would break the request, naming the header and not its value', () => {
    const url = new URL('http://127.0.0.1:9/');
    const bad: Record<string, string>[] = [
      { 'x-api-key': 'sk-secret\r\nX-Evil: 1' },
      { 'bad name': 'v' },
      { k: 'ü✓' },
    ];
    for (const headers of bad) {
      let err: unknown;
      try {
        void post(url, headers, body({}), opts());
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(JudgeError);
      expect((err as Error).message).not.toContain('sk-secret');
    }
  });

  it('refuses a URL that is not http:// or https:// before connecting anywhere', async () => {
    for (const url of ['ftp://127.0.0.1:9/v1/messages', 'file:///etc/passwd']) {
      expect(() => post(new URL(url), {}, body({}), opts()), url).toThrow(JudgeError);
      expect(() => post(new URL(url), {}, body({}), opts()), url).toThrow(/expected http:\/\/ or https:\/\//);
    }
    // Through the retrying caller: one attempt, no back-off.
    const started = Date.now();
    await expect(
      postJson('ftp://127.0.0.1:9/v1/messages', {}, {}, { maxRetries: 3, timeoutMs: 1_000 }),
    ).rejects.toMatchObject({ attempts: 1, message: expect.stringContaining('expected http://') });
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('sends Basic auth from the URL’s user and password', async () => {
    let auth = '';
    const s = await httpServer((_, res) => res.end('{}'));
    s.server.on('request', (req) => (auth = req.headers.authorization ?? ''));
    const url = new URL(s.url);
    url.username = 'me';
    url.password = 'p@ss';
    await post(url, {}, body({}), opts());
    expect(auth).toBe(`Basic ${Buffer.from('me:p@ss').toString('base64')}`);
  });

  it('refuses a URL whose user or password is not valid percent-encoding, once and without its text', async () => {
    const url = new URL('http://me%zz:sk-secret%@127.0.0.1:9/v1/messages');
    expect(() => post(url, {}, body({}), opts())).toThrow(JudgeError);
    expect(() => post(url, {}, body({}), opts())).toThrow(/user or password .*percent-encoding/);
    const started = Date.now();
    const err = await postJson(url.href, {}, {}, { maxRetries: 3, timeoutMs: 1_000 }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ attempts: 1 });
    expect((err as Error).message).not.toContain('sk-secret');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('speaks HTTPS with the system’s trust (NODE_EXTRA_CA_CERTS), resumes the TLS session, and lets the process exit', async () => {
    const resumed: boolean[] = [];
    const server = createTlsServer(
      { key: readFileSync(join(TLS_DIR, 'key.pem')), cert: readFileSync(join(TLS_DIR, 'cert.pem')) },
      (socket: TLSSocket) => {
        resumed.push(socket.isSessionReused());
        socket.on('error', () => {});
        socket.once('data', () => {
          // The first connection is closed after its answer, so the second must connect again.
          const close = resumed.length === 1 ? 'Connection: close\r\n' : '';
          socket.write(`HTTP/1.1 200 OK\r\n${close}Content-Length: 11\r\n\r\n{"ok":true}`);
        });
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const script = `
      const { post } = await import(${JSON.stringify(join(ROOT, 'dist/scoring/judges/http-client.js'))});
      const o = { timeoutMs: 5000, timeoutError: () => new Error('timeout') };
      const url = new URL('https://127.0.0.1:${port}/v1/messages');
      for (let i = 0; i < 2; i++) console.log((await post(url, {}, '{}', o)).text);`;
    // Not spawnSync: the server answers from this process.
    const child = await new Promise<{ status: number | null; stdout: string; stderr: string; ms: number }>(
      (resolve) => {
        const started = Date.now();
        const p = spawn(process.execPath, ['--input-type=module', '-e', script], {
          env: { ...process.env, NODE_EXTRA_CA_CERTS: join(TLS_DIR, 'cert.pem') },
        });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (c: Buffer) => (stdout += c));
        p.stderr.on('data', (c: Buffer) => (stderr += c));
        p.on('close', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
      },
    );
    server.close();
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('{"ok":true}\n{"ok":true}\n');
    expect(child.status).toBe(0);
    expect(resumed).toEqual([false, true]);
    // Its idle connection does not keep it alive for the idle time (4 s).
    expect(child.ms).toBeLessThan(3_000);
  });

  it('refuses a server whose certificate is not trusted', async () => {
    const server = createTlsServer(
      { key: readFileSync(join(TLS_DIR, 'key.pem')), cert: readFileSync(join(TLS_DIR, 'cert.pem')) },
      (socket: TLSSocket) => socket.on('error', () => {}),
    );
    server.on('tlsClientError', () => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await expect(post(url, {}, body({}), opts())).rejects.toMatchObject({
      code: expect.stringMatching(/CERT|SELF_SIGNED/),
    });
  });
});
