/**
 * Codex session rollout files (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): the full record of a
 * session, written even when `exec --json` leaves tool calls out (the read-only sandbox case).
 * Lines are `{timestamp, type, payload}` with type session_meta | turn_context | response_item | event_msg | ...
 */
import { codexUsage, runError } from './codex.js';
import type { ParsedStream, TokenUsage, ToolCallEvent, ToolResultEvent, TranscriptEvent } from './model.js';
import { emptyUsage } from './model.js';
import {
  intAt,
  isRecord,
  num,
  parseLine,
  rec,
  stamp,
  str,
  toMs,
  unparsedEvent,
  type Json,
  type Stamp,
} from './util.js';

interface ExecInfo {
  output?: string;
  exitCode?: number;
  status?: string;
}

/** Tool name and input as `exec --json` would show them, so both sources read the same. */
function mapFunctionCall(name: string, args: unknown): { name: string; input: unknown } {
  const a = rec(args);
  if (name === 'exec_command' && a) return { name: 'shell', input: { command: str(a.cmd) ?? '' } };
  if ((name === 'shell' || name === 'container.exec') && a) {
    const cmd = Array.isArray(a.command) ? shellJoin(a.command) : (str(a.command) ?? '');
    return { name: 'shell', input: { command: cmd } };
  }
  if (name === 'update_plan' && a && Array.isArray(a.plan)) {
    const items = a.plan
      .filter(isRecord)
      .map((s) => ({ text: str(s.step) ?? '', completed: s.status === 'completed' }));
    return { name: 'update_plan', input: { items } };
  }
  return { name, input: args ?? {} };
}

function parseArgs(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return { arguments: raw };
  }
}

/** Paths named in an apply_patch body ("*** Add File: p", "*** Update File: p", "*** Delete File: p"). */
export function patchChanges(patch: string): Array<{ path: string; kind: string }> {
  const out: Array<{ path: string; kind: string }> = [];
  const kinds: Array<[string, string]> = [
    ['*** Add File: ', 'add'],
    ['*** Update File: ', 'update'],
    ['*** Delete File: ', 'delete'],
  ];
  for (const line of patch.split('\n')) {
    for (const [prefix, kind] of kinds) {
      if (line.startsWith(prefix)) out.push({ path: line.slice(prefix.length).trim(), kind });
    }
  }
  return out;
}

