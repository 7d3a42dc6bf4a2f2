/**
 * The terminal reporter. On a TTY (stderr) it keeps a live area of running jobs (phase, elapsed, tokens,
 * retries) under the finished ones, redrawn by log-update, loaded only then so `axis --help` stays fast.
 * Elsewhere it prints one plain line when a job starts and one when it ends. Both end with the same
 * summary table.
 */
import { formatComparison } from '../compare/format.js';
import { formatVerdict, GATE_WIDTH, gateLines } from '../compare/verdict.js';
import { foldLine } from '../util/fold.js';
import type { RunVerdict } from '../compare/verdict-types.js';
import type { JobRef } from '../runner/events.js';
import type { JobResult } from '../report/job-result.js';
import type { JobStatus } from '../transcript/model.js';
import { totalTokens } from '../report/job-result.js';
import { safeText } from '../report/format.js';
import { scoreText } from '../report/scores.js';
import {
  colorEnabled,
  formatDuration,
  headerText,
  jobLabel,
  num,
  painter,
  shortReason,
  summaryText,
  type Paint,
} from './format.js';
import { flushAtExit, flushedNow } from '../util/exit-flush.js';
import { padEndWidth, textWidth } from '../util/width.js';
import { liveFrame, LiveState } from './live-view.js';
import type { JobProgress, Reporter, RunBegin, RunEnd, RunFailure, Screen } from './types.js';

const ICONS: Record<JobStatus, string> = {
  completed: '✓',
  failed: '✗',
  limit_exceeded: '✗',
  timeout: '✗',
  cancelled: '○',
};

/** Redraws the live area at most this often; elapsed times tick with it. */
const FRAME_MS = 100;
/** The indent of a finished job's second lines (its score, a reason too wide for the first). */
const SUB = '      ';
/**
 * Plain lines are written together, at most this long after the first of them. Writing each line as it
 * came was one write to a pipe per job start and end: on Linux a pipe write is synchronous and wakes
 * its reader (a CI runner, a `| tee`), which took the CPU from AXIS's main thread mid-run. A reader
 * sees every line within this delay, in order.
 */
export const PLAIN_FLUSH_MS = 100;

interface LiveArea {
  draw(text: string): void;
  /** Writes lines above the live area, which is then redrawn. */
  persist(text: string): void;
  clear(): void;
  done(): void;
}

export interface ListOptions {
  /**
   * stdout is taken by a document (`--json`): everything goes to stderr, as plain lines without colour
   * (FORCE_COLOR still wins) — machine output, no live display.
   */
  toStderr: boolean;
  /** false forces plain lines even on a TTY. */
  live?: boolean;
}

/**
 * A terminal of 0 rows or 0 columns (a pseudo-terminal nobody sized: `script` or a CI runner's) cannot
 * hold a live area: log-update writes nothing at all there, not even the lines above it. Such a terminal
 * gets the plain lines.
 */
function hasSize(stream: Screen['stderr']): boolean {
  return stream.rows !== 0 && stream.columns !== 0;
}

/**
 * A terminal narrowed under the live area rewraps (reflows) each frame line now wider than it onto more
 * rows, while log-update still erases one row per line it wrote: the upper rows of the old frame stayed
 * on screen as stale running rows. Before the next write this erases the rows the reflow added, after
 * `clear` has erased as many rows as log-update knows of.
 */
function reflowGuard(stderr: Screen['stderr'], clear: () => void) {
  let shown: { widths: number[]; columns: number } | undefined;
  return {
    before(): void {
      const columns = stderr.columns ?? 0;
      if (shown && columns > 0 && columns < shown.columns) {
        const extra = shown.widths.reduce((n, w) => n + Math.max(0, Math.ceil(w / columns) - 1), 0);
        if (extra > 0) {
          clear();
          stderr.write(`${'\x1b[2K\x1b[1A'.repeat(extra)}\x1b[2K\x1b[G`);
        }
      }
      shown = undefined;
    },
    /** Records the frame's lines as log-update wrote them: at most the bottom rows - 1 of them. */
    drawn(text: string): void {
      const lines = text.split('\n');
      const room = stderr.rows ? Math.max(0, stderr.rows - 1) : lines.length;
      shown = { widths: lines.slice(lines.length - room).map(textWidth), columns: stderr.columns ?? 0 };
    },
  };
}

