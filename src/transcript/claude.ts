/**
 * Claude Code `-p --output-format stream-json --verbose` (also with `--include-partial-messages`).
 * Qwen Code prints the same format; qwen.ts reuses this parser with `flavor: 'qwen'`.
 */
import { classifyError, statusFromText } from './classify-error.js';
import {
  finalUsage,
  firstModel,
  maxInto,
  mcpStartError,
  qwenApiError,
  resultError,
  usageOf,
} from './claude-result.js';
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
  cost,
  isPermissionRefusal,
  isRecord,
  type Json,
  leadingExitCode,
  num,
  parseLine,
  rec,
  stamp,
  type Stamp,
  str,
  streamExitCode,
  textOf,
  toMs,
  unparsedEvent,
  UsageMeter,
} from './util.js';

export interface ClaudeParserOptions {
  /** `qwen` adds Qwen Code's quirks: `[API Error: …]` texts are errors; "Exit Code: N" lines in shell output. */
  flavor?: 'claude' | 'qwen';
}

interface MessageState {
  usage: TokenUsage;
  seen: Set<string>;
}

class ClaudeStreamParser implements StreamParser {
  private readonly qwen: boolean;
  private readonly events: TranscriptEvent[] = [];
  private readonly messages = new Map<string, MessageState>();
  private readonly results: ToolResultEvent[] = [];
  private readonly meter = new UsageMeter();
  private readonly live: TokenUsage = emptyUsage();
  private streamingId: string | undefined;
  private anonymous = 0;
  private resultLine: Json | undefined;
  private sessionId: string | undefined;
  private model: string | undefined;
  private lastRetryStatus: number | undefined;
  /** A configured MCP server the init line says did not start: the run's root cause. */
  private mcpError: RunError | undefined;

  constructor(options: ClaudeParserOptions) {
    this.qwen = options.flavor === 'qwen';
  }

