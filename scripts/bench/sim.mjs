// Simulator overhead: the latency it adds per model turn, measured with an in-process HTTP client
// (keep-alive, 127.0.0.1) over many turns of a growing conversation, with Claude Code's real tool list.
// Run: npm run bench -- sim   (imports from dist/, so build first)
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const name = 'model simulator: added latency per turn (scripts/bench/sim.mjs)';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TURNS = 150;
const WARMUP = 20;

function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => `${x.toFixed(2)} ms`;

/** Plays a TURNS-long conversation; each request carries the whole history so far, as agents do. */
async function conversation(sim, agent, path, build) {
  const times = [];
  for (let i = 0; i < TURNS + WARMUP; i++) {
    const body = JSON.stringify(build(i));
    const t0 = performance.now();
    await post(agent, `${sim.url}${path}`, body);
    if (i >= WARMUP) times.push(performance.now() - t0);
  }
  return times;
}

export default async function run() {
  const { startSimulator } = await import(pathToFileURL(join(root, 'dist/sim/index.js')).href);
  const offered = JSON.parse(readFileSync(join(root, 'test/unit/sim/fixtures/offered-tools.json'), 'utf8'));
  const turns = Array.from({ length: TURNS + WARMUP + 1 }, (_, i) => ({
    text: `Step ${i}.`,
    tools: [{ shell: `echo step ${i}` }],
  }));
  const agent = new Agent({ keepAlive: true });
  const rows = [];

  const anthropicTools = offered.claude.map((t) => ({ name: t.name, input_schema: t.schema }));
  const anthropic = (i) => {
    const messages = [{ role: 'user', content: 'Run the steps.' }];
    for (let k = 0; k < i; k++) {
      messages.push({
        role: 'assistant',
        content: [
          { type: 'tool_use', id: `toolu_sim_${k + 1}`, name: 'Bash', input: { command: `echo step ${k}` } },
        ],
      });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_sim_${k + 1}`, content: `step ${k}` }],
      });
    }
    return {
      model: 'bench',
      max_tokens: 1000,
      stream: true,
      system: 'You are a bench.',
      tools: anthropicTools,
      messages,
    };
  };
  const chatTools = offered.opencode.map((t) => ({
    type: 'function',
    function: { name: t.name, parameters: t.schema },
  }));
  const chat = (i) => {
    const messages = [{ role: 'user', content: 'Run the steps.' }];
    for (let k = 0; k < i; k++) {
      const id = `call_sim_${k + 1}`;
      messages.push({
        role: 'assistant',
        content: '',
        tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: '{}' } }],
      });
      messages.push({ role: 'tool', tool_call_id: id, content: `step ${k}` });
    }
    return { model: 'bench', stream: true, tools: chatTools, messages };
  };

  for (const [label, path, build] of [
    ['Anthropic Messages, streamed (Claude tool list)', '/v1/messages', anthropic],
    ['Chat Completions, streamed (opencode tool list)', '/v1/chat/completions', chat],
  ]) {
    // A fresh simulator per codec: tool-call ids restart, so the histories above are "served" turns.
    const sim = await startSimulator({ tape: { turns } });
    const times = await conversation(sim, agent, path, build);
    const server = sim.requests.slice(WARMUP).map((r) => r.durationMs);
    await sim.close();
    rows.push({ label: `${label}: round trip p50`, value: ms(pct(times, 50)), target: '< 5 ms per turn' });
    rows.push({ label: `${label}: round trip p95`, value: ms(pct(times, 95)), target: '< 5 ms per turn' });
    rows.push({ label: `${label}: server time p50`, value: ms(pct(server, 50)) });
  }
  rows.push({ label: 'turns per conversation (after warm-up)', value: String(TURNS) });
  agent.destroy();
  return rows;
}
