/** The simulator's and the recorder's HTTP servers: on 127.0.0.1 only, idle connections kept open. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server for `handler` listening on 127.0.0.1 (`port` 0: a free port), with its port and base URL. */
export async function listenLocal(
  handler: RequestListener,
  port: number,
): Promise<{ server: Server; port: number; url: string }> {
  const server = createServer(handler);
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return { server, port: bound, url: `http://127.0.0.1:${bound}` };
}

/** Stops listening and ends the open connections, idle keep-alive ones included. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Agents keep one connection open between model turns while they run tools, which can take longer than
 * Node's 5 s default keep-alive. A server that closes the idle socket then races the agent's next request
 * ("fetch failed" in Qwen Code under load), so idle connections stay open; `close()` ends them.
 */
export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = 10 * 60_000;
  server.headersTimeout = 10 * 60_000 + 1_000;
}
