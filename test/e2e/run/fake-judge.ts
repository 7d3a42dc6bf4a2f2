/**
 * A judge provider of the tests' own (Anthropic Messages over node:http on 127.0.0.1) whose every answer
 * is a passing verdict for the toy agent's run; `hold` decides when each answer is sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The Messages API body answering one judge request (goal grades, or the agent's audits). */
export function judgeMessage(request: string): string {
  const answer = request.includes('AXIS judge: goal')
    ? { grades: [{ criterion_index: 0, score: 9, rationale: 'done' }] }
    : {
        audits: [1, 2, 3].map((id) => ({ id, weight: 1, relevance: 1, success: 1, rationale: 'fine' })),
        necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
        patterns: [],
      };
  return JSON.stringify({
    id: 'msg',
    type: 'message',
    role: 'assistant',
    model: 'judge-model',
    content: [{ type: 'text', text: JSON.stringify(answer) }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 10, output_tokens: 10 },
  });
}

/** Starts the judge; `hold(send)` is called per request and sends its answer when it calls `send`. */
export async function startFakeJudge(
  hold: (send: () => void) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () =>
      hold(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(judgeMessage(body));
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
