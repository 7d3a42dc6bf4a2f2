import { describe, expect, it } from 'vitest';
import { parse as parseToml, stringify as toToml } from 'smol-toml';
import {
  acpMcpServers,
  claudeMcpConfig,
  codexMcpServers,
  geminiMcpServers,
  opencodeMcp,
} from '../../../src/adapters/mcp.js';
import { AWKWARD_SERVERS } from './helpers.js';

describe('MCP config per agent', () => {
  it('Claude Code: mcpServers with explicit types, names kept exactly', () => {
    const json = JSON.parse(JSON.stringify(claudeMcpConfig(AWKWARD_SERVERS)));
    expect(Object.keys(json.mcpServers)).toEqual(Object.keys(AWKWARD_SERVERS));
    expect(json.mcpServers['docs.v1']).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['server.js', '--flag=a b'],
      env: { 'API.KEY': 'k"1' },
    });
    expect(json.mcpServers['with space']).toEqual({
      type: 'http',
      url: 'https://mcp.example.test/mcp',
      headers: { Authorization: 'Bearer x' },
    });
    expect(json.mcpServers['quo"te\\back']).toEqual({ type: 'stdio', command: 'srv', args: [] });
  });

  it('Codex: the TOML round-trips with dotted, spaced, quoted and unicode names; every server is required', () => {
    const toml = toToml({ mcp_servers: codexMcpServers(AWKWARD_SERVERS) });
    expect(toml).toContain('[mcp_servers."docs.v1"]');
    const back = parseToml(toml) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(Object.keys(back.mcp_servers).sort()).toEqual(Object.keys(AWKWARD_SERVERS).sort());
    expect(back.mcp_servers['docs.v1']).toEqual({
      command: 'node',
      args: ['server.js', '--flag=a b'],
      env: { 'API.KEY': 'k"1' },
      required: true,
    });
    expect(back.mcp_servers['with space']).toEqual({
      url: 'https://mcp.example.test/mcp',
      http_headers: { Authorization: 'Bearer x' },
      required: true,
    });
    expect(back.mcp_servers['ünï[code]']).toEqual({ url: 'http://127.0.0.1:9/mcp', required: true });
  });

  it('Gemini CLI / Qwen Code: httpUrl for HTTP servers, trusted', () => {
    const out = geminiMcpServers(AWKWARD_SERVERS) as Record<string, Record<string, unknown>>;
    expect(out['with space']).toEqual({
      httpUrl: 'https://mcp.example.test/mcp',
      headers: { Authorization: 'Bearer x' },
      trust: true,
    });
    expect(out['docs.v1']).toMatchObject({ command: 'node', trust: true });
  });

  it('opencode: local command arrays and remote servers', () => {
    const out = opencodeMcp(AWKWARD_SERVERS) as Record<string, Record<string, unknown>>;
    expect(out['docs.v1']).toEqual({
      type: 'local',
      command: ['node', 'server.js', '--flag=a b'],
      environment: { 'API.KEY': 'k"1' },
      enabled: true,
    });
    expect(out['with space']).toEqual({
      type: 'remote',
      url: 'https://mcp.example.test/mcp',
      enabled: true,
      headers: { Authorization: 'Bearer x' },
    });
  });

  it('ACP: name/value lists', () => {
    expect(acpMcpServers({ s: { type: 'stdio', command: 'c', env: { A: '1' } } })).toEqual([
      { name: 's', command: 'c', args: [], env: [{ name: 'A', value: '1' }] },
    ]);
    expect(acpMcpServers({ h: { type: 'http', url: 'u' } })).toEqual([
      { type: 'http', name: 'h', url: 'u', headers: [] },
    ]);
  });
});