  push(line: string, receivedAt?: number): void {
    const parsed = parseLine(line);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      this.events.push(unparsedEvent(line, parsed.reason, receivedAt));
      return;
    }
    const msg = parsed.value;
    this.sessionId ??= str(msg.session_id);
    switch (msg.type) {
      case 'system':
        this.onSystem(msg, receivedAt);
        break;
      case 'assistant':
        this.onAssistant(msg, receivedAt);
        break;
      case 'user':
        this.onUser(msg, receivedAt);
        break;
      case 'stream_event':
        this.onStreamEvent(rec(msg.event));
        break;
      case 'result':
        this.resultLine = msg;
        break;
      default:
        // tool_progress, keep_alive, auth_status... carry nothing the transcript needs.
        break;
    }
  }

  usage(): TokenUsage {
    const final = this.resultLine ? finalUsage(this.resultLine) : undefined;
    return this.meter.report(final ?? this.liveUsage());
  }

  finish(): ParsedStream {
    const r = this.resultLine;
    if (r) this.markDenials(r);
    const out: ParsedStream = {
      events: [],
      result: null,
      usage: r ? (finalUsage(r) ?? this.liveUsage()) : this.liveUsage(),
    };
    if (this.sessionId) out.sessionId = this.sessionId;
    const model = this.model ?? (r ? firstModel(rec(r.modelUsage)) : undefined);
    if (model) out.model = model;
    if (this.mcpError) out.error = this.mcpError;
    if (!r) return { ...out, events: [...this.events] };
    const spent = cost(r.total_cost_usd);
    if (spent !== undefined) out.costUsd = spent;
    const duration = num(r.duration_ms);
    if (duration !== undefined) out.agentDurationMs = duration;
    const error = resultError(r, this.qwen);
    if (error) {
      out.error = this.mcpError ?? error;
      if (!this.events.some((e) => e.kind === 'error' && e.message === error.message)) {
        const ev: ErrorEvent = { kind: 'error', message: error.message, errorClass: error.class };
        if (error.httpStatus !== undefined) ev.httpStatus = error.httpStatus;
        this.events.push(ev);
      }
    } else {
      out.result = str(r.result) ?? null;
    }
    return { ...out, events: [...this.events] };
  }

  private noteMcpError(servers: unknown, at: Stamp): void {
    const error = this.mcpError ? undefined : mcpStartError(servers, this.qwen);
    if (!error) return;
    this.mcpError = error;
    this.events.push({ kind: 'error', message: error.message, errorClass: error.class, ...at });
  }

  /** Sum over messages of each message's usage (kept as a running total). */
  private liveUsage(): TokenUsage {
    return { ...this.live };
  }

  /** Calls listed in `result.permission_denials` were refused by Claude Code's permission layer. */
  private markDenials(r: Json): void {
    if (!Array.isArray(r.permission_denials)) return;
    const denied = new Set<string>();
    for (const d of r.permission_denials) {
      const id = isRecord(d) ? str(d.tool_use_id) : undefined;
      if (id) denied.add(id);
    }
    for (const res of this.results) {
      if (denied.has(res.callId)) {
        res.permissionDenied = true;
        res.isError = true;
      }
    }
  }

  private messageState(id: string): MessageState {
    let state = this.messages.get(id);
    if (!state) {
      state = { usage: emptyUsage(), seen: new Set() };
      this.messages.set(id, state);
    }
    return state;
  }

  private onSystem(msg: Json, receivedAt: number | undefined): void {
    const subtype = str(msg.subtype) ?? 'system';
    const at = stamp(toMs(msg.timestamp), receivedAt);
    if (subtype === 'init') {
      this.model ??= str(msg.model);
      const data: Json = {};
      for (const key of [
        'model',
        'cwd',
        'permissionMode',
        'permission_mode',
        'claude_code_version',
        'qwen_code_version',
      ]) {
        if (msg[key] !== undefined) data[key] = msg[key];
      }
      if (Array.isArray(msg.tools)) data.tools = msg.tools;
      if (Array.isArray(msg.mcp_servers)) data.mcpServers = msg.mcp_servers;
      this.events.push({ kind: 'system', subtype: 'init', data, ...at });
      this.noteMcpError(msg.mcp_servers, at);
      return;
    }
    if (subtype === 'status') return; // "requesting" heartbeats
    if (subtype === 'api_retry') {
      const status = num(msg.error_status);
      if (status !== undefined) this.lastRetryStatus = status;
      const data: Json = { attempt: msg.attempt, maxRetries: msg.max_retries, error: msg.error };
      if (status !== undefined) data.httpStatus = status;
      this.events.push({ kind: 'system', subtype: 'api_retry', data, ...at });
      return;
    }
    this.events.push({ kind: 'system', subtype, ...at });
  }

  private onStreamEvent(ev: Json | undefined): void {
    if (!ev) return;
    if (ev.type === 'message_start') {
      const m = rec(ev.message);
      const id = str(m?.id);
      if (!id) return;
      this.streamingId = id;
      maxInto(this.messageState(id).usage, usageOf(rec(m?.usage)), this.live);
    } else if (ev.type === 'message_delta' && this.streamingId) {
      const u = rec(ev.usage);
      if (!u) return;
      const state = this.messageState(this.streamingId);
      // message_delta carries the running output count (and, on newer APIs, the input counts again).
      const partial = usageOf(u);
      maxInto(state.usage, partial, this.live);
    }
  }

  private onAssistant(msg: Json, receivedAt: number | undefined): void {
    const m = rec(msg.message);
    if (!m) return;
    const id = str(m.id) ?? `anon-${this.anonymous++}`;
    const state = this.messageState(id);
    const at = stamp(toMs(msg.timestamp), receivedAt);
    const model = str(m.model);
    if (model && model !== '<synthetic>') this.model ??= model;
    maxInto(state.usage, usageOf(rec(m.usage)), this.live);

    const errorCode = str(msg.error);
    const content = Array.isArray(m.content) ? m.content : [];
    if (errorCode) {
      // A synthetic message standing for a failed API call: an error, not something the model said.
      const message = textOf(content) || errorCode;
      const status = statusFromText(message) ?? this.lastRetryStatus;
      const ev: ErrorEvent = {
        kind: 'error',
        message,
        errorClass: classifyError({ code: errorCode, status, message }),
        ...at,
      };
      if (status !== undefined) ev.httpStatus = status;
      this.events.push(ev);
      return;
    }
    for (const block of content) {
      if (!isRecord(block)) continue;
      this.onAssistantBlock(block, id, state, at);
    }
  }

  private onAssistantBlock(block: Json, messageId: string, state: MessageState, at: Stamp): void {
    switch (block.type) {
      case 'text': {
        const text = str(block.text) ?? '';
        if (!this.firstSighting(state, `text:${text}`)) return;
        const failed = this.qwen ? qwenApiError(text) : undefined;
        if (failed) {
          const apiError = failed.message;
          if (failed.before) this.events.push({ kind: 'text', text: failed.before, messageId, ...at });
          const status = statusFromText(apiError);
          const ev: ErrorEvent = {
            kind: 'error',
            message: apiError,
            errorClass: classifyError({ status, message: apiError }),
            ...at,
          };
          if (status !== undefined) ev.httpStatus = status;
          this.events.push(ev);
          return;
        }
        this.events.push({ kind: 'text', text, messageId, ...at });
        return;
      }
      case 'thinking':
      case 'redacted_thinking': {
        const text = block.type === 'thinking' ? (str(block.thinking) ?? '') : '[redacted thinking]';
        if (!this.firstSighting(state, `thinking:${text}`)) return;
        this.events.push({ kind: 'thinking', text, messageId, ...at });
        return;
      }
      case 'tool_use':
      case 'server_tool_use':
      case 'mcp_tool_use': {
        const id = str(block.id) ?? '';
        if (!this.firstSighting(state, `tool:${id}`)) return;
        const name = str(block.name) ?? 'unknown';
        const fullName =
          block.type === 'mcp_tool_use' && str(block.server_name)
            ? `mcp__${String(block.server_name)}__${name}`
            : name;
        this.events.push({
          kind: 'tool_call',
          id,
          name: fullName,
          input: block.input ?? {},
          messageId,
          ...at,
        });
        return;
      }
      default: {
        // Server-side tool results (web_search_tool_result, mcp_tool_result, ...) arrive inside the assistant message.
        const type = str(block.type) ?? '';
        const callId = str(block.tool_use_id);
        if (type.endsWith('tool_result') && callId && this.firstSighting(state, `result:${callId}`)) {
          this.pushResult({
            kind: 'tool_result',
            callId,
            output: textOf(block.content),
            isError: block.is_error === true,
            ...at,
          });
        }
      }
    }
  }

  private firstSighting(state: MessageState, key: string): boolean {
    if (state.seen.has(key)) return false;
    state.seen.add(key);
    return true;
  }

  private onUser(msg: Json, receivedAt: number | undefined): void {
    const m = rec(msg.message);
    if (!m) return;
    const at = stamp(toMs(msg.timestamp), receivedAt);
    const content = m.content;
    if (typeof content === 'string') {
      if (msg.parent_tool_use_id == null) this.events.push({ kind: 'user', text: content, ...at });
      return;
    }
    if (!Array.isArray(content)) return;
    const userText: string[] = [];
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (block.type === 'tool_result') {
        const callId = str(block.tool_use_id) ?? '';
        let output = textOf(block.content);
        if (!output && typeof msg.tool_use_result === 'string') output = msg.tool_use_result;
        const isError = block.is_error === true;
        const ev: ToolResultEvent = { kind: 'tool_result', callId, output, isError, ...at };
        const exit = this.exitCode(output, isError);
        if (exit !== undefined) {
          ev.exitCode = exit;
          if (exit !== 0) ev.isError = true;
        }
        if (ev.isError && isPermissionRefusal(output)) ev.permissionDenied = true;
        this.pushResult(ev);
      } else if (block.type === 'text' && msg.parent_tool_use_id == null) {
        userText.push(str(block.text) ?? '');
      }
    }
    if (userText.length > 0) this.events.push({ kind: 'user', text: userText.join('\n'), ...at });
  }

  private exitCode(output: string, isError: boolean): number | undefined {
    if (isError) {
      const lead = leadingExitCode(output);
      if (lead !== undefined) return lead;
    }
    return this.qwen ? streamExitCode(output) : undefined;
  }

  private pushResult(ev: ToolResultEvent): void {
    this.results.push(ev);
    this.events.push(ev);
  }
}

export function createClaudeParser(options: ClaudeParserOptions = {}): StreamParser {
  return new ClaudeStreamParser(options);
}
