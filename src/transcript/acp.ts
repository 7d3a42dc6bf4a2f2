/**
 * Agent Client Protocol: maps `session/update` notifications and the `session/prompt` response to events.
 * Pure: the ACP adapter owns the connection and feeds this mapper what arrives, either as objects
 * (`update`, `promptResponse`, `promptError`) or as recorded NDJSON lines (`push`).
 */
import type {
  ContentBlock,
  SessionNotification,
  SessionUpdate,
  ToolCallContent,
} from '@agentclientprotocol/sdk';
import type { PromptResponse } from '@agentclientprotocol/sdk/unstable';
import { classifyError, statusFromText } from './classify-error.js';
import type {
  ErrorEvent,
  ParsedStream,
  RunError,
  StreamParser,
  TextEvent,
  ThinkingEvent,
  TokenUsage,
  ToolCallEvent,
  ToolResultEvent,
  TranscriptEvent,
  UserEvent,
} from './model.js';
import { emptyUsage } from './model.js';
import {
  cost,
  count,
  isRecord,
  type Json,
  num,
  parseLine,
  rec,
  stamp,
  type Stamp,
  str,
  textOf,
  unparsedEvent,
  UsageMeter,
} from './util.js';

interface CallState {
  event: ToolCallEvent;
  content: unknown[] | undefined;
  answered: boolean;
}

interface Segment {
  event: TextEvent;
  messageId: string | undefined;
}

const LIMIT_STOPS: Record<string, string> = {
  max_tokens: 'Agent hit the max tokens limit',
  max_turn_requests: 'Agent exceeded the max turn requests',
};

function blockText(raw: unknown): string {
  const block = rec(raw) as (ContentBlock & Json) | undefined;
  if (!block) return '';
  if (block.type === 'text') return str(block.text) ?? '';
  if (block.type === 'resource_link') return `[resource: ${str(block.uri) ?? ''}]`;
  return '';
}

/** Tool output as text: content blocks, `[diff: path]`, `[terminal: id]`, else the raw output. */
function toolOutput(content: unknown[] | undefined, rawOutput: unknown): string {
  const parts: string[] = [];
  for (const raw of content ?? []) {
    const c = rec(raw) as (ToolCallContent & Json) | undefined;
    if (c?.type === 'content') parts.push(textOf([c.content]));
    else if (c?.type === 'diff') parts.push(`[diff: ${str(c.path) ?? ''}]`);
    else if (c?.type === 'terminal') parts.push(`[terminal: ${str(c.terminalId) ?? ''}]`);
  }
  const text = parts.filter((p) => p !== '').join('\n');
  if (text) return text;
  if (typeof rawOutput === 'string') return rawOutput;
  const raw = rec(rawOutput);
  if (raw) return str(raw.output) ?? str(raw.stdout) ?? JSON.stringify(raw);
  return rawOutput == null ? '' : JSON.stringify(rawOutput);
}

function exitCodeOf(rawOutput: unknown): number | undefined {
  const raw = rec(rawOutput);
  return raw ? (num(raw.exit_code) ?? num(raw.exitCode)) : undefined;
}

/** A notice with severity "error" is an error event; other notices are system events. */
function noticeEvent(update: Json, at: Stamp): TranscriptEvent {
  const title = str(update.title) ?? 'notice';
  const description = str(update.description);
  const message = description ? `${title}: ${description}` : title;
  if (update.severity !== 'error')
    return { kind: 'system', subtype: 'notice', data: { severity: update.severity, message }, ...at };
  const status = statusFromText(message);
  const ev: ErrorEvent = { kind: 'error', message, errorClass: classifyError({ status, message }), ...at };
  if (status !== undefined) ev.httpStatus = status;
  return ev;
}

function hasInput(v: unknown): boolean {
  if (v == null) return false;
  return isRecord(v) ? Object.keys(v).length > 0 : true;
}

export class AcpMapper implements StreamParser {
  private readonly events: TranscriptEvent[] = [];
  private readonly calls = new Map<string, CallState>();
  private readonly meter = new UsageMeter();
  private openText: Segment | undefined;
  private openThought: ThinkingEvent | undefined;
  private openUser: UserEvent | undefined;
  /** Text segments since the last tool call: together they are the final message. */
  private finalSegments: Segment[] = [];
  private usageNow: TokenUsage = emptyUsage();
  private cost: number | undefined;
  private stopReason: string | undefined;
  private error: RunError | undefined;
  private sessionId: string | undefined;
  private model: string | undefined;

