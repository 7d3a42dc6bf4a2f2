/** Small helpers shared by the stream parsers. Pure; nothing here throws on bad input. */
import type { SystemEvent, TokenUsage } from './model.js';
import { emptyUsage } from './model.js';
import { bracketsOver, nestedDeeperThan } from '../util/depth.js';

export type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** An integer (an exit code, an HTTP status: a report stores no other), else undefined. */
export function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** A cost: finite and not negative (a report stores no other), at most MAX_SAFE_INTEGER; else undefined. */
export function cost(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0
    ? Math.min(v, Number.MAX_SAFE_INTEGER)
    : undefined;
}

/** A count: finite and not negative, else 0; at most Number.MAX_SAFE_INTEGER. */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(v, Number.MAX_SAFE_INTEGER) : 0;
}

/**
 * `a + b`, at most Number.MAX_SAFE_INTEGER: an agent reporting absurd figures never sums to Infinity,
 * which JSON (the report) would store as null.
 */
export function saturatingAdd(a: number, b: number): number {
  return Math.min(a + b, Number.MAX_SAFE_INTEGER);
}

export function rec(v: unknown): Json | undefined {
  return isRecord(v) ? v : undefined;
}

/** Longest copy of a bad line kept in an `unparsed` event. */
export const UNPARSED_KEEP = 2000;

export type LineResult = { kind: 'blank' } | { kind: 'json'; value: Json } | { kind: 'bad'; reason: string };

/**
 * Deepest nesting of objects and arrays kept from one line of agent output. A deeper line is unparsed: the
 * code that redacts, scores and writes events walks them recursively and would overflow the stack.
 */
export const MAX_EVENT_DEPTH = 256;

/**
 * Parse one NDJSON line. Only JSON objects count; the first-character check avoids JSON.parse on plain text.
 * A line nested deeper than {@link MAX_EVENT_DEPTH} is `bad`.
 */
export function parseLine(line: string): LineResult {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) <= 32 || line.charCodeAt(i) === 0xfeff)) i++;
  if (i === line.length) return { kind: 'blank' };
  if (line.charCodeAt(i) !== 123 /* { */) return { kind: 'bad', reason: 'not a JSON object' };
  try {
    const value: unknown = JSON.parse(i === 0 ? line : line.slice(i));
    if (!isRecord(value)) return { kind: 'bad', reason: 'not a JSON object' };
    if (bracketsOver(line, MAX_EVENT_DEPTH) && nestedDeeperThan(value, MAX_EVENT_DEPTH))
      return { kind: 'bad', reason: `nested deeper than ${MAX_EVENT_DEPTH} levels` };
    return { kind: 'json', value };
  } catch {
    return { kind: 'bad', reason: 'invalid JSON' };
  }
}

export interface Stamp {
  ts?: number;
  tsSource?: 'agent' | 'received';
}

/** Prefer the agent's own time; fall back to when AXIS received the line. */
export function stamp(agentTs: number | undefined, receivedAt: number | undefined): Stamp {
  if (agentTs !== undefined) return { ts: agentTs, tsSource: 'agent' };
  if (receivedAt !== undefined) return { ts: receivedAt, tsSource: 'received' };
  return {};
}

/**
 * Epoch ms from a number or an ISO string. Numbers below 1e11 are taken as seconds
 * (1e11 ms is 1973; 1e11 s is year 5138), so `date +%s` output works too.
 */
export function toMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v < 1e11 ? v * 1000 : v;
  if (typeof v === 'string' && v.length >= 10 && v.length <= 40) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

export function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A line that could not be understood: kept, truncated, so nothing the agent printed silently disappears. */
export function unparsedEvent(line: string, reason: string, receivedAt: number | undefined): SystemEvent {
  return {
    kind: 'system',
    subtype: 'unparsed',
    data: { reason, line: truncate(line, UNPARSED_KEEP), length: line.length },
    ...stamp(undefined, receivedAt),
  };
}

/**
 * Text of a content value: a string, or an array of blocks where text blocks contribute their text
 * and other blocks a short marker (`[image]`). Used for Claude tool results and MCP results.
 */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isRecord(block)) {
      const text = str(block.text);
      if (text !== undefined) parts.push(text);
      else if (typeof block.type === 'string') parts.push(`[${block.type}]`);
    }
  }
  return parts.join('\n');
}

/** Componentwise max, so live usage never goes down even when a parser revises its estimate. */
export class UsageMeter {
  private shown: TokenUsage = emptyUsage();

  report(current: TokenUsage): TokenUsage {
    const s = this.shown;
    s.input = Math.max(s.input, current.input);
    s.output = Math.max(s.output, current.output);
    s.cacheReadInput = Math.max(s.cacheReadInput, current.cacheReadInput);
    if (current.cacheWriteInput !== undefined || s.cacheWriteInput !== undefined) {
      s.cacheWriteInput = Math.max(s.cacheWriteInput ?? 0, current.cacheWriteInput ?? 0);
    }
    return { ...s };
  }
}

