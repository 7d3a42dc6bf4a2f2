/**
 * `network: "loopback"` with the real Claude Code CLI against the simulator: the agent still reaches its
 * provider (the simulator) and a local service that setup started on the host, when the scenario
 * declares its port, and is scored as usual; without the port the same request is refused inside.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const QUICKSTART = join(ROOT, 'examples/quickstart');

/** A port nothing listens on right now (the service's, so parallel test files do not collide). */
function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }),
  );
}

interface Detail {
  status: string;
  transcript: { result: string | null; events: { kind: string; output?: unknown }[] };
  simulator: { requests: number };
  score?: {
    axisScore: number;
    goalAchievement: { score: number; criteria: { check: string; score: number | null }[] };
  };
}

describe('network "loopback" with Claude Code', () => {
  it('reaches the simulator and the declared local service and scores normally; an undeclared port is refused', async () => {
    const port = await freePort();
    const withPort = (text: string) => text.replaceAll('47311', String(port));
    const scenario = JSON.parse(
      withPort(readFileSync(join(QUICKSTART, 'scenarios/service/http-status.json'), 'utf8')),
    );
    delete scenario.$schema;
    const tape = withPort(readFileSync(join(QUICKSTART, 'tapes/service/http-status.json'), 'utf8'));
    const dir = makeProject({
      'axis.config.json': {
        scenarios: './scenarios',
        agents: ['claude-code'],
        env: { QUICKSTART_PORT: String(port) },
        settings: { concurrency: 1, simulate: true, limits: { scenario: { time_minutes: 5 } } },
      },
      'fixtures/status-server.mjs': readFileSync(join(QUICKSTART, 'fixtures/status-server.mjs'), 'utf8'),
      'scenarios/allowed.json': { ...scenario, network: { mode: 'loopback', ports: [port] } },
      'scenarios/blocked.json': { ...scenario, network: 'loopback' },
      'tapes/allowed.json': tape,
      'tapes/blocked.json': tape,
    });
    const r = await axis(['run', '-v'], dir);
    const out = `${r.stdout}\n${r.stderr}`;
    const root = join(dir, '.axis/reports');
    const id = readdirSync(root)[0]!;
    const read = (key: string) => readJson<Detail>(join(root, id, 'scenarios', key, 'claude-code.json'));
    expect(out).toMatch(
      new RegExp(
        `\\[allowed · claude-code\\] network: loopback only; host 127\\.0\\.0\\.1 ports forwarded: \\d+ \\(simulator\\), ${port} \\(network\\.ports\\)`,
      ),
    );

    const allowed = read('allowed');
    expect(allowed.status, out).toBe('completed');
    expect(allowed.simulator.requests).toBeGreaterThan(0);
    expect(JSON.stringify(allowed.transcript.events)).toContain('\\"state\\":\\"ready\\"');
    expect(allowed.transcript.result).toMatch(/ready/);
    expect(allowed.score?.goalAchievement.score).toBe(100);

    const blocked = read('blocked');
    expect(blocked.status, out).toBe('completed');
    expect(JSON.stringify(blocked.transcript.events)).toMatch(
      /Couldn't connect to server|Connection refused/,
    );
    expect(blocked.transcript.result).toMatch(/did not answer/);
    // The service was up all along (the host-side http check passes); only the agent could not reach it.
    const criteria = blocked.score?.goalAchievement.criteria ?? [];
    expect(criteria.find((c) => c.check.includes('still up'))?.score).toBe(10);
    expect(criteria.find((c) => c.check.includes('names the state'))?.score).toBe(0);
    expect(blocked.score!.goalAchievement.score).toBeLessThan(100);
  }, 300_000);

  it('reaches an HTTP MCP server on host loopback without declaring its port (taken from its url)', async () => {
    const port = await freePort();
    const server = spawn(
      process.execPath,
      [join(ROOT, 'test/fixtures/mcp-server/http-server.mjs'), String(port)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise((resolve) => server.stdout!.once('data', resolve));
      const dir = makeProject({
        'axis.config.json': {
          scenarios: './scenarios',
          agents: ['claude-code'],
          settings: { simulate: true, network: 'loopback', limits: { scenario: { time_minutes: 4 } } },
        },
        'scenarios/echo.json': {
          name: 'Echo over HTTP MCP',
          prompt: 'Call the echo tool of the web MCP server with the text ping.',
          judge: [{ check: 'The agent called echo' }],
          mcp_servers: { web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } },
        },
        'tapes/echo.json': {
          turns: [
            { tools: [{ mcp: { server: 'web', tool: 'echo', args: { text: 'ping' } } }] },
            { text: 'The echo tool answered.' },
          ],
        },
      });
      const r = await axis(['run', '--no-score', '-v'], dir);
      const out = `${r.stdout}\n${r.stderr}`;
      expect(out).toContain(`${port} (MCP server web)`);
      const root = join(dir, '.axis/reports');
      const detail = readJson<Detail>(join(root, readdirSync(root)[0]!, 'scenarios/echo/claude-code.json'));
      expect(detail.status, out).toBe('completed');
      const events = detail.transcript.events as {
        kind: string;
        name?: string;
        output?: string;
        isError?: boolean;
      }[];
      const call = events.findIndex((e) => e.kind === 'tool_call' && e.name === 'mcp__web__echo');
      expect(call, out).toBeGreaterThanOrEqual(0);
      expect(events.slice(call).find((e) => e.kind === 'tool_result')).toMatchObject({
        isError: false,
        output: expect.stringContaining('echo: ping'),
      });
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) =>
        server.exitCode !== null ? resolve(null) : server.once('exit', resolve),
      );
    }
  }, 300_000);
});