  /**
   * One `session/update` notification (or just its `update`). Typed as the SDK's shapes, but read
   * defensively: recorded lines are untrusted and a malformed update must not throw.
   */
  update(input: SessionNotification | SessionUpdate, receivedAt?: number): void {
    const wrapper = input as unknown as Json;
    const update = rec(wrapper.update) ?? wrapper;
    const sessionId = str(wrapper.sessionId);
    if (sessionId) this.sessionId ??= sessionId;
    const at = stamp(undefined, receivedAt);
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        this.onText(blockText(update.content), str(update.messageId), at);
        return;
      case 'agent_thought_chunk':
        this.onThought(blockText(update.content), at);
        return;
      case 'user_message_chunk':
        this.onUser(blockText(update.content), at);
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.closeAll();
        this.onTool(update, at);
        return;
      case 'plan':
        this.closeAll();
        this.events.push({ kind: 'system', subtype: 'plan', data: { entries: update.entries ?? [] }, ...at });
        return;
      case 'usage_update': {
        // `used` is the context window fill, not input tokens; only the cost is taken from here.
        const reported = rec(update.cost);
        const amount = cost(reported?.amount);
        if (amount !== undefined && str(reported?.currency)?.toUpperCase() === 'USD') this.cost = amount;
        return;
      }
      case 'notice':
        this.closeAll();
        this.events.push(noticeEvent(update, at));
        return;
      case 'compaction_update':
        this.closeAll();
        this.events.push({ kind: 'system', subtype: 'compaction', data: { status: update.status }, ...at });
        return;
      default:
        // available_commands_update, current_mode_update, config/session info: not part of the transcript.
        return;
    }
  }

  /** The `session/prompt` response: the turn is over. */
  promptResponse(response: PromptResponse, receivedAt?: number): void {
    this.closeAll();
    const res = response as unknown as Json;
    const stopReason = str(res.stopReason) ?? 'end_turn';
    this.stopReason = stopReason;
    const usage = rec(res.usage);
    if (usage) {
      const write = count(usage.cachedWriteTokens);
      // ACP counts token types apart (totalTokens is their sum); AXIS input includes cache writes and
      // output includes thought tokens.
      this.usageNow = {
        input: count(usage.inputTokens) + write,
        output: count(usage.outputTokens) + count(usage.thoughtTokens),
        cacheReadInput: count(usage.cachedReadTokens),
      };
      if (write > 0) this.usageNow.cacheWriteInput = write;
    } else {
      // Gemini CLI puts its counts in `_meta.quota.token_count`.
      const quota = rec(rec(res._meta)?.quota);
      const tc = rec(quota?.token_count);
      if (tc)
        this.usageNow = { input: count(tc.input_tokens), output: count(tc.output_tokens), cacheReadInput: 0 };
      const models = Array.isArray(quota?.model_usage) ? quota.model_usage : [];
      const first = models.find(isRecord);
      if (first) this.model = str(first.model);
    }
    const at = stamp(undefined, receivedAt);
    const limit = LIMIT_STOPS[stopReason];
    if (stopReason === 'cancelled')
      this.fail({ class: 'cancelled', message: 'Agent cancelled the turn' }, at);
    else if (limit) this.fail({ class: 'limit_exceeded', message: limit }, at);
    else if (stopReason !== 'end_turn') {
      // refusal: the turn ended cleanly; the judge sees the refusal text.
      this.events.push({ kind: 'system', subtype: 'stop', data: { stopReason }, ...at });
    }
  }

  /** A JSON-RPC error answering `session/prompt`. Gemini CLI uses the HTTP status as the error code. */
  promptError(err: { code?: number; message?: string; data?: unknown }, receivedAt?: number): void {
    this.closeAll();
    const dataMessage = isRecord(err.data) ? (str(err.data.message) ?? str(err.data.details)) : str(err.data);
    const message = [err.message, dataMessage].filter(Boolean).join(': ') || 'ACP prompt failed';
    const code = num(err.code);
    const status = code !== undefined && code >= 400 && code < 600 ? code : statusFromText(message);
    const cls = classifyError({ status, message }, 'crash');
    this.fail(
      status !== undefined ? { class: cls, message, httpStatus: status } : { class: cls, message },
      stamp(undefined, receivedAt),
    );
  }

  /**
   * One recorded line: a JSON-RPC `session/update` notification, a JSON-RPC response to `session/prompt`
   * (`result.stopReason` or `error`), a bare SessionNotification / SessionUpdate, or a bare PromptResponse.
   */
  push(line: string, receivedAt?: number): void {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      this.events.push(unparsedEvent(line, parsed.reason, receivedAt));
      return;
    }
    const msg = parsed.value;
    const params = rec(msg.params);
    if (msg.method === 'session/update' && params && isRecord(params.update)) {
      this.update(params as unknown as SessionNotification, receivedAt);
    } else if (isRecord(msg.result) && typeof msg.result.stopReason === 'string') {
      this.promptResponse(msg.result as unknown as PromptResponse, receivedAt);
    } else if (isRecord(msg.error) && 'id' in msg) {
      this.promptError(msg.error as { code?: number; message?: string; data?: unknown }, receivedAt);
    } else if (isRecord(msg.update) || typeof msg.sessionUpdate === 'string') {
      this.update(msg as unknown as SessionNotification | SessionUpdate, receivedAt);
    } else if (typeof msg.stopReason === 'string') {
      this.promptResponse(msg as unknown as PromptResponse, receivedAt);
    }
    // Other JSON-RPC traffic (initialize, session/new, permission requests) is not transcript.
  }

  usage(): TokenUsage {
    return this.meter.report(this.usageNow);
  }

  finish(): ParsedStream {
    this.closeAll();
    const done = this.stopReason !== undefined && !this.error;
    const out: ParsedStream = {
      events: [...this.events],
      result: done ? this.finalMessage() : null,
      usage: { ...this.usageNow },
    };
    if (this.cost !== undefined) out.costUsd = this.cost;
    if (this.sessionId) out.sessionId = this.sessionId;
    if (this.model) out.model = this.model;
    if (this.error) out.error = this.error;
    return out;
  }

  /** All text since the last tool call: chunks of one message join directly, separate messages by a blank line. */
  private finalMessage(): string | null {
    if (this.finalSegments.length === 0) return null;
    let text = '';
    let prev: Segment | undefined;
    for (const seg of this.finalSegments) {
      if (prev) text += prev.messageId !== undefined && prev.messageId === seg.messageId ? '' : '\n\n';
      text += seg.event.text;
      prev = seg;
    }
    return text;
  }

  private onText(text: string, messageId: string | undefined, at: Stamp): void {
    this.openThought = undefined;
    this.openUser = undefined;
    const open = this.openText;
    if (open && (messageId === undefined || open.messageId === undefined || open.messageId === messageId)) {
      open.event.text += text;
      return;
    }
    this.closeText();
    const event: TextEvent = messageId
      ? { kind: 'text', text, messageId, ...at }
      : { kind: 'text', text, ...at };
    const seg: Segment = { event, messageId };
    this.events.push(event);
    this.finalSegments.push(seg);
    this.openText = seg;
  }

  private onThought(text: string, at: Stamp): void {
    this.closeText();
    this.openUser = undefined;
    if (this.openThought) this.openThought.text += text;
    else {
      this.openThought = { kind: 'thinking', text, ...at };
      this.events.push(this.openThought);
    }
  }

  private onUser(text: string, at: Stamp): void {
    this.closeText();
    this.openThought = undefined;
    if (this.openUser) this.openUser.text += text;
    else {
      this.openUser = { kind: 'user', text, ...at };
      this.events.push(this.openUser);
    }
  }

  private closeText(): void {
    this.openText = undefined;
  }

  private closeAll(): void {
    this.openText = undefined;
    this.openThought = undefined;
    this.openUser = undefined;
  }

  private onTool(u: Json, at: Stamp): void {
    const id = str(u.toolCallId);
    if (id === undefined) return;
    let state = this.calls.get(id);
    const label = str(u.name) ?? str(u.title);
    const kind = str(u.kind);
    if (!state) {
      const event: ToolCallEvent = {
        kind: 'tool_call',
        id,
        name: label ?? 'unknown',
        input: hasInput(u.rawInput) ? u.rawInput : {},
        ...at,
      };
      if (kind) event.toolKind = kind;
      state = { event, content: undefined, answered: false };
      this.calls.set(id, state);
      this.events.push(event);
      this.finalSegments = [];
    } else {
      // Updates fill in what the first notification lacked.
      if (!hasInput(state.event.input) && hasInput(u.rawInput)) state.event.input = u.rawInput;
      if (state.event.name === 'unknown' && label) state.event.name = label;
      if (!state.event.toolKind && kind) state.event.toolKind = kind;
    }
    if (Array.isArray(u.content)) state.content = u.content;
    if ((u.status === 'completed' || u.status === 'failed') && !state.answered) {
      state.answered = true;
      const result: ToolResultEvent = {
        kind: 'tool_result',
        callId: id,
        output: toolOutput(state.content, u.rawOutput),
        isError: u.status === 'failed',
        ...at,
      };
      const exit = exitCodeOf(u.rawOutput);
      if (exit !== undefined) {
        result.exitCode = exit;
        if (exit !== 0) result.isError = true;
      }
      this.events.push(result);
    }
  }

  private fail(err: RunError, at: Stamp): void {
    this.error = err;
    const ev: ErrorEvent = { kind: 'error', message: err.message, errorClass: err.class, ...at };
    if (err.httpStatus !== undefined) ev.httpStatus = err.httpStatus;
    this.events.push(ev);
  }
}

export function createAcpMapper(): AcpMapper {
  return new AcpMapper();
}
