/**
 * MCP servers that did not start, read from the files Gemini CLI and opencode write: both run on without
 * such a server and exit 0, and neither says so in its output stream (Gemini prints only "MCP issues
 * detected" on stderr). The job then fails as setup_failed naming the server, as with the other CLIs.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ParsedStream, RunError } from '../transcript/model.js';

export interface DownServer {
  name: string;
  /** What the CLI says about it (an error, a status). */
  detail: string;
}

/** The job's error for servers that did not start; undefined when all did. */
export function mcpDownError(cli: string, down: DownServer[]): RunError | undefined {
  if (down.length === 0) return undefined;
  const names = down.map((d) => `"${d.name}"`).join(', ');
  const details = down.map((d) => d.detail).join('; ');
  const one = down.length === 1;
  return {
    class: 'setup_failed',
    message: `${one ? 'MCP server' : 'MCP servers'} ${names} did not start (${cli} reports: ${details}); the agent ran without ${one ? 'it' : 'them'}`,
  };
}

/** The server's error wins over the stream's: the agent's later trouble follows from it. */
export function withMcpDown(parsed: ParsedStream, error: RunError | undefined): ParsedStream {
  return error ? { ...parsed, error } : parsed;
}

function addDown(down: DownServer[], configured: string[], name: string, detail: string): void {
  if (configured.includes(name) && !down.some((d) => d.name === name)) down.push({ name, detail });
}

/** A stdio server's error text names the command; one line, cut short. */
function short(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * Gemini CLI's debug log (GEMINI_DEBUG_LOG_FILE): a server it could not connect to or list the tools of
 * is logged as `[MCP error] Error during discovery for MCP server '<name>': <error>` (or `Fatal error
 * ensuring MCP server '<name>' is connected: …`).
 */
export async function geminiMcpDown(logFile: string, configured: string[]): Promise<DownServer[]> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  const down: DownServer[] = [];
  const re =
    /\[MCP error\] (?:Error during discovery for MCP server|Fatal error ensuring MCP server) '([^']+)'(?: is connected)?: ([^\n]*)/g;
  for (const m of text.matchAll(re)) addDown(down, configured, m[1]!, short(m[2]!));
  return down;
}

/**
 * opencode's log files (`<XDG_DATA_HOME>/opencode/log/*.log`): a server it could not use is logged as
 * `message="server unavailable" key=<name> type=<local|remote> status=<failed|needs_auth|…>`.
 */
export async function opencodeMcpDown(logDir: string, configured: string[]): Promise<DownServer[]> {
  // No server configured, nothing to find: the log files of every other run are not read.
  if (configured.length === 0) return [];
  const names = await readdir(logDir).catch(() => [] as string[]);
  const down: DownServer[] = [];
  for (const file of names.filter((n) => n.endsWith('.log')).sort()) {
    const text = await readFile(join(logDir, file), 'utf8').catch(() => '');
    for (const m of text.matchAll(/message="server unavailable" key=(\S+) type=\S+ status=(\S+)/g)) {
      addDown(down, configured, m[1]!, `status ${m[2]!}`);
    }
  }
  return down;
}
