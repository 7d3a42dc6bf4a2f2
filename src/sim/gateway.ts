/**
 * One loopback HTTP server per process that hands `/sim/<id>/<path>` to the simulator mounted as `<id>`.
 * AXIS's own judges reach a job's simulator through it rather than through the job's port: a port per
 * job means a new TCP connection for every judge question (connect, accept and close, both ends in this
 * process), while the gateway's keep-alive connections serve every job of a run. The request is the same
 * HTTP request to the same handler, so answers, faults and the simulator's request log do not change.
 * Agents keep using their job's own port.
 *
 * Nothing here holds the process open: the listening socket and its connections are unref'd, and the
 * server closes once no simulator has been mounted for a while.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SimHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface GatewayMount {
  /** `http://127.0.0.1:<port>/sim/<id>`: the simulator's base URL through the gateway. */
  url: string;
  unmount(): void;
}

const PREFIX = '/sim/';
/** A run's jobs come and go; a gap this short between two of them keeps the connections. */
const IDLE_CLOSE_MS = 2_000;
/** Longer than a judge client keeps an idle connection (5 s), so the client always closes first. */
const KEEP_ALIVE_MS = 10 * 60_000;

const handlers = new Map<string, SimHandler>();
let nextId = 0;
let gateway: Promise<{ server: Server; url: string }> | undefined;
let idleTimer: NodeJS.Timeout | undefined;

export async function mountOnGateway(handler: SimHandler): Promise<GatewayMount> {
  const id = String(++nextId);
  handlers.set(id, handler);
  clearTimeout(idleTimer);
  let url: string;
  try {
    url = (await (gateway ??= listen())).url;
  } catch (err) {
    gateway = undefined;
    unmount(id);
    throw err;
  }
  return { url: `${url}${PREFIX}${id}`, unmount: () => unmount(id) };
}

function unmount(id: string): void {
  if (!handlers.delete(id) || handlers.size > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(closeIfIdle, IDLE_CLOSE_MS).unref();
}

function closeIfIdle(): void {
  const open = gateway;
  if (handlers.size > 0 || !open) return;
  gateway = undefined;
  void open.then(({ server }) => {
    server.close();
    server.closeAllConnections();
  });
}

async function listen(): Promise<{ server: Server; url: string }> {
  const server = createServer(dispatch);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  server.on('connection', (socket) => socket.unref());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function dispatch(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  const end = path.indexOf('/', PREFIX.length);
  const id = path.startsWith(PREFIX) ? path.slice(PREFIX.length, end === -1 ? undefined : end) : '';
  const handler = handlers.get(id);
  if (!handler) {
    const body = JSON.stringify({
      error: { type: 'not_found', message: `[axis sim] no simulator is mounted at ${PREFIX}${id}` },
    });
    res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  req.url = end === -1 ? '/' : path.slice(end);
  handler(req, res);
}
