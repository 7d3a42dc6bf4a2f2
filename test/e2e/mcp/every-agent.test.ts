/**
 * MCP through every built-in agent, end to end: one `axis run` drives the real claude, codex, gemini,
 * qwen and opencode CLIs against the simulator, each calling the real test MCP server
 * (test/fixtures/mcp-server, built on @modelcontextprotocol/sdk) once over stdio and once over
 * streamable HTTP. The neutral tape says only "call echo on server S"; the simulator maps it to what each
 * CLI offers (Codex's namespace tool, Qwen's tool_search deferral, Gemini's and opencode's names).
 * Proof: the server's own call log, the tool result in each transcript, and the scored report.json
 * counting the call as a service interaction of that server.
 */
import type { ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist, type CliResult } from '../run/helpers.js';
import { NO_RELAUNCH_ENV } from '../../helpers/fast-start.js';
import { MCP_SERVER_DIR as SERVER, startMcpHttpServer } from '../../helpers/mcp-server.js';
import { expectValidReport } from '../../helpers/report-schema.js';

const AGENTS = ['claude-code', 'codex', 'gemini', 'qwen-code', 'opencode'] as const;
/** The name each CLI gives the server's `echo` tool (found from their requests). */
const TOOL_NAME: Record<(typeof AGENTS)[number], (server: string) => string> = {
  'claude-code': (s) => `mcp__${s}__echo`,
  codex: (s) => `mcp__${s}__echo`,
  gemini: (s) => `mcp_${s}_echo`,
  'qwen-code': (s) => `mcp__${s}__echo`,
  opencode: (s) => `${s}_echo`,
};
const TRANSPORTS = [
  { key: 'mcp/stdio', server: 'docs', tag: 'via-stdio' },
  { key: 'mcp/http', server: 'web', tag: 'via-http' },
] as const;

const audits = (extra: Record<string, number> = {}) => ({
  audits: [1, 2, 3, 4].map((id) => ({ id, success: 1, rationale: 'the echo tool answered', ...extra })),
});
function tape(server: string) {
  return {
    name: `echo through ${server}`,
    turns: [
      { tools: [{ mcp: { server, tool: 'echo', args: { text: 'ping' } } }] },
      { text: 'The echo tool answered: echo: ping.' },
    ],
    judge: [
      {
        match: 'AXIS judge: goal',
        answer: { grades: [{ criterion_index: 0, score: 10, rationale: 'called echo' }] },
      },
      { match: 'AXIS judge: environment', answer: audits() },
      { match: 'AXIS judge: service', answer: audits() },
      {
        match: 'AXIS judge: agent',
        answer: {
          ...audits({ weight: 1, relevance: 1 }),
          necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
          patterns: [],
        },
      },
    ],
  };
}

interface Interaction {
  tool?: string;
  categories: string[];
  rule: string;
}
interface Result {
  scenarioKey: string;
  agentName: string;
  status: string;
  score?: { status: string; service: { score: number | null }; interactions?: Interaction[] };
}
interface Detail {
  transcript: { events: { kind: string; name?: string; output?: string; isError?: boolean }[] };
}

const logLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { transport: string; tool: string; text: string; tag: string | null });

