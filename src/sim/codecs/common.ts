/** Helpers shared by the provider codecs. */
import type { HistoryTurn, NeutralReply, NeutralRequest, ProviderId } from '../types.js';
import { escapeRegExp } from '../../util/regexp.js';

/** One server-sent event. `data` is JSON-encoded unless it is already a string (`[DONE]`). */
export interface WireFrame {
  event?: string;
  data: unknown;
}

export type RouteOp = 'messages' | 'count_tokens' | 'responses' | 'chat' | 'generate' | 'stream_generate';

export interface Route {
  provider: ProviderId;
  op: RouteOp;
  /** Model named in the URL (Gemini). */
  model?: string;
}

export interface ReplyContext {
  req: NeutralRequest;
  /** Request sequence number: keeps generated ids unique within one simulator. */
  seq: number;
  /** The raw request body, for wire details the neutral form leaves out (e.g. stream_options). */
  body: Record<string, unknown>;
}

/**
 * A provider's wire format, both ways: parse an agent request into neutral terms, and write a neutral
 * reply (streamed frames or one JSON body) or an error body back in the provider's shape.
 */
export interface ProviderCodec {
  provider: ProviderId;
  parse(body: Record<string, unknown>, route: Route, bodyChars: number): NeutralRequest;
  frames(reply: NeutralReply, ctx: ReplyContext): WireFrame[];
  json(reply: NeutralReply, ctx: ReplyContext): unknown;
  error(status: number, message: string): unknown;
}

/** A request the codec cannot make sense of; answered with HTTP 400. */
export class BadRequest extends Error {}

export function encodeFrame(frame: WireFrame): string {
  const data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  return frame.event ? `event: ${frame.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

/** Exit code stated in a shell tool result: `Exit code 2` (Claude), `Process exited with code 2` (Codex), `Exit Code: 2` (Gemini, Qwen). */
export function exitCodeOf(text: string): number | undefined {
  const m = /\bexit(?:ed with)? code:?\s*(-?\d+)/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Text of a content value: a string, or an array of parts carrying `text`. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? (p.text as string) : ''))
      .filter(Boolean)
      .join('\n');
  }
  if (content && typeof content === 'object' && typeof (content as { text?: unknown }).text === 'string') {
    return (content as { text: string }).text;
  }
  return '';
}

/**
 * The literal text each agent puts before its working directory, and what follows up to the directory.
 * A pattern is tried only where its literal occurs: `includes` finds that far faster than the regex
 * fails to match, and most prompts (every judge question, 3 MB of them for a 20 MB run) state no
 * working directory at all.
 */
const CWD_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = (
  [
    ['Primary working directory: ', String.raw`(\S+)`], // Claude Code
    ['<cwd>', String.raw`([^<]+)<\/cwd>`], // Codex
    ['Workspace Directories:**', String.raw`\s*\n\s*- (\S+)`], // Gemini
    ['currently working in the directory: ', String.raw`(\S+)`], // Qwen
    ['Working directory: ', String.raw`(\S+)`], // opencode, older Claude Code
  ] as const
).map(([literal, rest]) => [literal, new RegExp(escapeRegExp(literal) + rest)] as const);

/** The working directory the agent states in its prompt, if it states one. */
export function findCwd(text: string): string | undefined {
  for (const [literal, re] of CWD_PATTERNS) {
    if (!text.includes(literal)) continue;
    const m = re.exec(text);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

export function withCwd(text: string): { cwd?: string } {
  const cwd = findCwd(text);
  return cwd ? { cwd } : {};
}

export function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Arguments as an object: tool-call arguments arrive as JSON strings on the OpenAI wire formats. */
export function parseArgs(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      return asRecord(JSON.parse(v));
    } catch {
      return { _raw: v };
    }
  }
  return asRecord(v);
}

/** Builds the neutral history from a flat list of entries, grouping consecutive model entries into one turn. */
export class HistoryBuilder {
  readonly turns: HistoryTurn[] = [];
  private open: HistoryTurn | null = null;
  lastUserText = '';
  /** The last entry, clipped into `summary` only when read (once per request, not once per message). */
  private last: { label: string; text: string } | null = null;

  /** The log line for the request: its last entry, clipped. */
  get summary(): string {
    return this.last ? `${this.last.label}: ${clip(this.last.text)}` : '';
  }

  model(text: string, calls: HistoryTurn['toolCalls'] = []): void {
    this.last = { label: 'assistant', text: text || calls.map((c) => c.name).join(', ') };
    if (!this.open) {
      this.open = { text: '', toolCalls: [], results: [] };
      this.turns.push(this.open);
    }
    if (text) this.open.text += (this.open.text ? '\n' : '') + text;
    this.open.toolCalls.push(...calls);
  }

  result(r: HistoryTurn['results'][number]): void {
    this.last = { label: `tool_result ${r.callId}${r.isError ? ' (error)' : ''}`, text: r.output };
    const last = this.turns.at(-1);
    if (last) last.results.push(r);
    this.open = null;
  }

  user(text: string): void {
    this.open = null;
    if (text) {
      this.lastUserText = text;
      this.last = { label: 'user', text };
    }
  }
}

/** One line of at most `n` characters. */
export function clip(s: string, n = 100): string {
  // Only the start of a long text can show. Collapsing a prefix gives a prefix of the collapsed whole;
  // with more than n + 1 characters in it (never two spaces in a row), the whole is longer than n too.
  if (s.length > 4 * n) {
    const head = collapse(s.slice(0, 4 * n)).trimStart();
    if (head.length > n + 1) return `${head.slice(0, n - 1)}…`;
  }
  const one = collapse(s).trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ');

/** Rough token count: one token per four characters, at least one. */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

export function outputChars(reply: NeutralReply): number {
  let n = (reply.text?.length ?? 0) + (reply.thinking?.length ?? 0);
  for (const c of reply.toolCalls) n += c.name.length + JSON.stringify(c.args).length;
  return n;
}

/** Splits text into two chunks so clients exercise delta concatenation. */
export function chunks(text: string): string[] {
  if (text.length < 8) return [text];
  const mid = Math.floor(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}
