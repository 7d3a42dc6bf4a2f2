/**
 * An MCP server that cannot start, with the real CLIs: Claude Code and Qwen Code run on without it and
 * exit 0, saying so only in their init line (`status: failed` / `disconnected`); Gemini CLI only in its
 * debug log, opencode only in its log file. The job must fail naming the server, as Codex's does (its
 * servers are `required`), not pass as if the server were there.
 */
import { describe, expect, it } from 'vitest';
import { explain, MCP_SERVERS, runCliCase } from '../adapters/cli-harness.js';
import { agentEntry } from '../adapters/helpers.js';

const T = 120_000;
const DEAD = { type: 'stdio' as const, command: '/nonexistent/axis-mcp-server' };
/** Nothing listens on port 9 of loopback: the connection is refused. */
const DEAD_HTTP = { type: 'http' as const, url: 'http://127.0.0.1:9/mcp' };
/**
 * opencode writes its log lazily: a run over within a second of start-up can exit before the "server
 * unavailable" line reaches the file (docs/adapters.md). A model that takes 2 s, as real ones do, leaves
 * it the time; the others answer at once.
 */
const tapeFor = (name: string) => ({
  turns: [{ text: 'hi', ...(name === 'opencode' ? { delay_ms: 2000 } : {}) }],
});

/** A real run of agent `name` with the working servers and `extra`: its transcript and an explanation. */
async function runWith(name: string, extra: Record<string, typeof DEAD | typeof DEAD_HTTP>) {
  const r = await runCliCase({
    agent: agentEntry(name),
    tape: tapeFor(name),
    prompt: 'say hi',
    timeoutMs: 90_000,
    mcpServers: { ...MCP_SERVERS, ...extra },
  });
  return { error: r.transcript.error, why: explain(r) };
}

describe('an MCP server that fails to start', () => {
  for (const name of ['claude-code', 'qwen-code', 'codex', 'gemini', 'opencode']) {
    it(
      `${name}: the job fails as setup_failed naming the server, not completed without it`,
      async () => {
        const { error, why } = await runWith(name, { broken: DEAD });
        expect(error?.message, why).toContain('broken');
        if (name !== 'codex') {
          expect(error, why).toMatchObject({ class: 'setup_failed' });
          expect(error?.message, why).toMatch(/MCP server "broken" did not start/);
          // The server that did start is not blamed.
          expect(error?.message, why).not.toContain('docs');
        }
      },
      T,
    );
  }

  for (const name of ['gemini', 'opencode']) {
    it(
      `${name}: an HTTP server nobody answers fails the job the same way`,
      async () => {
        const { error, why } = await runWith(name, { gone: DEAD_HTTP });
        expect(error, why).toMatchObject({ class: 'setup_failed' });
        expect(error?.message, why).toMatch(/^MCP server "gone" did not start/);
      },
      T,
    );
  }
});