/** Builds the list reporter; on a TTY this loads the renderer (log-update). */
export async function createListReporter(screen: Screen, opts: ListOptions): Promise<Reporter> {
  const { stderr } = screen;
  const liveOn =
    opts.live !== false &&
    !opts.toStderr &&
    Boolean(stderr.isTTY) &&
    screen.env.TERM !== 'dumb' &&
    hasSize(stderr);
  let area: LiveArea | undefined;
  if (liveOn) {
    const { createLogUpdate } = await import('log-update');
    const update = createLogUpdate(stderr as NodeJS.WriteStream, { showCursor: false });
    const reflow = reflowGuard(stderr, () => update.clear());
    area = {
      draw: (text) => {
        reflow.before();
        update(text);
        reflow.drawn(text);
      },
      persist: (text) => {
        reflow.before();
        const lines = text.replace(/\n$/, '');
        // log-update clips what it writes to the terminal's height: lines that would not fit are written
        // whole above the live area instead (a pane resized to a row or two mid-run).
        if (lines.split('\n').length < (stderr.rows || Infinity)) return update.persist(lines);
        update.clear();
        stderr.write(text);
      },
      clear: () => {
        reflow.before();
        update.clear();
      },
      done: () => update.done(),
    };
  }
  return new ListReporter(screen, opts, area);
}

class ListReporter implements Reporter {
  readonly name = 'list';
  /** Colours of the running lines (the live area's stream when live) … */
  private readonly paint: Paint;
  /** … and of the summary, which goes to stdout unless a document took it: `axis run > log` gets none. */
  private readonly endPaint: Paint;
  private readonly state = new LiveState();
  private timer: NodeJS.Timeout | undefined;
  /** Plain mode: the retry counts already reported per job, so a retry storm prints a few lines only. */
  private readonly retryShown = new Map<number, number>();
  /** Plain mode: lines not yet written, and the timer that writes them. */
  private held = '';
  private flushTimer: NodeJS.Timeout | undefined;
  /** The summary (and its Gate line) was written. */
  private ended = false;

  constructor(
    private readonly screen: Screen,
    private readonly opts: ListOptions,
    private readonly area: LiveArea | undefined,
  ) {
    const env = opts.toStderr ? { ...screen.env, NO_COLOR: '1' } : screen.env;
    this.endPaint = painter(colorEnabled(opts.toStderr ? screen.stderr : screen.stdout, env));
    this.paint = area ? painter(colorEnabled(screen.stderr, screen.env)) : this.endPaint;
  }

  onBegin(run: RunBegin): void {
    this.state.begin(run);
    this.line(headerText(run));
    if (this.area) {
      this.timer = setInterval(() => this.redraw(), FRAME_MS);
      this.timer.unref?.();
    }
  }

  onJobStart(job: JobRef): void {
    this.state.start(job, Date.now());
    if (this.area) this.redraw();
    else this.line(`  ${this.paint('dim', '▶')} ${this.name_(job)}  started`);
  }

  onJobProgress(event: JobProgress): void {
    this.state.progress(event);
    if (event.type !== 'job_retry' || this.area) return;
    // Plain lines: the 1st, 2nd, 4th, 8th … failure of a streak.
    const n = event.retry.failures;
    const shown = this.retryShown.get(event.job.index) ?? 0;
    if (n > shown && (n & (n - 1)) === 0) {
      this.retryShown.set(event.job.index, n);
      this.line(`  ${this.paint('red', '↻')} ${this.name_(event.job)}  ${event.retry.cause}`);
    }
  }

  onJobEnd(_job: JobRef, result: JobResult): void {
    this.state.end(result);
    this.line(this.jobLine(result));
  }

  onLog(level: 'verbose' | 'warn', message: string, job?: JobRef): void {
    const where = job ? `[${job.scenarioKey} · ${jobLabel(job)}] ` : '';
    // Lifecycle scripts' output is quoted here: its escape sequences must not reach the terminal.
    const text = `${level === 'warn' ? 'warning: ' : ''}${where}${safeText(message)}\n`;
    if (this.area) this.area.persist(text);
    else if (this.opts.toStderr) this.out(text);
    else {
      // On a shared terminal the lines before it must come first.
      this.flush();
      this.screen.stderr.write(text);
    }
  }

  onEnd(end: RunEnd, verdict?: RunVerdict): void {
    this.stopLive();
    this.ended = true;
    const text = summaryText(end.manifest, {
      reportRel: end.reportRel,
      ...(end.afterAllError ? { afterAllError: end.afterAllError } : {}),
      configArg: end.configArg,
      lost: end.lost,
      ...(end.reportMissing ? { reportMissing: true } : {}),
      ...(verdict ? { verdict } : {}),
      paint: this.endPaint,
      ...(this.endColumns() ? { width: this.endColumns() } : {}),
    });
    this.out(text);
    if (end.comparison) this.out(`\n${formatComparison(end.comparison)}`);
    const gateText = verdict ? formatVerdict(verdict, this.endColumns()) : '';
    if (gateText) this.out(`\n${gateText}`);
    this.flush();
  }

