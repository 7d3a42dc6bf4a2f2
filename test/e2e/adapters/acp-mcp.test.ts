/** An HTTP MCP server reaches an ACP agent only if the agent announces HTTP MCP support. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAcpAdapter } from '../../../src/adapters/acp.js';
import { agentEntry, FIXTURES, runAdapter } from './helpers.js';

const adapter = createAcpAdapter({ configDir: FIXTURES });
const stdioOnly = agentEntry('acp', {
  name: 'stdio-only',
  command: process.execPath,
  args: [join(FIXTURES, 'acp-agent/agent.mjs')],
  env: { AXIS_ACP_NO_HTTP: '1' },
});
const remote = { type: 'http' as const, url: 'http://127.0.0.1:9/mcp' };

describe('acp adapter: HTTP MCP servers and the agent capability', () => {
  it('an agent without mcpCapabilities.http fails the job naming the server, before any prompt', async () => {
    const { transcript: t } = await runAdapter(adapter, {
      agent: stdioOnly,
      prompt: 'ECHO_MCP',
      mcpServers: { remote },
    });
    expect(t.error).toMatchObject({ class: 'crash' });
    expect(t.error?.message).toContain('failed at session/new');
    expect(t.error?.message).toContain('does not announce HTTP MCP support');
    expect(t.error?.message).toContain('"remote"');
    expect(t.result).toBeNull();
  });

  it('the same agent still takes stdio servers', async () => {
    const { transcript: t } = await runAdapter(adapter, {
      agent: stdioOnly,
      prompt: 'ECHO_MCP',
      mcpServers: { docs: { type: 'stdio', command: 'docs-server' } },
    });
    expect(t.error).toBeUndefined();
    expect(JSON.parse(t.result ?? 'null')).toEqual([
      { name: 'docs', command: 'docs-server', args: [], env: [] },
    ]);
  });
});
