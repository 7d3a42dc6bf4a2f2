/**
 * The live view in a real pseudo-terminal (tmux) with scenario keys of two-column characters: the running
 * rows' columns line up, and a job's finished line keeps the columns its running row had.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs } from '../../unit/run/helpers.js';
import { waitFor } from '../../unit/exec/helpers.js';
import { textWidth } from '../../../src/util/width.js';
import { buildDist } from './helpers.js';
import { startGatedRun, tmuxServer } from './tmux.js';

const tmux = tmuxServer('wide');

const KEYS = ['alpha', '日本語の記事', '🚀'];

beforeAll(buildDist, 180_000);
afterAll(removeTempDirs);

/** The display column where the agent name starts on the screen line of `key` holding `also`. */
function agentColumn(screen: string, key: string, also: string): number | undefined {
  const line = screen.split('\n').find((l) => l.includes(` ${key} `) && l.includes(also));
  return line === undefined ? undefined : textWidth(line.slice(0, line.indexOf(' bot ') + 1));
}

it('keeps running and finished rows in the same columns with wide scenario keys', async () => {
  const { gate, screen } = startGatedRun(tmux, 'wide', KEYS, { width: 150, height: 40 });

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
