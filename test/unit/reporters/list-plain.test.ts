/**
 * The terminal reporter's plain lines (no TTY: CI logs, pipes) are written in batches at most
 * PLAIN_FLUSH_MS apart, never lost and never out of order: before a warning on stderr, before the
 * summary, on dispose, on an error and when the process exits.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Dispatcher } from '../../../src/reporters/index.js';
import { createListReporter, PLAIN_FLUSH_MS } from '../../../src/reporters/list.js';
import type { Reporter, Screen } from '../../../src/reporters/types.js';
import { jobRef as ref, jobResult as result, runBegin, sampleManifest } from './fixtures.js';

const ROOT = join(import.meta.dirname, '../../..');

/** A non-TTY screen recording every write as [stream, text], in order across both streams. */
function recordingScreen(): { screen: Screen; writes: Array<[string, string]> } {
  const writes: Array<[string, string]> = [];
  const screen: Screen = {
    stdout: { write: (t: string) => writes.push(['stdout', t]) },
    stderr: { write: (t: string) => writes.push(['stderr', t]) },
    env: {},
    cwd: '/project',
  };
  return { screen, writes };
}

const jobs = [ref(0, 'cms/post'), ref(1, 'cms/page')];

/** The runner's `run_started` event for `jobs`. */
const { startedAt: _startedAt, ...started } = runBegin(jobs, 2);
const RUN_STARTED = { type: 'run_started', ...started } as const;

function begin(r: Reporter): void {
  r.onBegin?.(runBegin(jobs, 2));
}

/** A plain-mode reporter whose run has begun and whose first job has started. */
async function startedReporter(toStderr: boolean) {
  const { screen, writes } = recordingScreen();
  const r = await createListReporter(screen, { toStderr });
  begin(r);
  r.onJobStart?.(jobs[0]!);
  return { r, writes };
}

const text = (writes: Array<[string, string]>, stream = 'stdout') =>
  writes
    .filter(([s]) => s === stream)
    .map(([, t]) => t)
    .join('');

describe('plain terminal lines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('are held, then written in one write, in order, within PLAIN_FLUSH_MS of the first', async () => {
    const { r, writes } = await startedReporter(false);
    r.onJobStart?.(jobs[1]!);
    vi.advanceTimersByTime(PLAIN_FLUSH_MS - 1);
    expect(writes).toEqual([]);
    r.onJobEnd?.(jobs[1]!, result(jobs[1]!));
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(1);
    const lines = text(writes).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AXIS: /);
    expect(lines.slice(1).map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      '▶ cms/post claude-code started',
      '▶ cms/page claude-code started',
      '✓ cms/page claude-code completed 1.2s 15 tokens',
    ]);
    // The next line starts a new batch.
    r.onJobEnd?.(jobs[0]!, result(jobs[0]!));
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(PLAIN_FLUSH_MS);
    expect(writes).toHaveLength(2);
    expect(writes[1]![1]).toContain('✓ cms/post');
    r.dispose?.();
  });

  it('come before a warning written to stderr, and the summary after the last of them', async () => {
    const { r, writes } = await startedReporter(false);
    r.onLog?.('warn', 'the judge is slow', jobs[0]);
    r.onJobEnd?.(jobs[0]!, result(jobs[0]!));
    await r.onEnd?.({
      manifest: sampleManifest(),
      reportDir: '/r',
      reportRel: '.axis/reports/r',
      lost: [],
      configArg: '',
    } as never);
    // Nothing left for a timer: onEnd wrote it all.
    const before = writes.length;
    vi.advanceTimersByTime(10 * PLAIN_FLUSH_MS);
    expect(writes).toHaveLength(before);
    expect(writes.map(([s]) => s)).toEqual(['stdout', 'stderr', 'stdout']);
    expect(writes[0]![1]).toContain('▶ cms/post');
    expect(writes[1]![1]).toBe('warning: [cms/post · claude-code] the judge is slow\n');
    const rest = writes[2]![1];
    expect(rest.indexOf('✓ cms/post')).toBeGreaterThanOrEqual(0);
    expect(rest.indexOf('✓ cms/post')).toBeLessThan(rest.indexOf('Report saved'));
    r.dispose?.();
  });

  it('with stdout taken by a document, go to stderr with the warnings, in order', async () => {
    const { r, writes } = await startedReporter(true);
    r.onLog?.('verbose', 'asked the judge');
    vi.advanceTimersByTime(PLAIN_FLUSH_MS);
    expect(writes.map(([s]) => s)).toEqual(['stderr']);
    expect(text(writes, 'stderr')).toMatch(/started\nasked the judge\n$/);
    r.dispose?.();
  });

  it('are written at once by a flush through the dispatcher, by dispose and by an error', async () => {
    for (const end of ['flush', 'dispose', 'error'] as const) {
      const { screen, writes } = recordingScreen();
      const r = await createListReporter(screen, { toStderr: false });
      const d = new Dispatcher([r], screen);
      d.onEvent(RUN_STARTED as never);
      d.onEvent({ type: 'job_started', job: jobs[0]! } as never);
      expect(writes).toEqual([]);
      if (end === 'flush') d.flush();
      else if (end === 'dispose') d.dispose();
      else d.error(new Error('boom'), 1);
      // An error after the jobs began also says the gate was never judged (late-gate.test.ts).
      const after = end === 'error' ? '\nGate: not judged: [^\n]*\n' : '';
      expect(text(writes), end).toMatch(new RegExp(`cms/post\\s+claude-code\\s+started\n${after}$`));
      d.dispose();
    }
  });
});

