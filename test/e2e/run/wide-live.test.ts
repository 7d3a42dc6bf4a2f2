/**
 * The live view in a real pseudo-terminal (tmux) with scenario keys of two-column characters: the running
 * rows' columns line up, and a job's finished line keeps the columns its running row had.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { waitFor } from '../../unit/exec/helpers.js';
import { textWidth } from '../../../src/util/width.js';
import { BIN, buildDist } from './helpers.js';
import { tmuxServer } from './tmux.js';

const tmux = tmuxServer('wide');

/** Answers once the gate file exists, so the jobs stay running until the test opens it. */
const GATED_AGENT = `import { existsSync } from 'node:fs';
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const t = setInterval(() => {
  out({ type: 'usage', input: 100, output: 20 });
  if (existsSync(process.argv[2])) { clearInterval(t); out({ type: 'result', text: 'done' }); }
}, 200);
`;
const KEYS = ['alpha', '日本語の記事', '🚀'];

beforeAll(buildDist, 180_000);
afterAll(removeTempDirs);

/** The display column where the agent name starts on the screen line of `key` holding `also`. */
function agentColumn(screen: string, key: string, also: string): number | undefined {
  const line = screen.split('\n').find((l) => l.includes(` ${key} `) && l.includes(also));
  return line === undefined ? undefined : textWidth(line.slice(0, line.indexOf(' bot ') + 1));
}

it('keeps running and finished rows in the same columns with wide scenario keys', async () => {
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
  for (const key of KEYS) writeFileSync(join(dir, 'scenarios', `${key}.json`), JSON.stringify(scenario));
  const cmd = `${process.execPath} ${BIN} run --no-score --concurrency 3; echo "EXIT=$?"; sleep 600`;
  tmux('new-session', '-d', '-s', 'wide', '-x', '150', '-y', '40', '-c', dir, cmd);
  const screen = () => tmux('capture-pane', '-p', '-t', 'wide');

  const running = () => KEYS.map((k) => agentColumn(screen(), k, 'agent'));
  expect(await waitFor(() => running().every((c) => c !== undefined), 30_000), screen()).toBe(true);
  const during = running();
  expect(new Set(during).size, `${during.join()}\n${screen()}`).toBe(1);

  writeFileSync(gate, '');
  expect(await waitFor(() => screen().includes('EXIT='), 30_000), screen()).toBe(true);
  const end = screen();
  expect(end).toContain('EXIT=0');
  const finished = KEYS.map((k) => agentColumn(end, k, 'completed'));
  expect(finished, end).toEqual(during);
}, 90_000);
