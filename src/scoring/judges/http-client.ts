/**
 * The judges' HTTP/1.1 client: one POST at a time per connection, connections kept alive per origin
 * (http: over net, https: over tls with TLS sessions resumed), the answer read by http-response.ts.
 *
 * Written by hand because both libraries cost more CPU per request than a short scored job can carry:
 * node:http's client about 0.36 ms per request (the JSON body and the answer's parse included) and
 * undici's Pool more, against 0.18 ms here (docs/performance.md, "What scoring costs, and why"), and a
 * short job asks two questions. It does what a JSON POST to a
 * provider needs: Host and Content-Length, Basic auth from the URL, keep-alive with the server's
 * `Keep-Alive: timeout` respected, Content-Length, chunked and close-delimited bodies, interim 1xx
 * answers; like node:http it follows no redirects and uses no proxy; it asks for
 * no compression (`Accept-Encoding: identity`).
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { ResponseParser, type ParsedResponse } from './http-response.js';
import { JudgeError } from './types.js';

/** An idle connection is closed after this long, before a server's usual 5 s keep-alive ends it. */
export const IDLE_MS = 4_000;
/** Idle connections kept per origin; more are closed. */
const MAX_IDLE_PER_ORIGIN = 64;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Tab, visible ASCII and Latin-1: what a header value may hold on the wire.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface PostOptions {
  /** Limit of the attempt, the answer's body included. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** The attempt's own error for a timeout (the caller tells it from network errors). */
  timeoutError: () => Error;
}

/** A connection and the request it carries (at most one). */
interface Conn {
  socket: Socket;
  origin: string;
  /** It carried a request before: a close before any answer byte is retried once on a new one. */
  reused: boolean;
  idleTimer: NodeJS.Timeout | undefined;
  active: Active | undefined;
}

interface Active {
  parser: ResponseParser;
  settle: (err: Error | undefined, res?: ParsedResponse) => void;
}

const idle = new Map<string, Conn[]>();
/** The last TLS session per origin: a new connection resumes it instead of a full handshake. */
const sessions = new Map<string, Buffer>();

/**
 * POSTs `body` (sent as UTF-8) to `target`; resolves with any status, rejects on network and framing
 * errors. Throws a JudgeError (not worth a retry) for a URL or header no request could carry.
 */
export function post(
  target: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  opts: PostOptions,
): Promise<HttpAnswer> {
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new JudgeError(
      `judge URL ${JSON.stringify(`${target.protocol}//${target.host}`)}: expected http:// or https://`,
      1,
    );
  const head = requestHead(target, headers, Buffer.byteLength(body, 'utf8'));
  return new Promise((resolve, reject) => {
    let conn: Conn | undefined;
    let finished = false;
    const finish = (err: Error | undefined, res?: ParsedResponse): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', cancel);
      if (err) reject(err);
      else resolve({ status: res!.status, headers: res!.headers, text: res!.body.toString('utf8') });
    };
    const stop = (err: Error): void => {
      finish(err);
      if (conn) drop(conn);
    };
    const cancel = (): void => stop(new Error('cancelled'));
    const timer = setTimeout(() => stop(opts.timeoutError()), opts.timeoutMs).unref();
    opts.signal?.addEventListener('abort', cancel, { once: true });
    const attempt = (fresh: boolean): void => {
      conn = (fresh ? undefined : takeIdle(originOf(target))) ?? open(target);
      const c = conn;
      c.active = {
        parser: new ResponseParser(),
        settle: (err, res) => {
          c.active = undefined;
          // A kept-alive connection the server closed meanwhile: once more on a new one.
          if (err instanceof StaleConnection && !finished) return attempt(true);
          finish(err, res);
        },
      };
      // Head (Latin-1 on the wire) and body go out in one writev, without a joined copy.
      c.socket.cork();
      c.socket.write(head, 'latin1');
      c.socket.write(body, 'utf8');
      c.socket.uncork();
    };
    attempt(false);
  });
}

/** A kept-alive connection the server closed before answering (retried at once on a new one). */
class StaleConnection extends Error {}

/** The request line and headers. Throws a JudgeError (not retried) for a header no server could get. */
function requestHead(target: URL, headers: Readonly<Record<string, string>>, length: number): string {
  // No Accept-Encoding at all would let a server pick any coding (RFC 9110 §12.5.3): identity, plainly.
  const fields: Record<string, string> = {
    host: target.host,
    'content-type': 'application/json',
    'accept-encoding': 'identity',
  };
  if (target.username || target.password) fields.authorization = basicAuth(target);
  for (const [name, value] of Object.entries(headers)) {
    // The name only: a value may be a key.
    if (!TOKEN.test(name))
      throw new JudgeError(`judge request header ${JSON.stringify(name)} is not a valid name`, 1);
    if (!FIELD_VALUE.test(value))
      throw new JudgeError(
        `judge request header "${name}" holds a line break or a character HTTP cannot send`,
        1,
      );
    fields[name.toLowerCase()] = value;
  }
  fields['content-length'] = String(length);
  let head = `POST ${target.pathname}${target.search} HTTP/1.1\r\n`;
  for (const name in fields) head += `${name}: ${fields[name]}\r\n`;
  return `${head}\r\n`;
}