function shellJoin(argv: unknown[]): string {
  return argv
    .map((a) => String(a))
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/**
 * exec_command output as the model saw it: "Chunk ID…\nProcess exited with code N\n…\nOutput:\n<text>".
 * Older versions wrote a JSON string `{"output": …, "metadata": {"exit_code": N}}`.
 */
function parseExecOutput(raw: unknown): ExecInfo {
  if (isRecord(raw)) return { output: str(raw.content) ?? str(raw.output) ?? JSON.stringify(raw) };
  const text = typeof raw === 'string' ? raw : '';
  if (text.startsWith('{')) {
    const parsed = parseLine(text);
    if (parsed.kind === 'json' && typeof parsed.value.output === 'string') {
      const exitCode = num(rec(parsed.value.metadata)?.exit_code);
      return exitCode !== undefined
        ? { output: parsed.value.output, exitCode }
        : { output: parsed.value.output };
    }
  }
  const info: ExecInfo = { output: text };
  const marker = 'Process exited with code ';
  // Only Codex's header, before the output: a command still running has no exit line there, and
  // its output could print one.
  const body = text.indexOf('\nOutput:\n');
  const at = text.indexOf(marker);
  if (at !== -1 && (body === -1 || at < body)) {
    const code = intAt(text, at + marker.length);
    if (code !== undefined) info.exitCode = code;
    if (body !== -1) info.output = text.slice(body + '\nOutput:\n'.length);
  }
  return info;
}

class RolloutReader {
  readonly events: TranscriptEvent[] = [];
  private readonly calls = new Map<string, ToolCallEvent>();
  private readonly results = new Map<string, ToolResultEvent>();
  private readonly exec = new Map<string, ExecInfo>();
  usage: TokenUsage = emptyUsage();
  sessionId: string | undefined;
  model: string | undefined;
  result: string | null = null;
  durationMs: number | undefined;
  error: ParsedStream['error'];
  private lastUser = '';

  line(raw: string): void {
    const parsed = parseLine(raw);
    if (parsed.kind === 'blank') return;
    if (parsed.kind === 'bad') {
      this.events.push(unparsedEvent(raw, parsed.reason, undefined));
      return;
    }
    const rec0 = parsed.value;
    const payload = rec(rec0.payload);
    const at = stamp(toMs(rec0.timestamp), undefined);
    if (!payload) return;
    switch (rec0.type) {
      case 'session_meta':
        this.sessionId ??= str(payload.id) ?? str(payload.session_id);
        break;
      case 'turn_context':
        this.model = str(payload.model) ?? this.model;
        break;
      case 'response_item':
        this.responseItem(payload, at);
        break;
      case 'event_msg':
        this.eventMsg(payload, at);
        break;
      default:
        break;
    }
  }

  private responseItem(p: Json, at: Stamp): void {
    switch (p.type) {
      case 'message':
        if (p.role === 'assistant' && Array.isArray(p.content)) {
          const text = p.content
            .filter(isRecord)
            .map((c) => str(c.text) ?? '')
            .join('');
          this.events.push({ kind: 'text', text, ...at });
        }
        return;
      case 'reasoning': {
        const summary = Array.isArray(p.summary)
          ? p.summary.filter(isRecord).map((s) => str(s.text) ?? '')
          : [];
        const text = summary.join('\n');
        if (text.trim()) this.events.push({ kind: 'thinking', text, ...at });
        return;
      }
      case 'function_call': {
        // An MCP tool is called inside its server's namespace (`mcp__docs` + `echo`); --json names it
        // `mcp__docs__echo`, so both sources name it the same.
        const ns = str(p.namespace);
        const bare = str(p.name) ?? 'unknown';
        const { name, input } = mapFunctionCall(ns ? `${ns}__${bare}` : bare, parseArgs(p.arguments));
        this.call(str(p.call_id) ?? str(p.id) ?? '', name, input, at);
        return;
      }
      case 'custom_tool_call': {
        const name = str(p.name) ?? 'unknown';
        const raw = str(p.input) ?? '';
        const input = name === 'apply_patch' ? { changes: patchChanges(raw) } : { input: raw };
        this.call(str(p.call_id) ?? str(p.id) ?? '', name, input, at);
        return;
      }
      case 'local_shell_call': {
        const action = rec(p.action);
        const cmd = Array.isArray(action?.command) ? shellJoin(action.command) : '';
        this.call(str(p.call_id) ?? str(p.id) ?? '', 'shell', { command: cmd }, at);
        return;
      }
      case 'web_search_call': {
        const id = str(p.id) ?? `ws-${this.events.length}`;
        this.call(id, 'web_search', { query: str(rec(p.action)?.query) ?? '' }, at);
        this.toolResult(id, { output: '' }, at);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const id = str(p.call_id) ?? '';
        const known = this.exec.get(id);
        const parsed =
          this.calls.get(id)?.name === 'shell' ? parseExecOutput(p.output) : { output: textOutput(p.output) };
        this.toolResult(id, known ? { ...parsed, ...known } : parsed, at);
        return;
      }
      default:
        return;
    }
  }

  private eventMsg(p: Json, at: Stamp): void {
    switch (p.type) {
      case 'user_message':
        this.user(str(p.message) ?? '', at);
        return;
      case 'item_completed': {
        const item = rec(p.item);
        if (!item) return;
        if (item.type === 'UserMessage' && Array.isArray(item.content)) {
          this.user(
            item.content
              .filter(isRecord)
              .map((c) => str(c.text) ?? '')
              .join('\n'),
            at,
          );
        } else if (item.type === 'CommandExecution') {
          this.execEnd(str(item.id) ?? '', item);
        }
        return;
      }
      case 'exec_command_end':
        this.execEnd(str(p.call_id) ?? '', p);
        return;
      case 'token_count': {
        // total_token_usage is cumulative for the session: the latest wins.
        const total = rec(rec(p.info)?.total_token_usage);
        if (total) this.usage = codexUsage(total);
        return;
      }
      case 'task_complete':
        this.result = str(p.last_agent_message) ?? this.result;
        this.durationMs = num(p.duration_ms) ?? this.durationMs;
        return;
      case 'error': {
        const err = runError(str(p.message) ?? 'error');
        this.error = err;
        this.events.push({ kind: 'error', message: err.message, errorClass: err.class, ...at });
        return;
      }
      case 'stream_error': {
        const err = runError(str(p.message) ?? 'stream error');
        this.events.push({ kind: 'error', message: err.message, errorClass: err.class, ...at });
        return;
      }
      case 'turn_aborted': {
        const message = `Turn aborted: ${str(p.reason) ?? 'unknown reason'}`;
        this.error = { class: 'cancelled', message };
        this.events.push({ kind: 'error', message, errorClass: 'cancelled', ...at });
        return;
      }
      default:
        return;
    }
  }

  private user(text: string, at: Stamp): void {
    if (text === this.lastUser) return;
    this.lastUser = text;
    this.events.push({ kind: 'user', text, ...at });
  }

  private execEnd(id: string, item: Json): void {
    const info: ExecInfo = {};
    const output = str(item.aggregated_output) ?? str(item.formatted_output);
    if (output !== undefined) info.output = output;
    const exit = num(item.exit_code);
    if (exit !== undefined) info.exitCode = exit;
    const status = str(item.status);
    if (status) info.status = status;
    this.exec.set(id, info);
    // The output item may already be in (ordering varies between versions): refine it.
    const res = this.results.get(id);
    if (res) applyExec(res, info);
  }

  private call(id: string, name: string, input: unknown, at: Stamp): void {
    if (this.calls.has(id)) return;
    const ev: ToolCallEvent = { kind: 'tool_call', id, name, input, ...at };
    this.calls.set(id, ev);
    this.events.push(ev);
  }

  private toolResult(id: string, info: ExecInfo, at: Stamp): void {
    if (this.results.has(id)) return;
    const ev: ToolResultEvent = { kind: 'tool_result', callId: id, output: '', isError: false, ...at };
    applyExec(ev, info);
    this.results.set(id, ev);
    this.events.push(ev);
  }
}

function textOutput(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  if (isRecord(raw)) return str(raw.content) ?? str(raw.output) ?? JSON.stringify(raw);
  return raw == null ? '' : JSON.stringify(raw);
}

function applyExec(ev: ToolResultEvent, info: ExecInfo): void {
  if (info.output !== undefined) ev.output = info.output;
  if (info.exitCode !== undefined) ev.exitCode = info.exitCode;
  const declined = info.status === 'declined';
  ev.isError = info.status === 'failed' || declined || (ev.exitCode !== undefined && ev.exitCode !== 0);
  if (declined) ev.permissionDenied = true;
}

/** Parse a whole rollout file. Never throws; bad lines become `unparsed` system events. */
export function parseCodexRollout(text: string): ParsedStream {
  const reader = new RolloutReader();
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    reader.line(text.slice(start, end));
    start = end + 1;
  }
  const out: ParsedStream = { events: reader.events, result: reader.result, usage: reader.usage };
  if (reader.sessionId) out.sessionId = reader.sessionId;
  if (reader.model) out.model = reader.model;
  if (reader.durationMs !== undefined) out.agentDurationMs = reader.durationMs;
  if (reader.error) out.error = reader.error;
  return out;
}
