/**
 * A `command` agent gets the MCP servers in $AXIS_MCP_CONFIG: the toy agent (test/fixtures/command-agent/
 * mcp-agent.mjs) reads it and calls the real test MCP server over stdio and streamable HTTP.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandAdapter } from '../../../src/adapters/command.js';
import { startMcpHttpServer } from '../../helpers/mcp-server.js';
import { agentEntry, FIXTURES, runAdapter, toolCalls, toolResults } from './helpers.js';

const adapter = createCommandAdapter({ configDir: FIXTURES });
const agent = agentEntry('command', {
  name: 'mcp-toy',
  command: './command-agent/mcp-agent.mjs',
  output: 'ndjson',
  prompt_via: 'stdin',
});

let http: ChildProcess;
let url: string;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'axis-cmd-mcp-'));
  ({ child: http, url } = await startMcpHttpServer(join(dir, 'http.log')));
});
afterAll(() => {
  http?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('command adapter: MCP servers through AXIS_MCP_CONFIG', () => {
  it('the agent reaches a stdio and an http server from the file, with their env and headers', async () => {
    const { transcript: t } = await runAdapter(adapter, {
      agent,
      prompt: 'use the MCP servers',
      mcpServers: {
        docs: {
          type: 'stdio',
          command: process.execPath,
          args: [join(FIXTURES, 'mcp-server/server.mjs')],
          env: { AXIS_MCP_TAG: 'env-ok', AXIS_MCP_LOG: join(dir, 'stdio.log') },
        },
        web: { type: 'http', url, headers: { 'X-Axis-Tag': 'header-ok' } },
      },
    });
    expect(t.error).toBeUndefined();
    expect(toolCalls(t).map((c) => c.name)).toEqual(['mcp__docs__echo', 'mcp__web__echo']);
    expect(toolResults(t)).toMatchObject([
      { isError: false, output: 'echo: ping [env-ok]' },
      { isError: false, output: 'echo: ping [header-ok]' },
    ]);
    expect(readFileSync(join(dir, 'stdio.log'), 'utf8')).toContain('"transport":"stdio"');
    expect(readFileSync(join(dir, 'http.log'), 'utf8')).toContain('"transport":"http"');
    expect(t.result).toBe('called 2 MCP servers');
  });

  it('without MCP servers there is no AXIS_MCP_CONFIG', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent, prompt: 'nothing' });
    expect(t.result).toBe('no AXIS_MCP_CONFIG');
  });
});
