/**
 * Gemini CLI `-p --output-format stream-json` (init, message, tool_use, tool_result, error, result),
 * and the single object printed by `--output-format json` (parseGeminiJson).
 */
import { classifyError, statusFromText } from './classify-error.js';
import type {
  ErrorEvent,
  ParsedStream,
  RunError,
  StreamParser,
  TextEvent,
  TokenUsage,
  ToolResultEvent,
  TranscriptEvent,
} from './model.js';
import { emptyUsage } from './model.js';
import {
  count,
  isRecord,
  num,
  parseLine,
  rec,
  streamExitCode,
  stamp,
  str,
  toMs,
  unparsedEvent,
  UsageMeter,
  type Json,
  type Stamp,
} from './util.js';

/** Tools whose text output may end in an exit-code line. */
const SHELL_TOOLS = new Set(['run_shell_command', 'shell']);

function geminiError(err: Json | undefined, fallback: string): RunError {
  const message = str(err?.message) ?? fallback;
  const status = num(err?.code) ?? num(err?.status) ?? statusFromText(message);
  const httpStatus = status !== undefined && status >= 400 && status < 600 ? status : undefined;
  const cls = classifyError({ status: httpStatus, code: str(err?.type) ?? str(err?.status), message });
  return httpStatus !== undefined ? { class: cls, message, httpStatus } : { class: cls, message };
}

/**
 * stream-json `result.stats`: input_tokens is the whole prompt (cache included), `cached` the cached part,
 * `input` the rest. Thought tokens are not reported in this form.
 */
function streamStatsUsage(stats: Json): TokenUsage {
  const cached = count(stats.cached);
  const input =
    stats.input !== undefined ? count(stats.input) : Math.max(0, count(stats.input_tokens) - cached);
  return { input, output: count(stats.output_tokens), cacheReadInput: cached };
}

/** The model that did the work: the one with most tokens (with `-m auto` the router model also appears). */
function mainModel(models: Json | undefined, tokensOf: (m: Json) => number): string | undefined {
  if (!models) return undefined;
  let best: string | undefined;
  let most = -1;
  for (const [name, m] of Object.entries(models)) {
    const tokens = isRecord(m) ? tokensOf(m) : 0;
    if (tokens > most) {
      best = name;
      most = tokens;
    }
  }
  return best;
}

class GeminiStreamParser implements StreamParser {
  private readonly events: TranscriptEvent[] = [];
  private readonly toolNames = new Map<string, string>();
  private readonly meter = new UsageMeter();
  private open: TextEvent | undefined;
  private usageNow: TokenUsage = emptyUsage();
  private sessionId: string | undefined;
  private model: string | undefined;
  private statsModel: string | undefined;
  private duration: number | undefined;
  private done = false;
  private error: RunError | undefined;
  private lastText: TextEvent | undefined;

