/**
 * opencode `run --format json`: `{type, timestamp (ms), sessionID, part | error}` lines with type
 * step_start | text | reasoning | tool_use | step_finish | error. Tool parts arrive once, finished,
 * with their own start/end times.
 */
import { classifyError, statusFromText } from './classify-error.js';
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
  isPermissionRefusal,
  type Json,
  num,
  parseLine,
  rec,
  saturatingAdd,
  stamp,
  str,
  toMs,
  unparsedEvent,
  UsageMeter,
} from './util.js';

/**
 * step_finish tokens: opencode's `input` excludes cache reads and writes, `output` excludes reasoning.
 * AXIS input includes cache writes and output includes reasoning.
 */
function stepUsage(tokens: Json | undefined): TokenUsage {
  if (!tokens) return emptyUsage();
  const cache = rec(tokens.cache);
  const write = count(cache?.write);
  const usage: TokenUsage = {
    input: count(tokens.input) + write,
    output: count(tokens.output) + count(tokens.reasoning),
    cacheReadInput: count(cache?.read),
  };
  if (write > 0) usage.cacheWriteInput = write;
  return usage;
}

function opencodeError(err: Json | undefined): RunError {
  const data = rec(err?.data);
  const name = str(err?.name) ?? 'Error';
  const message = str(data?.message) ?? str(err?.message) ?? name;
  const status = num(data?.statusCode) ?? statusFromText(message);
  const cls = classifyError({ status, code: name, message }, name === 'UnknownError' ? 'crash' : 'api_error');
  return status !== undefined ? { class: cls, message, httpStatus: status } : { class: cls, message };
}

class OpencodeStreamParser implements StreamParser {
  private readonly events: TranscriptEvent[] = [];
  private readonly meter = new UsageMeter();
  private readonly usageNow: TokenUsage = emptyUsage();
  private cost: number | undefined;
  private sessionId: string | undefined;
  private error: RunError | undefined;
  private stepTexts: string[] = [];
  private finalText: string | null = null;

  push(line: string, receivedAt?: number): void {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      this.events.push(unparsedEvent(line, parsed.reason, receivedAt));
      return;
    }
    const ev = parsed.value;
    this.sessionId ??= str(ev.sessionID);
    const part = rec(ev.part);
    const lineTs = toMs(ev.timestamp);
    switch (ev.type) {
      case 'step_start':
        this.stepTexts = [];
        break;
      case 'text':
      case 'reasoning': {
        if (!part) break;
        const text = str(part.text) ?? '';
        const at = stamp(toMs(rec(part.time)?.start) ?? lineTs, receivedAt);
        const messageId = str(part.messageID);
        if (ev.type === 'text') {
          this.stepTexts.push(text);
          this.events.push(
            messageId ? { kind: 'text', text, messageId, ...at } : { kind: 'text', text, ...at },
          );
        } else {
          this.events.push(
            messageId ? { kind: 'thinking', text, messageId, ...at } : { kind: 'thinking', text, ...at },
          );
        }
        break;
      }
      case 'tool_use':
        if (part) this.onTool(part, lineTs, receivedAt);
        break;
      case 'step_finish': {
        if (!part) break;
        addUsage(this.usageNow, stepUsage(rec(part.tokens)));
        const spent = cost(part.cost);
        if (spent !== undefined) this.cost = saturatingAdd(this.cost ?? 0, spent);
        // A step that ends for any reason but more tool calls ends the run: its text is the answer.
        this.finalText = part.reason === 'tool-calls' ? null : this.stepTexts.join('\n\n') || null;
        break;
      }
      case 'error': {
        const err = opencodeError(rec(ev.error));
        this.error = err;
        const e: ErrorEvent = {
          kind: 'error',
          message: err.message,
          errorClass: err.class,
          ...stamp(lineTs, receivedAt),
        };
        if (err.httpStatus !== undefined) e.httpStatus = err.httpStatus;
        this.events.push(e);
        break;
      }
      default:
        break;
    }
  }

  usage(): TokenUsage {
    return this.meter.report(this.usageNow);
  }

  finish(): ParsedStream {
    const out: ParsedStream = {
      events: [...this.events],
      result: this.error ? null : this.finalText,
      usage: { ...this.usageNow },
    };
    if (this.cost !== undefined) out.costUsd = this.cost;
    if (this.sessionId) out.sessionId = this.sessionId;
    if (this.error) out.error = this.error;
    return out;
  }

  private onTool(part: Json, lineTs: number | undefined, receivedAt: number | undefined): void {
    const state = rec(part.state) ?? {};
    const time = rec(state.time);
    const id = str(part.callID) ?? str(part.id) ?? '';
    const name = str(part.tool) ?? 'unknown';
    this.events.push({
      kind: 'tool_call',
      id,
      name,
      input: state.input ?? {},
      ...stamp(toMs(time?.start) ?? lineTs, receivedAt),
    });
    const status = str(state.status);
    if (status !== 'completed' && status !== 'error') return;
    const errorText = str(state.error);
    const output = str(state.output) ?? errorText ?? '';
    const result: ToolResultEvent = {
      kind: 'tool_result',
      callId: id,
      output,
      isError: status === 'error',
      ...stamp(toMs(time?.end) ?? lineTs, receivedAt),
    };
    const exit = num(rec(state.metadata)?.exit);
    if (exit !== undefined) {
      result.exitCode = exit;
      if (exit !== 0) result.isError = true;
    }
    if (result.isError && isPermissionRefusal(output)) result.permissionDenied = true;
    this.events.push(result);
  }
}

export function createOpencodeParser(): StreamParser {
  return new OpencodeStreamParser();
}
