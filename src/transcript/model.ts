/**
 * One normalized transcript model for every agent. Adapters parse their CLI's own stream into this;
 * scoring and reports read only this (plus the raw lines kept beside it for debugging).
 *
 * Times are epoch milliseconds. `ts` is the agent's own timestamp when its stream carries one,
 * otherwise the time AXIS received the line (`tsSource` says which).
 */
/** Every failure class; `ErrorClass` is derived from this list, so the two cannot drift apart. */
export const ERROR_CLASSES = [
  'auth',
  'quota',
  'rate_limit',
  'network',
  'timeout',
  'crash',
  'limit_exceeded',
  'setup_failed',
  'api_error',
  'cancelled',
] as const;

export type ErrorClass = (typeof ERROR_CLASSES)[number];

/**
 * `completed`: the agent ran and exited cleanly. `failed`: setup failed, the agent crashed or reported an
 * error (see `errorClass`). `limit_exceeded`: a token limit (or the run's limits) stopped it. `timeout`: the
 * scenario time limit stopped it. `cancelled`: Ctrl-C or a run limit stopped the run before it finished.
 */
export const JOB_STATUSES = ['completed', 'failed', 'limit_exceeded', 'timeout', 'cancelled'] as const;

/** One of JOB_STATUSES, the list reports keep their order from and report.json's schema its enum. */
export type JobStatus = (typeof JOB_STATUSES)[number];

interface EventBase {
  ts?: number;
  tsSource?: 'agent' | 'received';
}

export interface UserEvent extends EventBase {
  kind: 'user';
  text: string;
}
export interface TextEvent extends EventBase {
  kind: 'text';
  text: string;
  /** Provider message id, when the agent reports one (Claude merges blocks by it). */
  messageId?: string;
}
export interface ThinkingEvent extends EventBase {
  kind: 'thinking';
  text: string;
  messageId?: string;
}
export interface ToolCallEvent extends EventBase {
  kind: 'tool_call';
  /** The agent's id for the call; results point back to it. */
  id: string;
  /** Tool name exactly as the agent reports it (`Bash`, `exec_command`, `run_shell_command`, `mcp__srv__tool`). */
  name: string;
  input: unknown;
  messageId?: string;
  /** Tool category the agent declares (ACP `kind`: read, edit, execute, fetch, think, ...). */
  toolKind?: string;
}
export interface ToolResultEvent extends EventBase {
  kind: 'tool_result';
  /** Id of the tool_call this answers. */
  callId: string;
  output: string;
  isError: boolean;
  /** Shell exit code where the agent reports it (or it can be read unambiguously from the output). */
  exitCode?: number;
  /** HTTP status where visible (web fetch tools). */
  httpStatus?: number;
  /** The agent's permission layer refused the call. */
  permissionDenied?: boolean;
}
export interface ErrorEvent extends EventBase {
  kind: 'error';
  message: string;
  errorClass?: ErrorClass;
  httpStatus?: number;
}
export interface SystemEvent extends EventBase {
  kind: 'system';
  subtype: string;
  data?: Record<string, unknown>;
}

export type TranscriptEvent =
  UserEvent | TextEvent | ThinkingEvent | ToolCallEvent | ToolResultEvent | ErrorEvent | SystemEvent;

export interface TokenUsage {
  input: number;
  output: number;
  cacheReadInput: number;
  cacheWriteInput?: number;
}

export interface RunError {
  class: ErrorClass;
  message: string;
  httpStatus?: number;
}

/** What a stream parser can tell from the agent's output alone. */
export interface ParsedStream {
  events: TranscriptEvent[];
  /** Final answer text, or null when the agent gave none. */
  result: string | null;
  usage: TokenUsage;
  costUsd?: number;
  sessionId?: string;
  model?: string;
  /** Duration the agent itself reports, when it does. */
  agentDurationMs?: number;
  /** An error the stream itself reports (API error, failed turn). */
  error?: RunError;
}

/** Incremental parser: fed stdout lines as they arrive so limits can act on live token counts. */
export interface StreamParser {
  push(line: string, receivedAt?: number): void;
  /** Usage seen so far (monotonic). */
  usage(): TokenUsage;
  finish(): ParsedStream;
}

/** The full record of one agent run. */
export interface Transcript extends ParsedStream {
  agent: string;
  exitCode: number | null;
  signal?: string | null;
  startedAt: number;
  endedAt: number;
  durationMs: number;
}

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, cacheReadInput: 0 };
}
