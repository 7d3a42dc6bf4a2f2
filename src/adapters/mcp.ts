/**
 * MCP servers in each agent's own config format. Pure: server map in, config object out (the callers
 * serialize with JSON.stringify or smol-toml, never by hand, so any server name is safe).
 */
import type { McpServer } from '../config/types.js';

type Json = Record<string, unknown>;

function stdioBase(s: Extract<McpServer, { type: 'stdio' }>): Json {
  const out: Json = { command: s.command, args: [...(s.args ?? [])] };
  if (s.env && Object.keys(s.env).length) out.env = { ...s.env };
  return out;
}

/** Claude Code `--mcp-config` file: `{ mcpServers: { name: {type, ...} } }`. */
export function claudeMcpConfig(servers: Record<string, McpServer>): Json {
  const mcpServers: Json = {};
  for (const [name, s] of Object.entries(servers)) {
    if (s.type === 'stdio') mcpServers[name] = { type: 'stdio', ...stdioBase(s) };
    else mcpServers[name] = { type: 'http', url: s.url, ...(s.headers ? { headers: { ...s.headers } } : {}) };
  }
  return { mcpServers };
}

/** Codex `config.toml` tables `[mcp_servers."<name>"]`: command/args/env, or url/http_headers. */
export function codexMcpServers(servers: Record<string, McpServer>): Json {
  const out: Json = {};
  for (const [name, s] of Object.entries(servers)) {
    // `required`: Codex waits for the server before the first turn and fails if it cannot start, instead
    // of running without it.
    if (s.type === 'stdio') out[name] = { ...stdioBase(s), required: true };
    else out[name] = { url: s.url, ...(s.headers ? { http_headers: { ...s.headers } } : {}), required: true };
  }
  return out;
}

/** Gemini CLI and Qwen Code `settings.json` `mcpServers`: command/args/env, or httpUrl/headers. */
export function geminiMcpServers(servers: Record<string, McpServer>): Json {
  const out: Json = {};
  for (const [name, s] of Object.entries(servers)) {
    if (s.type === 'stdio') out[name] = { ...stdioBase(s), trust: true };
    else out[name] = { httpUrl: s.url, ...(s.headers ? { headers: { ...s.headers } } : {}), trust: true };
  }
  return out;
}

/** opencode `opencode.json` `mcp`: local (command array, environment) or remote (url, headers). */
export function opencodeMcp(servers: Record<string, McpServer>): Json {
  const out: Json = {};
  for (const [name, s] of Object.entries(servers)) {
    if (s.type === 'stdio') {
      const entry: Json = { type: 'local', command: [s.command, ...(s.args ?? [])], enabled: true };
      if (s.env && Object.keys(s.env).length) entry.environment = { ...s.env };
      out[name] = entry;
    } else {
      out[name] = {
        type: 'remote',
        url: s.url,
        enabled: true,
        ...(s.headers ? { headers: { ...s.headers } } : {}),
      };
    }
  }
  return out;
}

/** ACP `session/new` mcpServers: name/value pair lists instead of objects. */
export function acpMcpServers(servers: Record<string, McpServer>): Json[] {
  const pairs = (o: Record<string, string> | undefined) =>
    Object.entries(o ?? {}).map(([name, value]) => ({ name, value }));
  return Object.entries(servers).map(([name, s]) =>
    s.type === 'stdio'
      ? { name, command: s.command, args: [...(s.args ?? [])], env: pairs(s.env) }
      : { type: 'http', name, url: s.url, headers: pairs(s.headers) },
  );
}