  push(line: string, receivedAt?: number): void {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      this.close();
      this.events.push(unparsedEvent(line, parsed.reason, receivedAt));
      return;
    }
    const ev = parsed.value;
    const at = stamp(toMs(ev.timestamp), receivedAt);
    if (ev.type === 'message' && ev.role === 'assistant') {
      this.onAssistant(ev, at);
      return;
    }
    this.close();
    switch (ev.type) {
      case 'init':
        this.sessionId ??= str(ev.session_id);
        this.model ??= str(ev.model);
        break;
      case 'message':
        if (ev.role === 'user') this.events.push({ kind: 'user', text: str(ev.content) ?? '', ...at });
        break;
      case 'tool_use': {
        const id = str(ev.tool_id) ?? '';
        const name = str(ev.tool_name) ?? 'unknown';
        this.toolNames.set(id, name);
        // The answer is the text after the last tool call (as in the json form's `response`).
        this.lastText = undefined;
        this.events.push({ kind: 'tool_call', id, name, input: ev.parameters ?? {}, ...at });
        break;
      }
      case 'tool_result':
        this.onToolResult(ev, at);
        break;
      case 'error': {
        const message = str(ev.message) ?? 'error';
        if (ev.severity === 'error') {
          const err = geminiError(ev, message);
          const e: ErrorEvent = { kind: 'error', message, errorClass: err.class, ...at };
          if (err.httpStatus !== undefined) e.httpStatus = err.httpStatus;
          this.events.push(e);
        } else {
          // Warnings: loop detected, execution blocked by a hook, ...
          this.events.push({ kind: 'system', subtype: 'warning', data: { message }, ...at });
        }
        break;
      }
      case 'result':
        this.onResult(ev, at);
        break;
      default:
        break;
    }
  }

  usage(): TokenUsage {
    return this.meter.report(this.usageNow);
  }

  finish(): ParsedStream {
    this.close();
    const out: ParsedStream = {
      events: [...this.events],
      result: this.done && !this.error && this.lastText ? this.lastText.text : null,
      usage: { ...this.usageNow },
    };
    if (this.sessionId) out.sessionId = this.sessionId;
    const model = this.model === 'auto' || !this.model ? (this.statsModel ?? this.model) : this.model;
    if (model) out.model = model;
    if (this.duration !== undefined) out.agentDurationMs = this.duration;
    if (this.error) out.error = this.error;
    return out;
  }

  /** Streamed chunks (`delta: true`) are concatenated into one text event per contiguous run. */
  private onAssistant(ev: Json, at: Stamp): void {
    const text = str(ev.content) ?? '';
    if (this.open && ev.delta === true) {
      this.open.text += text;
      return;
    }
    this.close();
    const event: TextEvent = { kind: 'text', text, ...at };
    this.events.push(event);
    this.lastText = event;
    if (ev.delta === true) this.open = event;
  }

  private close(): void {
    this.open = undefined;
  }

  private onToolResult(ev: Json, at: Stamp): void {
    const callId = str(ev.tool_id) ?? '';
    const err = rec(ev.error);
    const output = str(ev.output) ?? str(err?.message) ?? '';
    const result: ToolResultEvent = {
      kind: 'tool_result',
      callId,
      output,
      isError: ev.status === 'error',
      ...at,
    };
    if (SHELL_TOOLS.has(this.toolNames.get(callId) ?? '')) {
      // A non-zero exit is still status "success"; only the text can tell (chat records may give a 0).
      const exit = streamExitCode(output);
      if (exit !== undefined) {
        result.exitCode = exit;
        result.isError = true;
      }
    }
    this.events.push(result);
  }

  private onResult(ev: Json, at: Stamp): void {
    this.done = true;
    const stats = rec(ev.stats);
    if (stats) {
      this.usageNow = streamStatsUsage(stats);
      this.duration = num(stats.duration_ms) ?? this.duration;
      this.statsModel = mainModel(rec(stats.models), (m) => count(m.total_tokens));
    }
    if (ev.status === 'error') {
      const err = geminiError(rec(ev.error), 'Gemini CLI reported an error');
      this.error = err;
      const e: ErrorEvent = { kind: 'error', message: err.message, errorClass: err.class, ...at };
      if (err.httpStatus !== undefined) e.httpStatus = err.httpStatus;
      this.events.push(e);
    }
  }
}

export function createGeminiParser(): StreamParser {
  return new GeminiStreamParser();
}

/**
 * `gemini -p … --output-format json`: one object `{session_id, response, stats, error?}`. It has no
 * per-tool detail, so the events are the answer text alone (plus an error event on failure).
 * Never throws: text that is not a JSON object yields an `unparsed` event.
 */
export function parseGeminiJson(text: string): ParsedStream {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (!isRecord(doc)) {
    return {
      events: [unparsedEvent(text, 'not a JSON object', undefined)],
      result: null,
      usage: emptyUsage(),
    };
  }
  const events: TranscriptEvent[] = [];
  const response = str(doc.response);
  if (response) events.push({ kind: 'text', text: response });
  const usage = emptyUsage();
  const models = rec(rec(doc.stats)?.models);
  for (const m of Object.values(models ?? {})) {
    const t = rec(rec(m)?.tokens);
    if (!t) continue;
    const cached = count(t.cached);
    usage.input += t.input !== undefined ? count(t.input) : Math.max(0, count(t.prompt) - cached);
    // Gemini counts thoughts apart from candidates; AXIS output includes reasoning.
    usage.output += count(t.candidates) + count(t.thoughts);
    usage.cacheReadInput += cached;
  }
  const out: ParsedStream = { events, result: response ?? null, usage };
  const session = str(doc.session_id);
  if (session) out.sessionId = session;
  const model = mainModel(models, (m) => count(rec(m.tokens)?.total));
  if (model) out.model = model;
  const err = rec(doc.error);
  if (err) {
    const e = geminiError(err, 'Gemini CLI reported an error');
    out.error = e;
    out.result = null;
    const ev: ErrorEvent = { kind: 'error', message: e.message, errorClass: e.class };
    if (e.httpStatus !== undefined) ev.httpStatus = e.httpStatus;
    events.push(ev);
  }
  return out;
}
