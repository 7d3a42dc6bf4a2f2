/** `mcp_servers` reach every agent that can take them; for one that cannot, validation says so. */
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { hello, issuesOf, project } from './helpers.js';

const stdio = { type: 'stdio', command: 'node', args: ['server.mjs'] };
const http = { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': '${TOKEN}' } };
const cmd = { name: 'mine', agent: 'command', command: './agent.sh' };

describe('MCP servers per agent', () => {
  test('stdio and http servers load for every built-in CLI and for acp', async () => {
    const dir = project({
      'axis.config.json': {
        scenarios: './scenarios',
        agents: ['claude-code', 'codex', 'gemini', 'qwen-code', 'opencode', { agent: 'acp', command: 'x' }],
        mcp_servers: { docs: stdio, web: http },
      },
      'scenarios/hello.json': { ...hello, mcp_servers: { more: http } },
    });
    const loaded = await loadConfig(undefined, { cwd: dir });
    expect(loaded.config.mcp_servers).toEqual({ docs: stdio, web: http });
    expect(loaded.scenarios[0]?.mcp_servers).toEqual({ more: http });
  });

  test('a command agent given config servers: one error per server, naming the agent and the way out', async () => {
    const dir = project({
      'axis.config.json': {
        scenarios: './scenarios',
        agents: ['claude-code', cmd],
        mcp_servers: { docs: stdio, web: http },
      },
      'scenarios/hello.json': hello,
    });
    expect(await issuesOf(dir)).toEqual([
      {
        file: 'axis.config.json',
        path: 'mcp_servers.docs',
        message:
          'agent "mine" (command) cannot take this stdio MCP server: AXIS can give it no MCP servers (it cannot configure MCP for a command it does not know); limit the scenario to other agents with "agents", or remove the server',
      },
      expect.objectContaining({ file: 'axis.config.json', path: 'mcp_servers.web' }),
    ]);
  });

  test("a scenario's own server is reported in the scenario file; a scenario limited to other agents is fine", async () => {
    const dir = project({
      'axis.config.json': { scenarios: './scenarios', agents: ['codex', cmd] },
      'scenarios/a.json': { ...hello, mcp_servers: { web: http } },
      'scenarios/b.json': { ...hello, agents: ['codex'], mcp_servers: { web: http } },
      'scenarios/c.json': hello,
    });
    expect(await issuesOf(dir)).toEqual([
      expect.objectContaining({
        file: 'scenarios/a.json',
        path: 'mcp_servers.web',
        message: expect.stringContaining('agent "mine" (command) cannot take this http MCP server'),
      }),
    ]);
  });
});