  onError(_err: unknown, _exitCode: number, run?: RunFailure): void {
    this.stopLive();
    // A run that failed after its jobs (-o no longer writable) has the gate `axis reports` shows: say it.
    if (run?.begun && !this.ended) this.out(this.lateGate(run.verdict));
    this.flush();
  }

  dispose(): void {
    this.stopLive();
    this.flush();
  }

  /**
   * Writes the plain lines held back (see {@link PLAIN_FLUSH_MS}). Live, clears the area instead: the next
   * frame redraws relative to the cursor and would overwrite a message written below it (Ctrl-C's).
   */
  flush(): void {
    this.area?.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    flushedNow(this);
    if (this.held === '') return;
    const text = this.held;
    this.held = '';
    (this.opts.toStderr ? this.screen.stderr : this.screen.stdout).write(text);
  }

  private stopLive(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.area) {
      this.area.clear();
      this.area.done();
    }
  }

  private redraw(): void {
    const { columns, rows } = this.screen.stderr;
    this.area?.draw(liveFrame(this.state, Date.now(), this.paint, columns || 120, rows || Infinity));
  }

  /** The end of the summary a failed run did not print: its Gate line and CI gate block, or why none. */
  private lateGate(v: RunVerdict | undefined): string {
    if (!v) return '\nGate: not judged: the run failed before its verdict was computed\n';
    const width = this.endColumns();
    const gate = gateLines(v, width).map((l) => this.endPaint(v.pass ? 'green' : 'red', l));
    const ci = formatVerdict(v, width);
    return `\n${gate.join('\n')}\n${ci ? `\n${ci}` : ''}`;
  }

  /** A line of the running log: above the live area on a TTY, else plain. */
  private line(text: string): void {
    if (this.area) {
      this.area.persist(`${text}\n`);
      this.redraw();
    } else this.out(`${text}\n`);
  }

  /** Plain output, held for at most {@link PLAIN_FLUSH_MS} and written with what follows it. */
  /** The columns of the terminal the summary goes to; none in a CI log (a pipe, an unsized terminal). */
  private endColumns(): number | undefined {
    const stream = this.opts.toStderr ? this.screen.stderr : this.screen.stdout;
    return stream.isTTY && stream.columns ? stream.columns : undefined;
  }

  private out(text: string): void {
    this.held += text;
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => this.flush(), PLAIN_FLUSH_MS);
    // Not a reason to stay alive: an exit writes what is held.
    this.flushTimer.unref?.();
    flushAtExit(this);
  }

  /** Key and label in the live view's columns, whole: a wider one pushes the rest of its line only. */
  private name_(job: JobRef): string {
    return `${padEndWidth(job.scenarioKey, this.state.keyWidth)}  ${padEndWidth(jobLabel(job), this.state.agentWidth)}`;
  }

  private jobLine(r: JobResult): string {
    const ok = r.status === 'completed';
    const icon = this.paint(ok ? 'green' : r.status === 'cancelled' ? 'yellow' : 'red', ICONS[r.status]);
    const cols = [
      `  ${icon} ${this.name_(r)}`,
      r.status.padEnd(14),
      formatDuration(r.durationMs).padStart(7),
      `${num(totalTokens(r.transcript.usage))} tokens`.padStart(14),
    ];
    let line = cols.join('  ');
    const width = this.endColumns() ?? GATE_WIDTH;
    if (r.reason) {
      const why = `${r.errorClass && r.errorClass !== r.status ? `${r.errorClass}: ` : ''}${shortReason(r.reason)}`;
      // Too wide for the terminal (80 in a CI log): the reason goes under the columns, as the score does.
      const one = `${line}  ${why}`;
      line =
        textWidth(one) <= width ? one : [line, ...foldLine(`${SUB}${why}`, width, SUB.length)].join('\n');
    }
    // The score goes on its own indented line (failed runs say it all on the first), with its note under.
    if (r.score && r.score.status !== 'failed') {
      const [head = '', ...notes] = scoreText(r.score).split('\n');
      const under = [`${SUB}${head}`, ...notes].flatMap((l) => foldLine(l, width, SUB.length));
      line += `\n${under.join('\n')}`;
    }
    return line;
  }
}
