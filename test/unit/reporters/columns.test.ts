/**
 * The run's terminal lines are columns: every row's agent, phase/status, duration and tokens start at the
 * same display column, whatever the scenario keys and agent names hold (CJK and emoji take two columns,
 * a combining mark none), and a job's row keeps its columns as it moves from running to finished.
 */
import { describe, expect, it } from 'vitest';
import { painter } from '../../../src/reporters/format.js';
import { createListReporter } from '../../../src/reporters/list.js';
import { liveFrame, LiveState } from '../../../src/reporters/live-view.js';
import type { RunBegin, Screen } from '../../../src/reporters/types.js';
import type { JobRef } from '../../../src/runner/events.js';
import { textWidth } from '../../../src/util/width.js';
import { jobRef, jobResult as result } from './fixtures.js';

const ref = (index: number, scenarioKey: string, agentName = 'claude-code') =>
  jobRef(index, scenarioKey, { agentName });

const run = (jobs: JobRef[]): RunBegin => ({
  reportId: 'r',
  reportDir: '/r',
  jobs,
  scenarios: jobs.length,
  agents: 1,
  concurrency: jobs.length,
  simulate: false,
  startedAt: 0,
});

/** The display column where `needle` starts in `line`. */
const col = (line: string, needle: string) => {
  const at = line.indexOf(needle);
  expect(at, `${needle} in ${line}`).toBeGreaterThanOrEqual(0);
  return textWidth(line.slice(0, at));
};

function frame(jobs: JobRef[]): string[] {
  const s = new LiveState();
  s.begin(run(jobs));
  for (const j of jobs) s.start(j, 0);
  return liveFrame(s, 1000, painter(false)).split('\n').slice(0, -1);
}

/** The finished lines a plain (non-TTY) list reporter prints for `jobs`. */
async function finishedLines(jobs: JobRef[]): Promise<string[]> {
  let out = '';
  const screen: Screen = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (out += t) },
    env: {},
    cwd: '/project',
  };
  const r = await createListReporter(screen, { toStderr: false });
  r.onBegin?.(run(jobs));
  for (const j of jobs) r.onJobEnd?.(j, result(j));
  r.dispose?.();
  return out.split('\n').filter((l) => l.includes(' completed '));
}

const WIDE = [
  ref(0, 'cms/post'),
  ref(1, '日本語/記事', 'モデル'),
  ref(2, '🚀/launch'),
  ref(3, 'cafe\u0301/menu', 'agent-ü'),
];

describe('terminal columns', () => {
  it('line up by display width in the live rows, with CJK, emoji and combining marks', () => {
    const rows = frame(WIDE);
    expect(rows).toHaveLength(4);
    const agents = ['claude-code', 'モデル', 'claude-code', 'agent-ü'];
    expect(new Set(rows.map((r, i) => col(r, agents[i]!))).size).toBe(1);
    expect(new Set(rows.map((r) => col(r, 'starting'))).size).toBe(1);
    expect(new Set(rows.map((r) => col(r, '1.0s'))).size).toBe(1);
  });

  it('line up by display width in the finished lines', async () => {
    const lines = await finishedLines(WIDE);
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((l) => col(l, 'completed'))).size).toBe(1);
    expect(new Set(lines.map((l) => col(l, '1.2s'))).size).toBe(1);
    expect(new Set(lines.map((l) => col(l, 'tokens'))).size).toBe(1);
  });

  it('are the same for a job running and finished, keys up to the live width', async () => {
    for (const keys of [
      ['a', 'b'.repeat(40)],
      ['a', 'b'.repeat(50)],
      ['a', '長'.repeat(25)],
    ]) {
      const jobs = keys.map((k, i) => ref(i, k));
      const running = frame(jobs)[0]!;
      const [done, long] = await finishedLines(jobs);
      expect(col(done!, 'claude-code'), keys.join()).toBe(col(running, 'claude-code'));
      // A finished line keeps the key whole: the log is where it is read later.
      expect(long).toContain(keys[1]);
    }
  });

  it('clip a key too wide for the live row at a grapheme, within its column', () => {
    const jobs = [ref(0, 'a'), ref(1, '長'.repeat(25)), ref(2, '🚀'.repeat(30))];
    const rows = frame(jobs);
    expect(new Set(rows.map((r) => col(r, 'claude-code'))).size).toBe(1);
    expect(rows[1]).toContain('…');
    expect(rows[2]).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
