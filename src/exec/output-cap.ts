/**
 * Output caps for one job. The raw log cap bounds what is kept of the agent's output (parsed and written
 * to `<agent>.raw.ndjson`); the text cap bounds every text of the stored transcript (the final answer, each
 * text, thinking and tool output), so neither the per-run files nor memory grow with a runaway agent. A
 * job whose output was cut is not `completed`: it is `limit_exceeded` with a reason that says what was kept.
 */
import type { Transcript, TranscriptEvent } from '../transcript/model.js';

/** Agent output kept per job: stdout parsed (adapters) and raw lines stored. */
export const RAW_LOG_CAP_BYTES = 32 * 1024 * 1024;
/** Longest stdout line read whole (exec/process.ts); a longer one keeps only its start. */
export const LINE_CAP_BYTES = 8 * 1024 * 1024;
/** Longest single text in the transcript (final answer, message, tool output). */
export const TEXT_CAP_CHARS = 1024 * 1024;
/**
 * Most transcript events kept per run. 32 MiB of one-line events (`{"type":"tool_call"}`) would otherwise
 * become a detail file over 400 MiB, past what AXIS reads back (the store's 256 MiB cap).
 */
export const MAX_EVENTS = 50_000;

export interface OutputCut {
  /** Stdout bytes the agent printed, when more than the cap (from the adapter's `stdout_truncated` note). */
  stdoutBytes?: number;
  /** Stdout lines longer than LINE_CAP_BYTES, cut to it (the rest of each dropped). */
  linesCut?: number;
  /** Raw lines dropped once the raw log reached the cap. */
  rawLinesDropped: number;
  /** Transcript texts cut to TEXT_CAP_CHARS (the final answer among them when `answerChars` is set). */
  textsCut: number;
  /** Transcript events dropped past MAX_EVENTS. */
  eventsDropped?: number;
  answerChars?: number;
}

/** Where a job's raw lines go as they arrive: the report's raw file (report/raw-file.ts). */
export interface RawLineSink {
  /** One raw line (without its newline); `utf8`, when given, must be exactly its UTF-8 encoding. */
  write(line: string, utf8?: Buffer): void;
  /** Moves the file into place; resolves true when it was written, false when nothing was printed. */
  commit(): Promise<boolean>;
}

/**
 * Passes raw lines up to the cap to the job's raw file as they arrive (none are held here) and counts
 * what it drops. Without a sink (the job never got a workspace) lines are only counted.
 */
export class RawLog {
  kept = 0;
  private bytes = 0;
  dropped = 0;
  constructor(
    private readonly sink?: RawLineSink,
    private readonly cap = RAW_LOG_CAP_BYTES,
  ) {}
  /** `utf8`: the line's UTF-8 encoding when the caller has it. */
  push(line: string, utf8?: Buffer): void {
    const size = (utf8 ? utf8.length : Buffer.byteLength(line)) + 1;
    if (this.bytes + size > this.cap) {
      this.dropped++;
      return;
    }
    this.bytes += size;
    this.kept++;
    this.sink?.write(line, utf8);
  }
  /** The raw file moved into place: true when written, false when nothing was kept (throws on failure). */
  async commit(): Promise<boolean> {
    return this.sink ? this.sink.commit() : false;
  }
}

/** Cuts the transcript's long texts in place; returns what was cut. */
export function capTranscript(t: Transcript, rawLinesDropped: number, cap = TEXT_CAP_CHARS): OutputCut {
  const cut: OutputCut = { rawLinesDropped, textsCut: 0 };
  const clip = (text: string): string => {
    if (text.length <= cap) return text;
    cut.textsCut++;
    return `${text.slice(0, cap)}\n… [cut by AXIS: ${text.length} characters, first ${cap} kept]`;
  };
  if (t.result !== null && t.result.length > cap) {
    cut.answerChars = t.result.length;
    t.result = clip(t.result);
  }
  for (const e of t.events as TranscriptEvent[]) {
    if ((e.kind === 'text' || e.kind === 'thinking') && e.text.length > cap) e.text = clip(e.text);
    else if (e.kind === 'tool_result' && e.output.length > cap) e.output = clip(e.output);
    else if (e.kind === 'system' && e.subtype === 'stdout_truncated') {
      const total = (e.data as { totalBytes?: unknown } | undefined)?.totalBytes;
      if (typeof total === 'number') cut.stdoutBytes = total;
    }
  }
  if (t.events.length > MAX_EVENTS) {
    cut.eventsDropped = t.events.length - MAX_EVENTS;
    t.events = t.events.slice(0, MAX_EVENTS);
  }
  return cut;
}

/** The reason of a job whose output was cut, or undefined when nothing was. */
export function outputCutReason(cut: OutputCut): string | undefined {
  const parts: string[] = [];
  const linesCut = cut.linesCut ?? 0;
  // With lines cut, less than the first 32 MiB was kept: say what was read, then the cut lines.
  if (cut.stdoutBytes !== undefined)
    parts.push(
      `the agent printed ${mib(cut.stdoutBytes)} on stdout, the first ${mib(RAW_LOG_CAP_BYTES)} were ` +
        (linesCut > 0 ? 'read' : 'kept'),
    );
  else if (cut.rawLinesDropped > 0)
    parts.push(`${cut.rawLinesDropped} raw line(s) past ${mib(RAW_LOG_CAP_BYTES)} were dropped`);
  if (linesCut > 0)
    parts.push(
      `${linesCut} stdout line(s) longer than ${mib(LINE_CAP_BYTES)} were cut to their first ${mib(LINE_CAP_BYTES)}`,
    );
  if (cut.answerChars !== undefined)
    parts.push(
      `the final answer (${cut.answerChars} characters) was cut to its first ${TEXT_CAP_CHARS} characters`,
    );
  const others = cut.textsCut - (cut.answerChars !== undefined ? 1 : 0);
  if (others > 0) parts.push(`${others} other text(s) were cut to ${TEXT_CAP_CHARS} characters`);
  if (cut.eventsDropped)
    parts.push(`${cut.eventsDropped} transcript event(s) past the first ${MAX_EVENTS} were dropped`);
  return parts.length > 0 ? `Output limit reached: ${parts.join('; ')}` : undefined;
}

function mib(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
}
