/**
 * The judge's credentials are secrets whatever their variable is called: a judge endpoint that echoes the
 * key it was sent (`judge.api_key_env` naming `JUDGE_CREDS`), or a judge agent whose error quotes its own
 * `env`, must not put them in a report file or on the terminal, in `axis run` or in `axis score`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

checkLeaks();
afterAll(removeTempDirs);

const T = 90_000;
const KEY = 'judge-Creds-2718281828';
const AGENT_TOKEN = 'judge-Agent-3141592653';

let server: Server;
let url = '';
let quoting: Server;
let quotingUrl = '';
beforeAll(async () => {
  buildDist();
  // An Anthropic-style endpoint that rejects every key, quoting it (some proxies do).
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      const message = `invalid x-api-key: ${String(req.headers['x-api-key'])}`;
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A judge that answers every question validly, its rationale quoting the key it was sent. */
function quotingAnswer(body: string, key: string): unknown {
  if (body.includes('AXIS judge: goal'))
    return { grades: [{ criterion_index: 0, score: 9, rationale: `graded with ${key}` }] };
  return {
    audits: [1, 2, 3].map((id) => ({ id, weight: 1, relevance: 1, success: 1, rationale: `key ${key}` })),
    necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
    patterns: [],
  };
}
beforeAll(async () => {
  quoting = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const text = JSON.stringify(quotingAnswer(body, String(req.headers['x-api-key'])));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'msg',
          type: 'message',
          role: 'assistant',
          model: 'judge-model',
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((r) => quoting.listen(0, '127.0.0.1', r));
  quotingUrl = `http://127.0.0.1:${(quoting.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => quoting.close(() => r())));

function project(judge: Record<string, unknown>): string {
  return makeProject({
    'axis.config.json': {
      agents: [
        { agent: 'command', name: 'a', command: process.execPath, args: ['-e', 'console.log("done")'] },
      ],
      judge,
    },
    'scenarios/s.json': { name: 'S', prompt: 'go', judge: [{ check: 'the agent said done' }] },
  });
}

function expectNowhere(dir: string, secret: string, out: { stdout: string; stderr: string }): void {
  expect(out.stdout).not.toContain(secret);
  expect(out.stderr).not.toContain(secret);
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!statSync(join(dir, rel)).isFile() || /^(axis\.config\.json|scenarios\/)/.test(rel)) continue;
    expect(readFileSync(join(dir, rel), 'utf8'), relative(dir, join(dir, rel))).not.toContain(secret);
  }
}

/** `axis run --json`, then `axis score`: the judge failed both times, and said why (exit 1 both). */
async function runAndRescore(dir: string, env: Record<string, string>, secret: string): Promise<void> {
  const run = await axis(['run', '--json'], dir, env);
  // No pair could be scored, so the gate fails the run (unscored-gate.test.ts).
  expect(run.code, run.stderr).toBe(1);
  expectNowhere(dir, secret, run);
  expect(run.stdout).toContain('[REDACTED]');
  const score = await axis(['score'], dir, env);
  // Nothing scored again: axis score says so as the gate does (unscored-gate.test.ts).
  expect(score.code, score.stderr).toBe(1);
  expect(score.stderr).toContain('error: no run was scored: ');
  expectNowhere(dir, secret, score);
  expect(score.stdout + score.stderr).toContain('[REDACTED]');
}

describe('judge credentials', () => {
  it(
    'axis score prints what it wrote: a judge error quoting a key named like a secret, redacted',
    async () => {
      const dir = project({
        provider: 'anthropic',
        base_url: url,
        api_key_env: 'JUDGE_API_KEY',
        max_retries: 0,
      });
      await runAndRescore(dir, { JUDGE_API_KEY: KEY }, KEY);
    },
    T,
  );

  it(
    'the key judge.api_key_env names is redacted though its name does not look secret',
    async () => {
      const dir = project({
        provider: 'anthropic',
        base_url: url,
        api_key_env: 'JUDGE_CREDS',
        max_retries: 0,
      });
      await runAndRescore(dir, { JUDGE_CREDS: KEY }, KEY);
    },
    T,
  );

  it(
    'an answer quoting the key is cached without it (.axis/cache/judge), by axis run and axis score',
    async () => {
      const dir = project({ provider: 'anthropic', base_url: quotingUrl, api_key_env: 'JUDGE_CREDS' });
      const env = { JUDGE_CREDS: KEY };
      const run = await axis(['run'], dir, env);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(readdirSync(join(dir, '.axis/cache/judge')).length).toBeGreaterThan(0);
      expectNowhere(dir, KEY, run);
      const score = await axis(['score', '--no-cache'], dir, env);
      expect(score.code, score.stdout + score.stderr).toBe(0);
      expectNowhere(dir, KEY, score);
      // What was cached still answers, as the report shows it.
      const cached = await axis(['score'], dir, env);
      expect(cached.stdout).toMatch(/0 call\(s\), \d+ cached/);
      expect(cached.stdout).toContain('AXIS 9');
      expectNowhere(dir, KEY, cached);
    },
    T,
  );

  it(
    "a judge agent's env values named like secrets are redacted",
    async () => {
      const script = `console.log(JSON.stringify({ type: 'error', message: 'bad token ' + process.env.JUDGE_AGENT_TOKEN })); process.exit(1);`;
      const judgeAgent = {
        agent: 'command',
        name: 'j',
        command: process.execPath,
        args: ['-e', script],
        output: 'ndjson',
        env: { JUDGE_AGENT_TOKEN: AGENT_TOKEN },
      };
      const dir = project({ provider: 'agent', agent: judgeAgent, max_retries: 0 });
      await runAndRescore(dir, {}, AGENT_TOKEN);
    },
    T,
  );
});
