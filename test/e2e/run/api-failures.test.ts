/**
 * A bad key or a dead network, with the real Claude Code CLI: it retries its provider calls (api_retry),
 * the terminal says so while it happens, and settings.limits.api_failures stops the run with the API cause
 * in the terminal and in report.json, well before the scenario time limit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist, unfoldCrosses } from './helpers.js';

const LIMIT_MINUTES = 0.1; // 6 s of failing calls
const T = 120_000;
let server: Server;
let port401 = 0;

beforeAll(async () => {
  buildDist();
  // A provider that rejects every key.
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'authentication_error', message: 'invalid x-api-key' },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port401 = (server.address() as AddressInfo).port;
}, 180_000);
afterAll(async () => {
  await new Promise((r) => server.close(r));
  removeTempDirs();
});

function project(): string {
  const dir = makeProject({});
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [{ agent: 'claude-code' }],
      settings: { limits: { api_failures: LIMIT_MINUTES, scenario: { time_minutes: 5 } } },
    }),
  );
  writeFileSync(
    join(dir, 'scenarios/hello.json'),
    JSON.stringify({ name: 'hello', prompt: 'say hi', judge: [{ check: 'said hi' }] }),
  );
  return dir;
}

async function runAgainst(baseUrl: string) {
  const dir = project();
  const started = Date.now();
  const r = await axis(['run', '--no-score'], dir, {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-bad-key-for-test',
  });
  const elapsed = Date.now() - started;
  const [id] = readdirSync(join(dir, '.axis/reports'));
  const report = readJson<{ results: { status: string; reason: string; errorClass: string }[] }>(
    join(dir, '.axis/reports', id!, 'report.json'),
  );
  return { r, elapsed, result: report.results[0]! };
}

describe('provider failures end the run early with their cause (real Claude Code)', () => {
  it(
    'a rejected key (HTTP 401 on every call)',
    async () => {
      const { r, elapsed, result } = await runAgainst(`http://127.0.0.1:${port401}`);
      expect(r.code, r.stderr).toBe(1);
      // Live: the first retry is announced while the agent still runs.
      expect(r.stdout).toMatch(/↻ hello +claude-code +API rejected the key \(401\) after 1 retry/);
      expect(unfoldCrosses(r.stdout)).toMatch(
        /✗ hello · claude-code: No run completed: API rejected the key \(401\) after \d+ retries: stopped after 0\.1m of failing provider calls/,
      );
      expect(result.status).toBe('failed');
      expect(result.errorClass).toBe('auth');
      expect(result.reason).toMatch(/^API rejected the key \(401\) after \d+ retries: stopped after 0\.1m/);
      // Within the configured limit (6 s from the first failure) plus start-up and stop time; the
      // scenario limit is 5 minutes.
      expect(elapsed).toBeLessThan(60_000);
      expect(r.stdout).not.toContain('sk-ant-bad-key-for-test');
    },
    T,
  );

  it(
    'no listener on the provider port (no network)',
    async () => {
      // A port that was just free: nothing listens, every connection is refused.
      const probe = createServer();
      await new Promise<void>((res) => probe.listen(0, '127.0.0.1', res));
      const free = (probe.address() as AddressInfo).port;
      await new Promise((res) => probe.close(res));
      const { r, result } = await runAgainst(`http://127.0.0.1:${free}`);
      expect(r.code, r.stderr).toBe(1);
      expect(unfoldCrosses(r.stdout)).toMatch(
        /✗ hello · claude-code: No run completed: API unreachable \(no response\) after \d+ retries/,
      );
      expect(result.errorClass).toBe('network');
    },
    T,
  );
});
