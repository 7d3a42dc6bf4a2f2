import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { geminiMcpDown, mcpDownError, opencodeMcpDown } from '../../../src/adapters/mcp-down.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-mcp-down-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MCP servers that did not start, from Gemini CLI and opencode logs', () => {
  it("Gemini CLI's debug log: each configured server once, with its error", async () => {
    const log = join(dir, 'gemini.log');
    writeFileSync(
      log,
      [
        "[t] [LOG] [MCP error] Error during discovery for MCP server 'broken': spawn /x ENOENT Error: spawn /x ENOENT",
        "[t] [LOG] [MCP error] Error during discovery for MCP server 'broken': spawn /x ENOENT",
        "[t] [LOG] [MCP error] Fatal error ensuring MCP server 'web' is connected: fetch failed",
        "[t] [LOG] [MCP error] Error during discovery for MCP server 'other': not ours",
        '[t] [LOG] MCP context refresh complete.',
      ].join('\n'),
    );
    const down = await geminiMcpDown(log, ['docs', 'broken', 'web']);
    expect(down).toEqual([
      { name: 'broken', detail: 'spawn /x ENOENT Error: spawn /x ENOENT' },
      { name: 'web', detail: 'fetch failed' },
    ]);
    expect(mcpDownError('Gemini CLI', down)).toEqual({
      class: 'setup_failed',
      message:
        'MCP servers "broken", "web" did not start (Gemini CLI reports: spawn /x ENOENT Error: spawn /x ENOENT; fetch failed); the agent ran without them',
    });
    expect(await geminiMcpDown(join(dir, 'missing.log'), ['broken'])).toEqual([]);
  });

  it("opencode's log files: a configured server logged unavailable", async () => {
    const logs = join(dir, 'opencode-log');
    mkdirSync(logs);
    writeFileSync(
      join(logs, 'opencode.log'),
      'level=WARN run=1 message="server unavailable" key=broken type=local status=failed\n' +
        'level=WARN run=1 message="server unavailable" key=stray type=remote status=failed\n' +
        'level=INFO run=1 message=init count=1\n',
    );
    const down = await opencodeMcpDown(logs, ['docs', 'broken']);
    expect(down).toEqual([{ name: 'broken', detail: 'status failed' }]);
    expect(mcpDownError('opencode', down)?.message).toBe(
      'MCP server "broken" did not start (opencode reports: status failed); the agent ran without it',
    );
    expect(mcpDownError('opencode', [])).toBeUndefined();
    expect(await opencodeMcpDown(join(dir, 'none'), ['broken'])).toEqual([]);
  });
});
