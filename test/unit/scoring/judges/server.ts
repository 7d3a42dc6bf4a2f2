/** A real HTTP server on 127.0.0.1 for judge tests: each request is answered by the test's handler. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Close the connection without an answer. */
  hangUp?: boolean;
}

export interface TestServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: (req: SeenRequest, n: number) => Reply): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = { raw: text };
      }
      const seen: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(seen);
      const reply = handler(seen, requests.length);
      const send = () => {
        if (reply.hangUp) {
          req.socket.destroy();
          return;
        }
        const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(payload);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An Anthropic Messages API answer carrying `text`. */
export function anthropicReply(text: string, usage = { input_tokens: 100, output_tokens: 20 }): Reply {
  return {
    body: {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage,
    },
  };
}

/** The text of the last user message of an Anthropic request. */
export function lastUserText(req: SeenRequest): string {
  const messages = req.body.messages as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

/** Every message's text joined (what a marker is matched against). */
export function promptText(req: SeenRequest): string {
  const messages = (req.body.messages as Array<{ role: string; content: string }>) ?? [];
  return [String(req.body.system ?? ''), ...messages.map((m) => m.content)].join('\n');
}
