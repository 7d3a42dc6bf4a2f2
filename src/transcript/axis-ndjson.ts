/**
 * Output formats for custom `command` agents (docs/transcript.md, "Custom agents").
 * - ndjson: one JSON event per line (text, thinking, tool_call, tool_result, usage, result, error);
 *   lines that are not JSON are kept as the agent's text output.
 * - text: everything on stdout is the answer.
 */
import { classifyError, isErrorClass } from './classify-error.js';
import type {
  ErrorEvent,
  ParsedStream,
  RunError,
  StreamParser,
  TokenUsage,
  ToolResultEvent,
  TranscriptEvent,
} from './model.js';
import { emptyUsage } from './model.js';
import {
  addUsage,
  cost,
  count,
  int,
  parseLine,
  saturatingAdd,
  stamp,
  str,
  toMs,
  unparsedEvent,
  UsageMeter,
  type Json,
  type Stamp,
} from './util.js';

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  return v == null ? '' : JSON.stringify(v);
}

class AxisNdjsonParser implements StreamParser {
  private readonly events: TranscriptEvent[] = [];
  private readonly meter = new UsageMeter();
  private readonly usageNow: TokenUsage = emptyUsage();
  private readonly unanswered: string[] = [];
  private plain: { lines: string[]; event: TranscriptEvent & { kind: 'text' } } | undefined;
  private finalTexts: string[] = [];
  private result: string | undefined;
  private error: RunError | undefined;
  private cost: number | undefined;
  private nextId = 1;

  push(line: string, receivedAt?: number): void {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      if (line.trimStart().startsWith('{')) {
        this.closePlain();
        this.events.push(unparsedEvent(line, parsed.reason, receivedAt));
      } else {
        this.plainLine(line, receivedAt);
      }
      return;
    }
    this.closePlain();
    const ev = parsed.value;
    const at = stamp(toMs(ev.ts), receivedAt);
    const problem = this.onEvent(ev, at);
    if (problem) this.events.push(unparsedEvent(line, problem, receivedAt));
  }

  usage(): TokenUsage {
    return this.meter.report(this.usageNow);
  }

  finish(): ParsedStream {
    this.closePlain();
    const fallback = this.finalTexts.length > 0 ? this.finalTexts.join('\n') : null;
    const out: ParsedStream = {
      events: [...this.events],
      result: this.result ?? fallback,
      usage: { ...this.usageNow },
    };
    if (this.cost !== undefined) out.costUsd = this.cost;
    if (this.error) out.error = this.error;
    return out;
  }

  /** Plain-text lines in a row become one text event (its text is joined when the run ends). */
  private plainLine(line: string, receivedAt: number | undefined): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (this.plain) {
      this.plain.lines.push(text);
      return;
    }
    const event = { kind: 'text' as const, text: '', ...stamp(undefined, receivedAt) };
    this.plain = { lines: [text], event };
    this.events.push(event);
  }

  private closePlain(): void {
    if (!this.plain) return;
    this.plain.event.text = this.plain.lines.join('\n');
    this.finalTexts.push(this.plain.event.text);
    this.plain = undefined;
  }

  /** Returns a problem description when the event is not usable. */
  private onEvent(ev: Json, at: Stamp): string | undefined {
    switch (ev.type) {
      case 'text':
      case 'thinking': {
        const text = str(ev.text);
        if (text === undefined) return `${ev.type} needs a string "text"`;
        this.events.push({ kind: ev.type, text, ...at });
        if (ev.type === 'text') this.finalTexts.push(text);
        return undefined;
      }
      case 'tool_call': {
        const name = str(ev.name);
        if (!name) return 'tool_call needs a string "name"';
        const id = str(ev.id) ?? `call-${this.nextId++}`;
        this.unanswered.push(id);
        this.finalTexts = [];
        this.events.push({ kind: 'tool_call', id, name, input: ev.input ?? {}, ...at });
        return undefined;
      }
      case 'tool_result':
        return this.onToolResult(ev, at);
      case 'usage': {
        // Each usage line adds to the total (report each model call once). The line's four counts are
        // disjoint, as the Anthropic API reports them; AXIS's input includes the cache writes.
        const write = count(ev.cache_write);
        const u: TokenUsage = {
          input: saturatingAdd(count(ev.input), write),
          output: count(ev.output),
          cacheReadInput: count(ev.cache_read),
        };
        if (write > 0) u.cacheWriteInput = write;
        addUsage(this.usageNow, u);
        const spent = cost(ev.cost_usd);
        if (spent !== undefined) this.cost = saturatingAdd(this.cost ?? 0, spent);
        return undefined;
      }
      case 'result': {
        const text = str(ev.text);
        if (text === undefined) return 'result needs a string "text"';
        this.result = text;
        return undefined;
      }
      case 'error':
        return this.onError(ev, at);
      default:
        return typeof ev.type === 'string' ? `unknown event type "${ev.type}"` : 'missing "type"';
    }
  }

  private onToolResult(ev: Json, at: Stamp): string | undefined {
    // Without an id the result answers the latest call that has none yet.
    const id = str(ev.id) ?? this.unanswered[this.unanswered.length - 1];
    if (!id) return 'tool_result needs an "id" (no open tool_call to pair with)';
    const at2 = this.unanswered.lastIndexOf(id);
    if (at2 !== -1) this.unanswered.splice(at2, 1);
    const exit = int(ev.exit_code);
    const status = int(ev.http_status);
    const result: ToolResultEvent = {
      kind: 'tool_result',
      callId: id,
      output: asText(ev.output),
      isError:
        typeof ev.is_error === 'boolean'
          ? ev.is_error
          : (exit !== undefined && exit !== 0) || (status !== undefined && status >= 400),
      ...at,
    };
    if (exit !== undefined) result.exitCode = exit;
    if (status !== undefined) result.httpStatus = status;
    this.events.push(result);
    return undefined;
  }

  private onError(ev: Json, at: Stamp): string | undefined {
    const message = str(ev.message);
    if (message === undefined) return 'error needs a string "message"';
    const status = int(ev.http_status);
    const cls = isErrorClass(ev.class) ? ev.class : classifyError({ status, message });
    this.error = status !== undefined ? { class: cls, message, httpStatus: status } : { class: cls, message };
    const e: ErrorEvent = { kind: 'error', message, errorClass: cls, ...at };
    if (status !== undefined) e.httpStatus = status;
    this.events.push(e);
    return undefined;
  }
}

class TextParser implements StreamParser {
  private readonly lines: string[] = [];
  private firstAt: number | undefined;

  push(line: string, receivedAt?: number): void {
    if (this.lines.length === 0) this.firstAt = receivedAt;
    this.lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
  }

  usage(): TokenUsage {
    return emptyUsage();
  }

  finish(): ParsedStream {
    const text = this.lines.join('\n').trim();
    const events: TranscriptEvent[] = text ? [{ kind: 'text', text, ...stamp(undefined, this.firstAt) }] : [];
    return { events, result: text || null, usage: emptyUsage() };
  }
}

export function createAxisNdjsonParser(): StreamParser {
  return new AxisNdjsonParser();
}

export function createTextParser(): StreamParser {
  return new TextParser();
}
