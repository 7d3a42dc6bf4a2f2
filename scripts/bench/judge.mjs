// Judge input size: characters (and estimated tokens, chars/4) sent to the judges per scored run —
// for the quick-start suite (real Claude Code against the simulator, which also judges) and for a long
// synthetic transcript (~40 tool calls, ~150 KB of stream) judged by a local HTTP judge on 127.0.0.1.
// Imports the built modules from dist/ (npm run bench builds first).
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discard, tempDir } from './lib/measure.mjs';
import { JudgeCache } from '../../dist/scoring/cache.js';
import { resolveScoringWeights } from '../../dist/scoring/composite.js';
import { createAnthropicJudge } from '../../dist/scoring/judges/anthropic.js';
import { scoreRun } from '../../dist/scoring/pipeline.js';

export const name = 'judge: input per scored run';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET_CHARS = 85_000;
const tokens = (chars) => Math.round(chars / 4);
const fmt = (n) => n.toLocaleString('en-US');

export default async function bench() {
  const rows = [];
  rows.push(...(await longTranscript()));
  rows.push(...quickstart());
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The long synthetic transcript

function text(seed, length) {
  const words = [
    'module',
    'config',
    'export',
    'function',
    'test',
    'value',
    'return',
    'import',
    'error',
    'route',
  ];
  let out = '';
  let x = seed;
  while (out.length < length) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += words[x % words.length] + (x % 9 === 0 ? '\n' : ' ');
  }
  return out.slice(0, length);
}

/** 40 tool calls: reads, greps, edits, test runs (4 failing), a curl, with reasoning between them. */
export function longEvents() {
  const T0 = 1_700_000_000_000;
  let ts = T0;
  const events = [
    { kind: 'user', text: 'Fix the failing route tests and confirm the API answers.', ts, tsSource: 'agent' },
  ];
  const step = (ms) => (ts += ms);
  for (let n = 1; n <= 40; n++) {
    events.push({ kind: 'text', text: `Step ${n}: ${text(n, 180)}`, ts: step(900), tsSource: 'agent' });
    const id = `call_${n}`;
    let call;
    let result;
    switch (n % 5) {
      case 0: {
        const fails = n % 10 === 0;
        call = { name: 'Bash', input: { command: 'npm test -- routes', description: 'Run the route tests' } };
        result = {
          output: fails
            ? `FAIL src/routes.test.ts\n${text(n, 2400)}\nExpected 200, received 500`
            : `PASS ${text(n, 1200)}`,
          exitCode: fails ? 1 : 0,
          isError: fails,
        };
        break;
      }
      case 1:
        call = { name: 'Read', input: { file_path: `/repo/src/routes/r${n}.ts` } };
        result = { output: text(n + 7, 12_000), isError: false };
        break;
      case 2:
        call = { name: 'Grep', input: { pattern: `handler${n}`, path: 'src' } };
        result = { output: text(n + 3, 1_500), isError: false };
        break;
      case 3:
        call = {
          name: 'Edit',
          input: {
            file_path: `/repo/src/routes/r${n - 2}.ts`,
            old_string: text(n, 300),
            new_string: text(n + 1, 320),
          },
        };
        result = { output: 'The file has been updated.', isError: false };
        break;
      default:
        call =
          n === 4
            ? { name: 'Bash', input: { command: 'curl -s http://127.0.0.1:3000/api/health' } }
            : { name: 'Bash', input: { command: `ls src/routes && wc -l src/routes/r${n}.ts` } };
        result = { output: n === 4 ? '{"status":"ok"}' : text(n, 400), isError: false };
    }
    events.push({ kind: 'tool_call', id, ...call, ts: step(20), tsSource: 'agent' });
    events.push({ kind: 'tool_result', callId: id, ...result, ts: step(700), tsSource: 'agent' });
  }
  events.push({
    kind: 'text',
    text: 'The route tests pass now and /api/health answers ok.',
    ts: step(800),
    tsSource: 'agent',
  });
  return { events, startedAt: T0, endedAt: ts };
}

