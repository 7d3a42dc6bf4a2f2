/**
 * Codex CLI `codex exec --json`. Item types follow codex-rs/exec/src/exec_events.rs:
 * agent_message, reasoning, plan, command_execution, file_change, mcp_tool_call, collab_tool_call,
 * web_search, todo_list, error.
 */
import { classifyError, statusFromText } from './classify-error.js';
import type {
  ErrorEvent,
  ParsedStream,
  RunError,
  StreamParser,
  TokenUsage,
  ToolCallEvent,
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
  stamp,
  str,
  textOf,
  unparsedEvent,
  UsageMeter,
  type Json,
  type Stamp,
} from './util.js';

/** Codex usage object (exec `turn.completed.usage`, rollout `token_count.info.total_token_usage`). */
export function codexUsage(u: Json | undefined): TokenUsage {
  if (!u) return emptyUsage();
  const cached = count(u.cached_input_tokens);
  const write = count(u.cache_write_input_tokens);
  // OpenAI's input_tokens includes the cached part; AXIS keeps cache reads apart.
  const usage: TokenUsage = {
    input: Math.max(0, count(u.input_tokens) - cached),
    output: count(u.output_tokens),
    cacheReadInput: cached,
  };
  if (write > 0) usage.cacheWriteInput = write;
  return usage;
}

export function runError(message: string, status?: number): RunError {
  const httpStatus = status ?? statusFromText(message);
  const cls = classifyError({ status: httpStatus, message });
  return httpStatus !== undefined ? { class: cls, message, httpStatus } : { class: cls, message };
}

function errorEvent(err: RunError, at: Stamp): ErrorEvent {
  const ev: ErrorEvent = { kind: 'error', message: err.message, errorClass: err.class, ...at };
  if (err.httpStatus !== undefined) ev.httpStatus = err.httpStatus;
  return ev;
}

/** Text of an MCP call result: its content blocks, else the structured content as JSON. */
function mcpOutput(item: Json): string {
  const error = rec(item.error);
  if (error) return str(error.message) ?? '';
  const result = rec(item.result);
  if (!result) return '';
  const text = textOf(result.content);
  if (text) return text;
  return result.structured_content != null ? JSON.stringify(result.structured_content) : '';
}

function todoItems(item: Json): Array<{ text: string; completed: boolean }> {
  if (!Array.isArray(item.items)) return [];
  return item.items
    .filter(isRecord)
    .map((t) => ({ text: str(t.text) ?? '', completed: t.completed === true }));
}

class CodexStreamParser implements StreamParser {
  private readonly events: TranscriptEvent[] = [];
  private readonly calls = new Map<string, ToolCallEvent>();
  private readonly answered = new Set<string>();
  private readonly meter = new UsageMeter();
  private usageNow: TokenUsage = emptyUsage();
  private sessionId: string | undefined;
  private lastMessage: string | undefined;
  private planText: string | undefined;
  private completed = false;
  private failed: RunError | undefined;
  private fatal: RunError | undefined;
  private planUpdates = 0;
  private lastPlan = '';

