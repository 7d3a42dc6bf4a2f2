/** The test MCP server (test/fixtures/mcp-server) over streamable HTTP, as a real child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const MCP_SERVER_DIR = join(import.meta.dirname, '../fixtures/mcp-server');

/** Starts it on a free 127.0.0.1 port; every call it serves is appended to `log` (JSON lines). */
export function startMcpHttpServer(log: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(MCP_SERVER_DIR, 'http-server.mjs')], {
    env: { ...process.env, AXIS_MCP_LOG: log },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the HTTP MCP server exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
  });
}
