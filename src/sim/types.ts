/**
 * The simulator's neutral vocabulary. Provider codecs turn a wire request into a NeutralRequest and a
 * NeutralReply back into wire bytes; everything between (tapes, turn selection, faults, judge answers)
 * only ever sees these shapes. Record/replay can plug in at the same seam.
 */

export type ProviderId = 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini';

/** A JSON Schema fragment as a provider sent it (Gemini's upper-case types are lower-cased on parse). */
export type JsonSchema = Record<string, unknown>;

/** A tool the agent offered in its request. */
export interface OfferedTool {
  name: string;
  /** Input schema, when the tool has one (server tools such as web_search may not). */
  schema?: JsonSchema;
  /**
   * The tool was offered inside a namespace (Codex's `{type: "namespace", name: "mcp__docs", tools}`):
   * `name` is then `<namespace>__<tool>`, and calls go out as `{name: tool, namespace}`.
   */
  namespace?: { name: string; tool: string };
}

/** What came back for one tool call, as the agent reported it to the model. */
export interface ToolResult {
  callId: string;
  /** Tool name when the wire format carries it (Gemini does; the others are matched by call id). */
  name?: string;
  output: string;
  /** The agent flagged the result as an error (Anthropic `is_error`, Gemini `response.error`). */
  isError: boolean;
  /** Shell exit code read from the result text (`Exit code 2`, `Process exited with code 2`, `Exit Code: 2`). */
  exitCode?: number;
}

export interface NeutralToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** One model turn already in the conversation, with the tool results that followed it. */
export interface HistoryTurn {
  text: string;
  toolCalls: NeutralToolCall[];
  results: ToolResult[];
}

export interface NeutralRequest {
  provider: ProviderId;
  model: string;
  stream: boolean;
  tools: OfferedTool[];
  /** The request forces one named tool (tool_choice / allowedFunctionNames). */
  forcedTool?: string;
  system: string;
  /** Model turns so far, oldest first. Its length is the number of model turns already served. */
  history: HistoryTurn[];
  /** Text of the newest user message that is not a tool result ('' when there is none). */
  lastUserText: string;
  /** Short summary of the newest entry: `user: …`, `tool_result call_1: …` or `assistant: …`. */
  summary: string;
  /** System and every message's text, joined: what judge `match` patterns are tested against. */
  promptText: string;
  /** Structured-output schema the request asks for (Gemini responseJsonSchema, OpenAI response_format). */
  jsonSchema?: JsonSchema;
  /** The agent's working directory, when its prompt states one. */
  cwd?: string;
  /** Size of the raw request body in characters (drives the usage estimate). */
  bodyChars: number;
}

export interface Usage {
  input: number;
  output: number;
}

/** What the simulated model says in one response. */
export interface NeutralReply {
  text?: string;
  thinking?: string;
  toolCalls: NeutralToolCall[];
  usage: Usage;
}

/** Where a request's answer came from; lands in the request log. */
export type AnswerKind = 'turn' | 'side' | 'judge' | 'error' | 'not_found' | 'preflight' | 'count_tokens';

export interface AnswerSource {
  kind: AnswerKind;
  /** Tape turn index (kind 'turn', or an error raised while serving that turn). */
  turn?: number;
  turnId?: string;
  /** Judge entry index. */
  judge?: number;
  /** Why a side call was answered generically: `json_schema` or `no_tools`. */
  side?: 'json_schema' | 'no_tools';
  /** Fault injected instead of (or into) the answer: `status 500`, `drop mid-stream`, `malformed`. */
  fault?: string;
}

/** A fault applied to the body of a successful answer. */
export type StreamFault = { drop: 'mid-stream' } | { malformed: true };

/** The responder's verdict for one request. */
export type Decision =
  | { kind: 'reply'; source: AnswerSource; reply: NeutralReply; delayMs?: number; streamFault?: StreamFault }
  | {
      kind: 'error';
      source: AnswerSource;
      status: number;
      message: string;
      /** Replaces the provider-shaped error body (a string is sent as-is). */
      body?: unknown;
      delayMs?: number;
    };

export type SimEventType =
  | 'tape_exhausted'
  | 'tool_not_offered'
  | 'fault_injected'
  | 'divergence'
  | 'path_unresolved'
  | 'bad_request'
  | 'not_found';

export interface SimEvent {
  time: string;
  type: SimEventType;
  message: string;
  /** Sequence number of the request that caused it. */
  request?: number;
  turn?: number;
  data?: Record<string, unknown>;
}

/** One line of the request log. */
export interface SimRequestLog {
  seq: number;
  time: string;
  method: string;
  path: string;
  provider: ProviderId | null;
  model?: string;
  stream?: boolean;
  /** Names of the tools the agent offered. */
  tools: string[];
  /** Short summary of the newest message or tool result. */
  summary: string;
  answer: AnswerSource;
  status: number;
  durationMs: number;
}

/** Anything that can answer neutral requests: the tape engine today, a replayer later. */
export interface Responder {
  decide(req: NeutralRequest, ctx: { seq: number; emit: (e: Omit<SimEvent, 'time'>) => void }): Decision;
}
