/**
 * The live view in a real pseudo-terminal (tmux) narrower than its rows, and resized mid-run: one screen
 * line per running job, and no stale row left behind when the terminal reflows the frame.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs } from '../../unit/run/helpers.js';
import { waitFor } from '../../unit/exec/helpers.js';
import { buildDist } from './helpers.js';
import { startGatedRun, tmuxServer } from './tmux.js';

const tmux = tmuxServer('narrow');

const KEYS = ['a-scenario-with-a-long-name-1', 'a-scenario-with-a-long-name-2'];
const SPIN = /[◐◓◑◒]/;

beforeAll(buildDist, 180_000);
afterAll(removeTempDirs);

/** A project of two long-named scenarios whose jobs run until `go` exists, started in a tmux session. */
function start(
  session: string,
  width: number,
  { height = 30, keys = KEYS } = {},
): { gate: string; screen: () => string } {
  // The visible screen: on a reflow tmux keeps the cursor's row and pushes the rows above into the
  // scrollback, where no redraw can reach them.
  return startGatedRun(tmux, session, keys, { width, height });
}

/** The live area's lines: the running rows and the `[done/total]` line after them. */
function liveLines(screen: string): string[] {
  const lines = screen.split('\n');
  const first = lines.findIndex((l) => SPIN.test(l));
  const last = lines.findIndex((l) => /^ {2}\[\d+\/2\]/.test(l));
  return first < 0 || last < 0 ? [] : lines.slice(first, last + 1);
}

/** Both jobs running with tokens counted: the frame has its full width. */
const bothRunning = (screen: string) => KEYS.every((k) => new RegExp(`${k}.*tokens`).test(screen));

it('a 60-column terminal shows each running job on one line, cut with …', async () => {
  const { gate, screen } = start('cols60', 60);
  const agentPhase = () => liveLines(screen()).filter((l) => / agent /.test(l)).length === 2;
  expect(await waitFor(agentPhase, 30_000), screen()).toBe(true);
  const live = liveLines(screen());
  expect(live, screen()).toHaveLength(3);
  expect(live[0], screen()).toMatch(/^ {2}[◐◓◑◒] a-scenario-with-a-long-name-1 +bot +agent +\S*…$/);
  expect(live[1], screen()).toMatch(/^ {2}[◐◓◑◒] a-scenario-with-a-long-name-2 +bot +agent +\S*…$/);
  expect(live[2]).toMatch(/^ {2}\[0\/2\] · 2 running · elapsed/);
  writeFileSync(gate, '');
  expect(await waitFor(() => screen().includes('EXIT='), 30_000), screen()).toBe(true);
  expect(screen()).toContain('EXIT=0');
}, 90_000);

it('a terminal narrowed mid-run leaves no stale running row behind', async () => {
  const { gate, screen } = start('resize', 150);
  expect(await waitFor(() => bothRunning(screen()), 30_000), screen()).toBe(true);
  tmux('resize-window', '-t', 'resize', '-x', '60');
  // A few frames later: each job still has exactly one running row, nothing of the wide frame remains.
  await new Promise((r) => setTimeout(r, 1000));
  const after = screen();
  for (const key of KEYS) expect(after.split(key).length - 1, after).toBe(1);
  expect(
    after.split('\n').filter((l) => /tokens|ETA/.test(l) && !SPIN.test(l) && !l.includes('[')),
    after,
  ).toEqual([]);
  expect(liveLines(after), after).toHaveLength(3);
  writeFileSync(gate, '');
  expect(await waitFor(() => screen().includes('EXIT='), 30_000), screen()).toBe(true);
}, 90_000);

it('more running jobs than the screen has rows: the first ones shown, then how many more', async () => {
  const keys = ['job-1', 'job-2', 'job-3', 'job-4', 'job-5'];
  const { gate, screen } = start('tall', 100, { height: 6, keys });
  const ready = () => /^ {2}\[0\/5\] · 5 running/m.test(screen()) && / agent /.test(screen());
  expect(await waitFor(ready, 30_000), screen()).toBe(true);
  await new Promise((r) => setTimeout(r, 300));
  const lines = screen()
    .split('\n')
    .filter((l) => l !== '');
  expect(lines.slice(-5), screen()).toEqual([
    expect.stringMatching(/^ {2}[◐◓◑◒] job-1 +bot /),
    expect.stringMatching(/^ {2}[◐◓◑◒] job-2 +bot /),
    expect.stringMatching(/^ {2}[◐◓◑◒] job-3 +bot /),
    '  … 2 more running',
    expect.stringMatching(/^ {2}\[0\/5\] · 5 running · elapsed/),
  ]);
  writeFileSync(gate, '');
  expect(await waitFor(() => screen().includes('EXIT='), 30_000), screen()).toBe(true);
}, 90_000);
