/**
 * The live terminal view as data: which jobs run, in which phase, for how long, with how many tokens and
 * retries, and the frame text drawn from it. Pure (the clock is passed in), so tests pin frames exactly.
 */
import type { JobRef } from '../runner/events.js';
import type { JobResult } from '../report/job-result.js';
import { clipWidth, padEndWidth, textWidth } from '../util/width.js';
import { formatDuration, jobLabel, num, type Paint } from './format.js';
import type { JobProgress, RunBegin } from './types.js';

export type Phase = 'starting' | 'setup' | 'agent' | 'judging' | 'teardown';

export interface LiveJob {
  ref: JobRef;
  phase: Phase;
  startedAt: number;
  /** Highest total seen: a reconciliation that lowers the count never makes the display go backwards. */
  tokens: number;
  retries: number;
  retryCause?: string;
}

/** Widest scenario and agent columns, in display columns: a running row must fit one terminal line. */
const KEY_MAX = 40;
const AGENT_MAX = 32;

/**
 * The scenario and agent column widths of a run's lines, running and finished alike: the widest planned
 * key and label, at least 10 and at most KEY_MAX / AGENT_MAX columns.
 */
export function columnWidths(jobs: readonly JobRef[]): { keyWidth: number; agentWidth: number } {
  const widest = (texts: string[], max: number) => Math.min(max, Math.max(10, ...texts.map(textWidth)));
  const keys = jobs.map((j) => j.scenarioKey);
  return { keyWidth: widest(keys, KEY_MAX), agentWidth: widest(jobs.map(jobLabel), AGENT_MAX) };
}

const PHASE_OF: Partial<Record<JobProgress['type'], Phase>> = {
  job_setup: 'setup',
  job_running: 'agent',
  job_judging: 'judging',
  job_teardown: 'teardown',
};

export class LiveState {
  readonly running = new Map<number, LiveJob>();
  done = 0;
  failed = 0;
  total = 0;
  concurrency = 1;
  startedAt = 0;
  /** Column widths over every planned job, the finished lines' too, so both line up. */
  keyWidth = 10;
  agentWidth = 10;
  /** Sum of finished jobs' durations, for the ETA. */
  private finishedMs = 0;

  begin(run: RunBegin): void {
    this.total = run.jobs.length;
    this.concurrency = Math.max(1, run.concurrency);
    this.startedAt = run.startedAt;
    ({ keyWidth: this.keyWidth, agentWidth: this.agentWidth } = columnWidths(run.jobs));
  }

  start(ref: JobRef, now: number): void {
    this.running.set(ref.index, { ref, phase: 'starting', startedAt: now, tokens: 0, retries: 0 });
  }

  progress(event: JobProgress): void {
    const job = this.running.get(event.job.index);
    if (!job) return;
    const phase = PHASE_OF[event.type];
    if (phase) job.phase = phase;
    if (event.type === 'job_tokens') job.tokens = Math.max(job.tokens, event.total);
    if (event.type === 'job_retry') {
      job.retries = event.retry.failures;
      job.retryCause = event.retry.cause;
    }
  }

  end(result: JobResult): LiveJob | undefined {
    const job = this.running.get(result.index);
    this.running.delete(result.index);
    this.done++;
    // A cancelled job did not fail: the summary and the gate do not count it as failed either.
    if (result.status !== 'completed' && result.status !== 'cancelled') this.failed++;
    this.finishedMs += result.durationMs;
    return job;
  }

  /**
   * Remaining time from the finished jobs' mean duration: what the running jobs still need plus the
   * queued ones, spread over the lanes, and never less than the longest running job still needs.
   */
  etaMs(now: number): number | undefined {
    if (this.done === 0) return undefined;
    const mean = this.finishedMs / this.done;
    const remaining = [...this.running.values()].map((j) => Math.max(0, mean - (now - j.startedAt)));
    const queued = Math.max(0, this.total - this.done - this.running.size);
    const spread = (remaining.reduce((n, r) => n + r, 0) + queued * mean) / this.concurrency;
    return Math.max(spread, ...remaining, 0);
  }
}

const SPIN = ['◐', '◓', '◑', '◒'];

/**
 * The live area: one row per running job, then the `[done/total]` line with the ETA. Each line is cut to
 * `width` columns: a row wrapped onto two lines halves what the screen holds, and a wrapped frame is what
 * a narrowed terminal reflows. A terminal of `height` rows shows the first jobs and `… N more running`:
 * log-update would cut the frame's top, hiding the longest-running jobs without a word.
 */
export function liveFrame(
  state: LiveState,
  now: number,
  paint: Paint,
  width = 120,
  height = Infinity,
): string {
  const rows = [...state.running.values()].sort((a, b) => a.ref.index - b.ref.index);
  const spin = SPIN[Math.floor(now / 250) % SPIN.length]!;
  // The progress line and the cursor's line below the frame take two rows.
  const room = height - 2;
  const shown = rows.length > room ? rows.slice(0, Math.max(0, room - 1)) : rows;
  const lines = shown.map((j) => jobRow(state, j, now, width, spin, paint));
  if (shown.length < rows.length && room >= 1)
    lines.push(clipWidth(`  … ${rows.length - shown.length} more running`, width));
  const eta = state.etaMs(now);
  const head = `  [${state.done}/${state.total}] · ${state.running.size} running`;
  const rest = [
    `elapsed ${formatDuration(now - state.startedAt)}`,
    eta === undefined ? 'ETA –' : `ETA ${formatDuration(eta)}`,
  ];
  const failed = state.failed ? ` · ${state.failed} failed` : '';
  const progress = clipWidth([head + failed, ...rest].join(' · '), width);
  return [...lines, paintAt(progress, head.length + 3, failed.slice(3), 'red', paint)].join('\n');
}

/** One running job's row, cut to `width`; the spinner and the retry mark painted where they survive. */
function jobRow(
  state: LiveState,
  j: LiveJob,
  now: number,
  width: number,
  spin: string,
  paint: Paint,
): string {
  const cols = [
    `  ${spin} ${padEndWidth(clipWidth(j.ref.scenarioKey, state.keyWidth), state.keyWidth)}`,
    padEndWidth(clipWidth(jobLabel(j.ref), state.agentWidth), state.agentWidth),
    j.phase.padEnd(14),
    formatDuration(now - j.startedAt).padStart(7),
    j.tokens > 0 ? `${num(j.tokens)} tokens`.padStart(14) : ''.padStart(14),
  ];
  const base = cols.join('  ');
  const retry = j.retries > 0 ? `  ↻ ${j.retryCause ?? `${j.retries} retries`}` : '';
  const line = clipWidth(base + retry, width);
  return paintAt(paintAt(line, textWidth(base) + 2, '↻', 'red', paint), 2, spin, 'yellow', paint);
}

/** `line` with `mark` painted when it still stands whole at column `at` (plain text before it). */
function paintAt(line: string, at: number, mark: string, color: 'red' | 'yellow', paint: Paint): string {
  if (!mark) return line;
  // Columns before `at` may be wide characters: find the mark by display width, not by index.
  const i = line.indexOf(mark, 0);
  for (let k = i; k >= 0; k = line.indexOf(mark, k + 1)) {
    if (textWidth(line.slice(0, k)) === at)
      return line.slice(0, k) + paint(color, mark) + line.slice(k + mark.length);
  }
  return line;
}