/** Basic auth from the URL's user and password; a JudgeError (not retried, no text of them) when they do not decode. */
function basicAuth(target: URL): string {
  let pair: string;
  try {
    pair = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
  } catch {
    throw new JudgeError(
      `judge URL ${JSON.stringify(originOf(target))}: its user or password is not valid percent-encoding`,
      1,
    );
  }
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

function originOf(target: URL): string {
  return `${target.protocol}//${target.host}`;
}

function takeIdle(origin: string): Conn | undefined {
  const list = idle.get(origin);
  // Last in, first out: the warmest connection, and the oldest ones time out.
  for (let c = list?.pop(); c; c = list!.pop()) {
    clearTimeout(c.idleTimer);
    c.idleTimer = undefined;
    if (c.socket.destroyed || !c.socket.writable) {
      c.socket.destroy();
      continue;
    }
    c.socket.ref();
    c.reused = true;
    return c;
  }
  return undefined;
}

function open(target: URL): Conn {
  const origin = originOf(target);
  const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
  const https = target.protocol === 'https:';
  const port = Number(target.port) || (https ? 443 : 80);
  const session = https ? sessions.get(origin) : undefined;
  const socket: Socket = https
    ? tlsConnect({
        host,
        port,
        ALPNProtocols: ['http/1.1'],
        ...(isIP(host) ? {} : { servername: host }),
        ...(session ? { session } : {}),
      })
    : netConnect({ host, port });
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 1_000);
  const conn: Conn = { socket, origin, reused: false, idleTimer: undefined, active: undefined };
  if (https) socket.on('session', (s: Buffer) => sessions.set(origin, s));
  socket.on('data', (chunk: Buffer) => onData(conn, chunk));
  // Every socket has an error listener: an idle connection's reset is only its end.
  socket.on('error', (err) => fail(conn, err));
  socket.on('close', () => onClose(conn));
  return conn;
}

function onData(conn: Conn, chunk: Buffer): void {
  const a = conn.active;
  // Bytes nobody asked for: the connection can no longer be trusted.
  if (!a) return drop(conn);
  let res: ParsedResponse | undefined;
  try {
    res = a.parser.feed(chunk);
  } catch (err) {
    a.settle(err as Error);
    return drop(conn);
  }
  if (!res) return;
  a.settle(undefined, res);
  if (res.reusable && !a.parser.extra) park(conn, res.keepAliveSeconds);
  else drop(conn);
}

function onClose(conn: Conn): void {
  forget(conn);
  const a = conn.active;
  if (!a) return;
  let res: ParsedResponse;
  try {
    res = a.parser.end();
  } catch (err) {
    return fail(conn, err as Error);
  }
  a.settle(undefined, res);
}

/** The request's end by a network error; on a reused connection before any answer, a stale one. */
function fail(conn: Conn, err: Error): void {
  const a = conn.active;
  if (a)
    a.settle(
      conn.reused && !a.parser.started ? new StaleConnection('the kept-alive connection was closed') : err,
    );
}

/** Back to the idle list until its next request, its idle time or the server's, whichever is first. */
function park(conn: Conn, serverSeconds: number | undefined): void {
  const ms = serverSeconds === undefined ? IDLE_MS : Math.min(IDLE_MS, serverSeconds * 1_000 - 1_000);
  let list = idle.get(conn.origin);
  if (ms <= 0 || conn.socket.destroyed || (list?.length ?? 0) >= MAX_IDLE_PER_ORIGIN) return drop(conn);
  if (!list) idle.set(conn.origin, (list = []));
  list.push(conn);
  conn.socket.unref();
  conn.idleTimer = setTimeout(() => drop(conn), ms).unref();
}

function drop(conn: Conn): void {
  forget(conn);
  conn.socket.destroy();
}

function forget(conn: Conn): void {
  clearTimeout(conn.idleTimer);
  conn.idleTimer = undefined;
  const list = idle.get(conn.origin);
  const i = list ? list.indexOf(conn) : -1;
  if (i !== -1) list!.splice(i, 1);
  if (list?.length === 0) idle.delete(conn.origin);
}

/** Closes every idle connection (tests; a process exits with them anyway, they are unref'd). */
export function closeIdleConnections(): void {
  for (const list of [...idle.values()]) for (const c of [...list]) drop(c);
}
