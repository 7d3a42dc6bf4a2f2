/** `mcp_servers` of both types load for every built-in agent, `command` and `acp` included. */
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { hello, project } from './helpers.js';

const stdio = { type: 'stdio', command: 'node', args: ['server.mjs'] };
const http = { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': '${TOKEN}' } };

test('stdio and http servers load for every built-in agent', async () => {
  const dir = project({
    'axis.config.json': {
      scenarios: './scenarios',
      agents: [
        'claude-code',
        'codex',
        'gemini',
        'qwen-code',
        'opencode',
        { agent: 'acp', command: 'x' },
        { agent: 'command', command: './agent.sh' },
      ],
      mcp_servers: { docs: stdio, web: http },
    },
    'scenarios/hello.json': { ...hello, mcp_servers: { more: http } },
  });
  const loaded = await loadConfig(undefined, { cwd: dir });
  expect(loaded.config.mcp_servers).toEqual({ docs: stdio, web: http });
  expect(loaded.scenarios[0]?.mcp_servers).toEqual({ more: http });
});