  push(line: string, receivedAt?: number): void {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      this.events.push(unparsedEvent(line, parsed.reason, receivedAt));
      return;
    }
    const ev = parsed.value;
    const at = stamp(undefined, receivedAt);
    switch (ev.type) {
      case 'thread.started':
        this.sessionId ??= str(ev.thread_id);
        break;
      case 'turn.completed':
        // Thread-cumulative totals (exec reports ThreadTokenUsage.total), so the latest one wins.
        this.usageNow = codexUsage(rec(ev.usage));
        this.completed = true;
        break;
      case 'turn.failed': {
        const err = runError(str(rec(ev.error)?.message) ?? 'turn failed');
        this.failed = err;
        const last = this.events[this.events.length - 1];
        if (!(last?.kind === 'error' && last.message === err.message)) this.events.push(errorEvent(err, at));
        break;
      }
      case 'error': {
        const message = str(ev.message) ?? 'error';
        const err = runError(message);
        // "Reconnecting... 1/1 (…)" is a retry notice; the stream goes on.
        if (!message.startsWith('Reconnecting')) this.fatal = err;
        this.events.push(errorEvent(err, at));
        break;
      }
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const item = rec(ev.item);
        if (item) this.onItem(ev.type, item, at);
        break;
      }
      case 'request_user_input':
        this.events.push({
          kind: 'system',
          subtype: 'user_input_request',
          data: { questions: ev.questions },
          ...at,
        });
        break;
      default:
        // turn.started, item.plan.delta: nothing to record.
        break;
    }
  }

  usage(): TokenUsage {
    return this.meter.report(this.usageNow);
  }

  finish(): ParsedStream {
    const out: ParsedStream = {
      events: [...this.events],
      result: this.completed && !this.failed ? (this.lastMessage ?? this.planText ?? null) : null,
      usage: { ...this.usageNow },
    };
    if (this.sessionId) out.sessionId = this.sessionId;
    const error = this.failed ?? this.fatal;
    if (error) out.error = error;
    return out;
  }

  private onItem(phase: string, item: Json, at: Stamp): void {
    const id = str(item.id) ?? `item-${this.events.length}`;
    const done = phase === 'item.completed';
    switch (item.type) {
      case 'agent_message':
        if (done) {
          const text = str(item.text) ?? '';
          this.lastMessage = text;
          this.events.push({ kind: 'text', text, ...at });
        }
        return;
      case 'plan':
        if (done) {
          this.planText = str(item.text) ?? '';
          this.events.push({ kind: 'text', text: this.planText, ...at });
        }
        return;
      case 'reasoning':
        if (done) this.events.push({ kind: 'thinking', text: str(item.text) ?? '', ...at });
        return;
      case 'error':
        // Non-fatal notices ("Model metadata for `x` not found…", config warnings, deprecations).
        this.events.push({
          kind: 'system',
          subtype: 'warning',
          data: { message: str(item.message) ?? '' },
          ...at,
        });
        return;
      case 'todo_list':
        this.onPlanUpdate(id, item, at);
        return;
      case 'command_execution':
        this.onCommand(id, item, done, at);
        return;
      case 'file_change':
        this.onFileChange(id, item, done, at);
        return;
      case 'mcp_tool_call':
        this.onMcpCall(id, item, done, at);
        return;
      case 'collab_tool_call':
        this.onCollabCall(id, item, done, at);
        return;
      case 'web_search':
        this.onWebSearch(id, item, done, at);
        return;
      default:
        if (done)
          this.events.push({
            kind: 'system',
            subtype: 'codex_item',
            data: { type: item.type ?? null },
            ...at,
          });
    }
  }

  private onCommand(id: string, item: Json, done: boolean, at: Stamp): void {
    this.ensureCall(id, 'shell', { command: str(item.command) ?? '' }, at);
    if (!done) return;
    const status = str(item.status);
    const exit = num(item.exit_code);
    const ev = this.result(id, str(item.aggregated_output) ?? '', at);
    if (!ev) return;
    if (exit !== undefined) ev.exitCode = exit;
    ev.isError = status === 'failed' || status === 'declined' || (exit !== undefined && exit !== 0);
    if (status === 'declined') ev.permissionDenied = true;
  }

  private onFileChange(id: string, item: Json, done: boolean, at: Stamp): void {
    const changes = Array.isArray(item.changes)
      ? item.changes.filter(isRecord).map((c) => ({ path: str(c.path) ?? '', kind: str(c.kind) ?? '' }))
      : [];
    this.ensureCall(id, 'apply_patch', { changes }, at);
    if (!done) return;
    const ev = this.result(id, changes.map((c) => `${c.kind}: ${c.path}`).join('\n'), at);
    if (ev) ev.isError = item.status === 'failed';
  }

  private onMcpCall(id: string, item: Json, done: boolean, at: Stamp): void {
    const name = `mcp__${str(item.server) ?? 'unknown'}__${str(item.tool) ?? 'unknown'}`;
    this.ensureCall(id, name, item.arguments ?? {}, at);
    if (!done) return;
    const ev = this.result(id, mcpOutput(item), at);
    if (ev) ev.isError = item.status === 'failed' || isRecord(item.error);
  }

  private onCollabCall(id: string, item: Json, done: boolean, at: Stamp): void {
    const input: Json = { receiver_thread_ids: item.receiver_thread_ids };
    if (item.prompt != null) input.prompt = item.prompt;
    this.ensureCall(id, str(item.tool) ?? 'collab', input, at);
    if (!done) return;
    const ev = this.result(id, '', at);
    if (ev) ev.isError = item.status === 'failed';
  }

  private onWebSearch(id: string, item: Json, done: boolean, at: Stamp): void {
    const input: Json = { query: str(item.query) ?? '' };
    if (item.action !== undefined) input.action = item.action;
    this.ensureCall(id, 'web_search', input, at);
    if (done) this.result(id, '', at);
  }

  /**
   * todo_list items mirror the model's `update_plan` tool: each start/update with a new list is one call.
   * The completed item repeats the final state at turn end, so an unchanged list is not a new call.
   */
  private onPlanUpdate(id: string, item: Json, at: Stamp): void {
    const items = todoItems(item);
    const key = JSON.stringify(items);
    if (key === this.lastPlan) return;
    this.lastPlan = key;
    const callId = `${id}#${++this.planUpdates}`;
    this.ensureCall(callId, 'update_plan', { items }, at);
    this.result(callId, 'Plan updated', at);
  }

  private ensureCall(id: string, name: string, input: unknown, at: Stamp): void {
    const existing = this.calls.get(id);
    if (existing) {
      // file_change updates can refine the change list before completion.
      if (name === 'apply_patch') existing.input = input;
      return;
    }
    const call: ToolCallEvent = { kind: 'tool_call', id, name, input, ...at };
    this.calls.set(id, call);
    this.events.push(call);
  }

  private result(id: string, output: string, at: Stamp): ToolResultEvent | undefined {
    if (this.answered.has(id)) return undefined;
    this.answered.add(id);
    const ev: ToolResultEvent = { kind: 'tool_result', callId: id, output, isError: false, ...at };
    this.events.push(ev);
    return ev;
  }
}

export function createCodexParser(): StreamParser {
  return new CodexStreamParser();
}