describe('MCP through every built-in agent over stdio and HTTP (one axis run, real CLIs)', () => {
  let dir: string;
  let http: ChildProcess | undefined;
  let run: CliResult;
  let results: Result[];
  let reportDir: string;
  let why: string;

  beforeAll(async () => {
    buildDist();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-mcp-e2e-')));
    const server = await startMcpHttpServer(join(dir, 'http.log'));
    http = server.child;
    const files: Record<string, unknown> = {
      'axis.config.json': {
        scenarios: './scenarios',
        agents: AGENTS.map((agent) => ({ agent, env: NO_RELAUNCH_ENV })),
        settings: { concurrency: 5, simulate: true, limits: { scenario: { time_minutes: 4 } } },
      },
      'scenarios/mcp/stdio.json': {
        name: 'Echo through a stdio MCP server',
        prompt: 'Call the echo tool of the docs MCP server with the text ping and report its answer.',
        judge: [{ check: 'The agent called the echo tool and reported its answer' }],
        mcp_servers: {
          docs: {
            type: 'stdio',
            command: process.execPath,
            args: [join(SERVER, 'server.mjs')],
            // A server slow to start: every CLI must wait for it rather than run its first turn without it.
            env: {
              AXIS_MCP_LOG: join(dir, 'stdio.log'),
              AXIS_MCP_TAG: 'via-stdio',
              AXIS_MCP_DELAY_MS: '3000',
            },
          },
        },
      },
      'scenarios/mcp/http.json': {
        name: 'Echo through a streamable HTTP MCP server',
        prompt: 'Call the echo tool of the web MCP server with the text ping and report its answer.',
        judge: [{ check: 'The agent called the echo tool and reported its answer' }],
        mcp_servers: { web: { type: 'http', url: server.url, headers: { 'X-Axis-Tag': 'via-http' } } },
      },
      'tapes/mcp/stdio.json': tape('docs'),
      'tapes/mcp/http.json': tape('web'),
    };
    for (const [rel, body] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), `${JSON.stringify(body, null, 2)}\n`);
    }
    run = await axis(['run'], dir);
    why = `${run.stdout}\n${run.stderr}`.slice(-6000);
    const [id] = readdirSync(join(dir, '.axis/reports'));
    reportDir = join(dir, '.axis/reports', id!);
    results = (JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as { results: Result[] })
      .results;
  }, 600_000);

  afterAll(() => {
    http?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the run completes with every pair scored and a valid report', () => {
    expect(run.code, why).toBe(0);
    expectValidReport(reportDir);
    expect(results.map((r) => `${r.scenarioKey} ${r.agentName} ${r.status}`).sort(), why).toEqual(
      TRANSPORTS.flatMap((t) => AGENTS.map((a) => `${t.key} ${a} completed`)).sort(),
    );
  });

  for (const t of TRANSPORTS) {
    for (const agent of AGENTS) {
      it(`${t.key} · ${agent}: the server answered the call, and report.json counts it as a service interaction of "${t.server}"`, () => {
        const r = results.find((x) => x.scenarioKey === t.key && x.agentName === agent);
        const label = `${t.key} ${agent}: ${JSON.stringify(r?.score?.interactions)}\n${why}`;
        expect(r?.score?.status, label).toBe('scored');
        const name = TOOL_NAME[agent](t.server);
        expect(r?.score?.interactions, label).toContainEqual(
          expect.objectContaining({ tool: name, categories: ['service'], rule: `mcp-server:${t.server}` }),
        );
        expect(r?.score?.service.score, label).not.toBeNull();
        const detail = JSON.parse(
          readFileSync(join(reportDir, 'scenarios', t.key, `${agent}.json`), 'utf8'),
        ) as Detail;
        const events = detail.transcript.events;
        const call = events.findIndex((e) => e.kind === 'tool_call' && e.name === name);
        expect(call, label).toBeGreaterThanOrEqual(0);
        const result = events.slice(call).find((e) => e.kind === 'tool_result');
        expect(result, label).toMatchObject({ isError: false });
        expect(result?.output, label).toContain(`echo: ping [${t.tag}]`);
      });
    }
  }

  it("each server's own log holds exactly one echo call per agent, with the env or header that reached it", () => {
    const stdio = logLines(join(dir, 'stdio.log'));
    expect(stdio, why).toHaveLength(AGENTS.length);
    for (const l of stdio)
      expect(l).toEqual(expect.objectContaining({ transport: 'stdio', text: 'ping', tag: 'via-stdio' }));
    const overHttp = logLines(join(dir, 'http.log'));
    expect(overHttp, why).toHaveLength(AGENTS.length);
    for (const l of overHttp)
      expect(l).toEqual(expect.objectContaining({ transport: 'http', text: 'ping', tag: 'via-http' }));
  });
});
