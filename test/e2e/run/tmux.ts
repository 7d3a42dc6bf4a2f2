import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { makeProject } from '../../unit/run/helpers.js';
import { BIN } from './helpers.js';

/**
 * A tmux server of this test file's own (its socket name holds the file's tag and process id, so it never
 * touches anyone else's), killed after the file's tests. Returns the tmux command bound to that server.
 */
export function tmuxServer(tag: string): (...args: string[]) => string {
  const socket = `axis-${tag}-test-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // no server was started
    }
  });
  return tmux;
}

/** An NDJSON agent reporting usage every 200 ms; it answers once the file its argument names exists. */
const GATED_AGENT = `import { existsSync } from 'node:fs';
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const t = setInterval(() => {
  out({ type: 'usage', input: 100, output: 20 });
  if (existsSync(process.argv[2])) { clearInterval(t); out({ type: 'result', text: 'done' }); }
}, 200);
`;

/**
 * `axis run --no-score` of a project with one scenario per key, all run at once by the agent `bot`, whose
 * jobs stay running until `gate` is created; started in a detached `width`×`height` session of `tmux`,
 * which prints `EXIT=<code>` after. Returns the gate and the session's visible screen.
 */
export function startGatedRun(
  tmux: (...args: string[]) => string,
  session: string,
  keys: readonly string[],
  { width, height }: { width: number; height: number },
): { gate: string; screen: () => string } {
  const dir = makeProject({ 'agent.mjs': GATED_AGENT });
  const gate = join(dir, 'go');
  const agent = {
    agent: 'command',
    name: 'bot',
    command: process.execPath,
    args: [join(dir, 'agent.mjs'), gate],
  };
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents: [{ ...agent, output: 'ndjson' }] }),
  );
  mkdirSync(join(dir, 'scenarios'));
  const scenario = { name: 'x', prompt: 'p', checks: [{ result_matches: 'done' }] };
  for (const key of keys) writeFileSync(join(dir, 'scenarios', `${key}.json`), JSON.stringify(scenario));
  const cmd = `${process.execPath} ${BIN} run --no-score --concurrency ${keys.length}; echo "EXIT=$?"; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', String(width), '-y', String(height), '-c', dir, cmd);
  return { gate, screen: () => tmux('capture-pane', '-p', '-t', session) };
}
