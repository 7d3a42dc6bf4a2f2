// The judge floor of a scored job: a plain Node script that sends, for each of N jobs at concurrency C,
// the same number of judge requests AXIS sends (Anthropic Messages POSTs of the same sizes, at once, as
// AXIS asks its judges), over node:http with a keep-alive agent, and parses each answer as JSON. No
// prompt is built, no answer checked, nothing stored: what asking a judge costs any client.
// Usage: node judge-floor.mjs <base url> <jobs> <concurrency> <prompt chars>[,<prompt chars>…]
import { Buffer } from 'node:buffer';
import { Agent, request } from 'node:http';

const [base, jobs, concurrency, sizes] = process.argv.slice(2);
const target = new URL('/v1/messages', base);
const agent = new Agent({ keepAlive: true, scheduling: 'lifo' });
const markers = ['AXIS judge: goal', 'AXIS judge: agent', 'AXIS judge: environment', 'AXIS judge: service'];
const prompts = sizes.split(',').map((n, i) => {
  const head = `${markers[i % markers.length]}\n`;
  return head + 'x'.repeat(Math.max(0, Number(n) - head.length));
});

function post(prompt) {
  const body = Buffer.from(
    JSON.stringify({ model: 'axis-sim', max_tokens: 4096, messages: [{ role: 'user', content: prompt }] }),
  );
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'x-api-key': 'axis-sim-key',
          'anthropic-version': '2023-06-01',
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
async function worker() {
  while (next < Number(jobs)) {
    next++;
    await Promise.all(prompts.map(post));
  }
}
await Promise.all(Array.from({ length: Math.min(Number(concurrency), Number(jobs)) }, worker));
agent.destroy();