/** A local judge answering every question validly, whatever ids it is asked about. */
async function localJudge() {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const prompt = JSON.parse(body)
        .messages.map((m) => m.content)
        .join('\n');
      const ids = Array.from({ length: 200 }, (_, i) => i + 1);
      let answer;
      if (prompt.includes('AXIS judge: goal'))
        answer = { grades: [0, 1, 2].map((i) => ({ criterion_index: i, score: 8, rationale: 'ok' })) };
      else if (prompt.includes('AXIS judge: agent'))
        answer = {
          audits: ids.map((id) => ({ id, success: 1, weight: 0.9, relevance: 0.9, rationale: 'ok' })),
          necessity: { score: 0.9, unnecessaryIds: [], rationale: 'ok' },
          patterns: [],
        };
      else answer = { audits: ids.map((id) => ({ id, success: 1, rationale: 'ok' })) };
      const out = JSON.stringify({
        model: 'bench',
        content: [{ type: 'text', text: JSON.stringify(answer) }],
        usage: { input_tokens: 0, output_tokens: 0 },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(out);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function longTranscript() {
  const { events, startedAt, endedAt } = longEvents();
  const streamBytes = events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)) + 1, 0);
  const judge = await localJudge();
  try {
    const criteria = [0, 1, 2].map((i) => ({
      kind: 'judge',
      index: i,
      label: `c${i}`,
      weight: 1 / 3,
      check: `Criterion ${i}`,
    }));
    const { score } = await scoreRun(
      {
        scenarioKey: 'bench/long',
        scenarioName: 'Long synthetic run',
        agentName: 'claude-code',
        prompt: 'Fix the failing route tests and confirm the API answers.',
        criteria,
        status: 'completed',
        transcript: {
          agent: 'claude-code',
          events,
          result: 'The route tests pass now and /api/health answers ok.',
          usage: { input: 50_000, output: 4_000, cacheReadInput: 0 },
          exitCode: 0,
          startedAt,
          endedAt,
          durationMs: endedAt - startedAt,
        },
      },
      {
        weights: resolveScoringWeights(undefined),
        cache: new JudgeCache(null),
        judge: async () => ({
          client: createAnthropicJudge({
            model: 'bench',
            baseUrl: judge.url,
            apiKey: 'k',
            retry: { maxRetries: 0, timeoutMs: 10_000 },
            cacheId: null,
          }),
        }),
      },
    );
    const j = score.judge;
    const rows = [
      { label: 'long transcript: tool calls', value: 40 },
      { label: 'long transcript: stream size', value: `${fmt(Math.round(streamBytes / 1024))} KB` },
    ];
    for (const r of j.judges)
      rows.push({ label: `long transcript: ${r.name} judge input`, value: `${fmt(r.inputChars)} chars` });
    rows.push({
      label: 'long transcript: all judge calls',
      value: `${fmt(j.inputChars)} chars`,
      target: `< ${fmt(TARGET_CHARS)} chars`,
    });
    rows.push({ label: 'long transcript: estimated judge input tokens', value: fmt(tokens(j.inputChars)) });
    rows.push({ label: 'long transcript: run status', value: score.status });
    return rows;
  } finally {
    await judge.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The quick-start suite

function quickstart() {
  if (!existsSync(join(ROOT, 'node_modules/.bin/claude')))
    return [{ label: 'quick-start suite', value: 'skipped (no claude CLI)' }];
  const dir = tempDir('axis-bench-judge-');
  try {
    cpSync(join(ROOT, 'examples/quickstart'), dir, {
      recursive: true,
      filter: (src) => !src.includes('.axis'),
    });
    const run = spawnSync(process.execPath, [join(ROOT, 'bin/axis.js'), 'run', '--json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (run.status !== 0)
      return [{ label: 'quick-start suite', value: `axis run failed (exit ${run.status})` }];
    const [id] = readdirSync(join(dir, '.axis/reports'));
    const manifest = JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8'));
    const rows = [];
    for (const e of manifest.results) {
      const j = e.score?.judge;
      if (!j) continue;
      rows.push({ label: `quick-start ${e.scenarioKey}`, value: `${fmt(j.inputChars)} chars` });
      rows.push({ label: `quick-start ${e.scenarioKey} (est. tokens)`, value: fmt(tokens(j.inputChars)) });
    }
    return rows;
  } finally {
    discard(dir);
  }
}