describe('plain terminal lines at 80 columns (a CI log)', () => {
  it("an unscored job's reason wider than the line folds under it, indented", async () => {
    const { r, writes } = await startedReporter(false);
    const reason =
      'goal judge failed: anthropic claude-sonnet-4-5: HTTP 529: Overloaded (4 attempts), retried';
    const dim = { score: null };
    const dims = { goalAchievement: dim, environment: dim, service: dim, agent: dim };
    const score = { status: 'unscored', reason, axisScore: null, ...dims };
    r.onJobEnd?.(jobs[0]!, { ...result(jobs[0]!), score } as never);
    r.dispose?.();
    const lines = text(writes).trimEnd().split('\n');
    const at = lines.findIndex((l) => l.includes('completed'));
    const under = lines.slice(at + 1);
    for (const l of under) expect(l.length, l).toBeLessThanOrEqual(80);
    expect(under.length).toBe(2);
    expect(under.every((l) => l.startsWith('      '))).toBe(true);
    expect(under.map((l) => l.trim()).join(' ')).toBe(`unscored: ${reason}`);
  });
});

describe('plain terminal lines at exit', () => {
  it('a process that exits while lines are held still prints them, through a pipe, in order', () => {
    const script = `
      const { createListReporter } = await import(${JSON.stringify(join(ROOT, 'dist/reporters/list.js'))});
      const screen = { stdout: process.stdout, stderr: process.stderr, env: {}, cwd: '/' };
      const r = await createListReporter(screen, { toStderr: false, live: false });
      const jobs = [0, 1, 2].map((i) => ({ index: i, scenarioKey: 's' + i, scenarioName: 's' + i,
        agentName: 'a', run: 1, runs: 1 }));
      r.onBegin({ reportId: 'r', reportDir: '/r', jobs, scenarios: 3, agents: 1, concurrency: 3,
        simulate: false, startedAt: 0 });
      for (const j of jobs) r.onJobStart(j);
      process.exit(3);`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out.status).toBe(3);
    expect(out.stderr).toBe('');
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AXIS: /);
    expect(lines.slice(1).map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      '▶ s0 a started',
      '▶ s1 a started',
      '▶ s2 a started',
    ]);
  });
});