export function addUsage(into: TokenUsage, add: TokenUsage): void {
  into.input = saturatingAdd(into.input, add.input);
  into.output = saturatingAdd(into.output, add.output);
  into.cacheReadInput = saturatingAdd(into.cacheReadInput, add.cacheReadInput);
  if (add.cacheWriteInput !== undefined)
    into.cacheWriteInput = saturatingAdd(into.cacheWriteInput ?? 0, add.cacheWriteInput);
}

/** Parse a run of ASCII digits (optionally signed) at `at`; undefined when there is none. */
export function intAt(text: string, at: number): number | undefined {
  let i = at;
  let sign = 1;
  if (text[i] === '-') {
    sign = -1;
    i++;
  }
  const start = i;
  while (i < text.length && i - start < 6) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  if (i === start) return undefined;
  return sign * Number(text.slice(start, i));
}

/**
 * Claude Code's failed Bash result starts with "Exit code N". Only that leading form counts:
 * anywhere else the phrase could be part of the command's own output.
 */
export function leadingExitCode(text: string): number | undefined {
  return text.startsWith('Exit code ') ? intAt(text, 10) : undefined;
}

/**
 * Gemini CLI / Qwen Code shell results: "Command exited with code: N" (the display text when the command
 * printed nothing), or exactly one "Exit Code: N" line (the llmContent form, e.g. with --debug).
 */
export function shellExitCode(text: string): number | undefined {
  const display = 'Command exited with code: ';
  if (text.startsWith(display)) return intAt(text, display.length);
  const marker = 'Exit Code: ';
  const at = text.indexOf(marker);
  if (at === -1 || text.indexOf(marker, at + 1) !== -1) return undefined;
  if (at !== 0 && text[at - 1] !== '\n') return undefined;
  return intAt(text, at + marker.length);
}

/**
 * shellExitCode of a stream's tool result, non-zero only: there the text is the command's output as is,
 * which can print a `0` line itself, so a 0 is no proof of success (a non-zero one only ever lowers).
 */
export function streamExitCode(text: string): number | undefined {
  const code = shellExitCode(text);
  return code === 0 ? undefined : code;
}

/** Tool-result texts meaning the agent's own permission layer refused the call (not a shell EACCES). */
const PERMISSION_PHRASES = [
  "haven't granted it yet", // Claude Code: "Claude requested permissions to use X, but you haven't granted it yet."
  'has been denied', // Claude Code: "Permission to use X has been denied."
  'was blocked. For security', // Claude Code: output redirection outside the allowed directories
  'rejected permission', // opencode: "The user rejected permission to use this specific tool call."
  'user rejected',
  'user denied',
];

export function isPermissionRefusal(text: string): boolean {
  const head = text.length > 2000 ? text.slice(0, 2000) : text;
  return PERMISSION_PHRASES.some((p) => head.includes(p));
}

/**
 * The script inside `/bin/bash -lc <script>`, so `exec --json` and rollout commands compare equal. Codex
 * quotes the script in sections (`"grep 'x' a; echo "'`pwd`'`), so it is split as a POSIX shell would.
 */
export function shellScript(command: string): string {
  const cmd = command.trim();
  const m = /^(?:\S*\/)?(?:ba|z|da)?sh\s+-l?c\s+/.exec(cmd);
  if (!m) return cmd;
  const words = shellWords(cmd.slice(m[0].length));
  return words && words.length > 0 ? words[0]! : cmd.slice(m[0].length).trim();
}

/**
 * POSIX shell words of a command line, quotes and backslashes removed (no expansion); null when a quote
 * is left open. Hand-written: only the `sh -c` wrapper needs splitting, and no library splits without
 * also expanding variables or parsing operators.
 */
export function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      cur += line.slice(i + 1, end);
      i = end + 1;
      inWord = true;
    } else if (c === '"') {
      const read = doubleQuoted(line, i + 1);
      if (!read) return null;
      cur += read.text;
      i = read.end;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < line.length && line[i + 1] !== '\n') cur += line[i + 1];
      i += 2;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      i++;
    } else {
      // A run of plain characters in one slice: a string per character made this the most
      // allocating step of scoring a long run's shell calls.
      PLAIN_RUN.lastIndex = i;
      PLAIN_RUN.test(line);
      cur += line.slice(i, PLAIN_RUN.lastIndex);
      inWord = true;
      i = PLAIN_RUN.lastIndex;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

const PLAIN_RUN = /[^'"\\\s]+/y;

/** Text of a double-quoted section starting after its `"`: a backslash escapes only $ ` " \ and newline. */
function doubleQuoted(line: string, start: number): { text: string; end: number } | null {
  let text = '';
  for (let i = start; i < line.length; i++) {
    const d = line[i]!;
    if (d === '"') return { text, end: i + 1 };
    if (d === '\\' && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1]!)) {
      if (line[i + 1] !== '\n') text += line[i + 1];
      i++;
    } else text += d;
  }
  return null;
}
