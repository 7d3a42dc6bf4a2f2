// A judge that takes time: an HTTP proxy that holds each request `delayMs` before passing it to
// `target` and streams the answer back. Used by runner-scoring.mjs to show what a judge's latency costs
// a run (docs/performance.md, "Judging outside the job's place").
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { setTimeout } from 'node:timers';

export async function startDelayingProxy(target, delayMs) {
  const to = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      setTimeout(() => {
        const up = http.request(
          {
            host: to.hostname,
            port: to.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', (err) => {
          res.writeHead(502);
          res.end(String(err));
        });
        up.end(Buffer.concat(chunks));
      }, delayMs),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () => {
      server.closeAllConnections();
      server.close();
      agent.destroy();
    },
  };
}
