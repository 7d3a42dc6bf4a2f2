/**
 * Groups a normalized transcript into interactions — the unit every signal, judge and report line
 * talks about. One pass over the events, no copies of tool inputs or outputs (docs/scoring.md#interactions).
 */
import type {
  ErrorEvent,
  TextEvent,
  ThinkingEvent,
  ToolCallEvent,
  ToolResultEvent,
  Transcript,
  TranscriptEvent,
} from '../transcript/model.js';
import type { DurationSource, Failure, Interaction } from './types.js';

export const SUMMARY_CHARS = 200;

export interface GroupOptions {
  /** Epoch ms the run started; `startMs` is measured from here (else from the first timestamp). */
  startedAt?: number;
  /** Epoch ms the run ended; with startedAt it bounds durations that mix the two clocks. */
  endedAt?: number;
}

/** Slack around the run window for durations measured across the agent's and AXIS's clocks. */
export const CLOCK_SLACK_MS = 1_000;

interface Stamp {
  ts: number;
  agent: boolean;
}

export function groupTranscript(
  transcript: Pick<Transcript, 'events' | 'startedAt' | 'endedAt'>,
): Interaction[] {
  return groupInteractions(transcript.events, {
    startedAt: transcript.startedAt,
    endedAt: transcript.endedAt,
  });
}

export function groupInteractions(
  events: readonly TranscriptEvent[],
  options: GroupOptions = {},
): Interaction[] {
  // An object literal, not a class: the same steps as a class ran 2-3x slower in calls after a full GC.
  const g: Grouping = {
    events,
    runStart: options.startedAt ?? firstTs(events),
    span: makeSpan(options),
    out: [],
    pendingById: new Map(),
    lastById: new Map(),
    queue: [],
    queueHead: 0,
    reasoning: null,
    reasoningHasText: false,
    turnStart: null,
    groupEnd: null,
    last: null,
  };
  for (let i = 0; i < events.length; i++) addEvent(g, events[i]!, i);
  closeReasoning(g);
  return g.out;
}

/** One pass's state: the open stretch of reasoning, the calls still waiting for a result, the last stamp. */
interface Grouping {
  readonly events: readonly TranscriptEvent[];
  readonly runStart: number | undefined;
  readonly span: Span;
  readonly out: Interaction[];
  readonly pendingById: Map<string, Interaction[]>;
  readonly lastById: Map<string, Interaction>;
  /** Every call in order; `queueHead` skips those already answered. */
  readonly queue: Interaction[];
  queueHead: number;
  reasoning: Interaction | null;
  reasoningHasText: boolean;
  turnStart: Stamp | null;
  groupEnd: Stamp | null;
  last: Stamp | null;
}

function addEvent(g: Grouping, ev: TranscriptEvent, i: number): void {
  const stamp = stampOf(ev.ts, ev.tsSource);
  if (ev.kind === 'text' || ev.kind === 'thinking') addReasoning(g, ev, i, stamp);
  else {
    closeReasoning(g);
    if (ev.kind === 'tool_call') addCall(g, ev, i, stamp);
    else if (ev.kind === 'tool_result') addResult(g, ev, i, stamp);
    else if (ev.kind === 'error')
      g.out.push(errorInteraction(g.out.length + 1, ev, i, startOf(g, stamp?.ts)));
    // user and system events are not agent actions: they only end a stretch of reasoning.
  }
  if (stamp !== null) g.last = stamp;
}

function startOf(g: Grouping, ts: number | undefined): number | null {
  return ts === undefined || g.runStart === undefined ? null : ts - g.runStart;
}

function closeReasoning(g: Grouping): void {
  if (g.reasoning === null) return;
  if (g.turnStart !== null && g.groupEnd !== null) setDuration(g.reasoning, g.span(g.turnStart, g.groupEnd));
  g.reasoning = null;
}

function addReasoning(g: Grouping, ev: TextEvent | ThinkingEvent, i: number, stamp: Stamp | null): void {
  let reasoning = g.reasoning;
  if (reasoning === null) {
    reasoning = newInteraction(g.out.length + 1, 'reasoning', i, startOf(g, stamp?.ts));
    reasoning.thinkingOnly = true;
    g.reasoning = reasoning;
    g.reasoningHasText = false;
    g.turnStart = g.last;
    g.groupEnd = null;
    g.out.push(reasoning);
  } else {
    appendIndex(reasoning, i);
    if (reasoning.startMs === null) reasoning.startMs = startOf(g, stamp?.ts);
  }
  reasoning.contextBytes += utf8Bytes(ev.text);
  const hasText = NOT_BLANK.test(ev.text);
  if (ev.kind === 'text' && !g.reasoningHasText) {
    reasoning.thinkingOnly = false;
    if (hasText) {
      reasoning.summary = ev.text.slice(0, SUMMARY_CHARS);
      g.reasoningHasText = true;
    }
  } else if (reasoning.summary === undefined && hasText) {
    reasoning.summary = ev.text.slice(0, SUMMARY_CHARS);
  }
  if (stamp !== null) g.groupEnd = stamp;
}

/** What `text.trim() !== ''` says, without making the trimmed copy. */
const NOT_BLANK = /\S/;

/**
 * Most interactions have one entry or two (a call and its result). A push onto a one-element array grows
 * its store to 17 slots, and every interaction outlives the young generation: a two-element array
 * instead keeps a long run's kept interactions about a tenth smaller.
 */
function appendIndex(ix: Interaction, index: number): void {
  const e = ix.entryIndices;
  if (e.length === 1) ix.entryIndices = [e[0]!, index];
  else e.push(index);
}

function addCall(g: Grouping, ev: ToolCallEvent, i: number, stamp: Stamp | null): void {
  const ix = toolInteraction(g.out.length + 1, ev, i, startOf(g, stamp?.ts));
  g.out.push(ix);
  g.queue.push(ix);
  const list = g.pendingById.get(ix.tool!.callId);
  if (list) list.push(ix);
  else g.pendingById.set(ix.tool!.callId, [ix]);
  g.lastById.set(ix.tool!.callId, ix);
}

function addResult(g: Grouping, ev: ToolResultEvent, i: number, stamp: Stamp | null): void {
  let ix: Interaction | undefined;
  let pairing: 'id' | 'order' = 'id';
  const waiting = ev.callId ? g.pendingById.get(ev.callId) : undefined;
  if (waiting && waiting.length > 0) ix = waiting.shift();
  else if (ev.callId && g.lastById.has(ev.callId)) ix = g.lastById.get(ev.callId);
  else {
    ix = oldestWaiting(g);
    pairing = 'order';
  }
  if (ix) attachResult(ix, ev, i, g.events, pairing, g.span);
  else g.out.push(orphanResult(g.out.length + 1, ev, i, startOf(g, stamp?.ts)));
}

/** Fallback: a result with no usable id answers the oldest call still waiting. */
function oldestWaiting(g: Grouping): Interaction | undefined {
  while (g.queueHead < g.queue.length && g.queue[g.queueHead]!.tool!.output !== null) g.queueHead++;
  const ix = g.queue[g.queueHead];
  if (ix) {
    const list = g.pendingById.get(ix.tool!.callId);
    const at = list ? list.indexOf(ix) : -1;
    if (list && at >= 0) list.splice(at, 1);
  }
  return ix;
}

function firstTs(events: readonly TranscriptEvent[]): number | undefined {
  for (const ev of events) if (ev.ts !== undefined && Number.isFinite(ev.ts)) return ev.ts;
  return undefined;
}

type Span = (from: Stamp, to: Stamp) => { ms: number; source: DurationSource } | null;

/**
 * Duration between two stamps. Same clock: the difference (none if negative). Mixed clocks (agent's own
 * time and AXIS's receipt time): labelled `received`, and dropped when either time lies outside the run
 * window — then the clocks disagree (e.g. a transcript re-parsed later) and the difference means nothing.
 */
function makeSpan(options: GroupOptions): Span {
  const { startedAt, endedAt } = options;
  const inWindow = (ts: number): boolean =>
    startedAt === undefined ||
    endedAt === undefined ||
    (ts >= startedAt - CLOCK_SLACK_MS && ts <= endedAt + CLOCK_SLACK_MS);
  return (from, to) => {
    if (to.ts < from.ts) return null;
    if (from.agent !== to.agent && !(inWindow(from.ts) && inWindow(to.ts))) return null;
    return { ms: to.ts - from.ts, source: from.agent && to.agent ? 'agent' : 'received' };
  };
}

function setDuration(ix: Interaction, d: { ms: number; source: DurationSource } | null): void {
  if (d === null) return;
  ix.durationMs = d.ms;
  ix.durationSource = d.source;
}

function stampOf(ts: number | undefined, source: 'agent' | 'received' | undefined): Stamp | null {
  return ts === undefined || !Number.isFinite(ts) ? null : { ts, agent: source === 'agent' };
}

function newInteraction(
  id: number,
  type: Interaction['type'],
  index: number,
  startMs: number | null,
): Interaction {
  return {
    id,
    type,
    entryIndices: [index],
    startMs,
    durationMs: null,
    durationSource: 'none',
    contextBytes: 0,
    outcome: 'ok',
  };
}

function toolInteraction(id: number, ev: ToolCallEvent, index: number, startMs: number | null): Interaction {
  const ix = newInteraction(id, 'tool', index, startMs);
  ix.outcome = 'no_result';
  ix.contextBytes = jsonBytes(ev.input);
  ix.tool = { name: ev.name ?? '', callId: ev.id ?? '', input: ev.input, output: null, pairing: 'none' };
  if (ev.toolKind) ix.tool.declaredKind = ev.toolKind;
  return ix;
}

function attachResult(
  ix: Interaction,
  ev: ToolResultEvent,
  index: number,
  events: readonly TranscriptEvent[],
  pairing: 'id' | 'order',
  span: Span,
): void {
  const tool = ix.tool!;
  const output = typeof ev.output === 'string' ? ev.output : '';
  if (tool.output === null) {
    tool.output = output;
    tool.pairing = pairing;
  } else {
    (tool.extraOutputs ??= []).push(output);
  }
  appendIndex(ix, index);
  ix.contextBytes += utf8Bytes(output);
  if (ev.exitCode !== undefined) tool.exitCode = ev.exitCode;
  if (ev.httpStatus !== undefined) tool.httpStatus = ev.httpStatus;
  if (ev.permissionDenied) tool.permissionDenied = true;

  const call = events[ix.entryIndices[0]!]!;
  const from = stampOf(call.ts, call.tsSource);
  const to = stampOf(ev.ts, ev.tsSource);
  if (from !== null && to !== null) setDuration(ix, span(from, to));

  const failure = resultFailure(ev);
  if (failure && !ix.failure) {
    ix.failure = failure;
    ix.outcome = 'error';
  } else if (ix.outcome === 'no_result') {
    ix.outcome = 'ok';
  }
}

function orphanResult(id: number, ev: ToolResultEvent, index: number, startMs: number | null): Interaction {
  const ix = newInteraction(id, 'tool', index, startMs);
  const output = typeof ev.output === 'string' ? ev.output : '';
  ix.contextBytes = utf8Bytes(output);
  ix.tool = { name: '', callId: ev.callId ?? '', input: undefined, output, pairing: 'none' };
  if (ev.exitCode !== undefined) ix.tool.exitCode = ev.exitCode;
  if (ev.httpStatus !== undefined) ix.tool.httpStatus = ev.httpStatus;
  if (ev.permissionDenied) ix.tool.permissionDenied = true;
  const failure = resultFailure(ev);
  if (failure) {
    ix.failure = failure;
    ix.outcome = 'error';
  }
  return ix;
}

function errorInteraction(id: number, ev: ErrorEvent, index: number, startMs: number | null): Interaction {
  const ix = newInteraction(id, 'error', index, startMs);
  const message = typeof ev.message === 'string' ? ev.message : '';
  ix.contextBytes = utf8Bytes(message);
  ix.summary = message.slice(0, SUMMARY_CHARS);
  ix.outcome = 'error';
  const parts = [ev.errorClass ?? 'agent error'];
  if (ev.httpStatus !== undefined) parts.push(`HTTP ${ev.httpStatus}`);
  ix.failure = { kind: 'agent_error', detail: parts.join(', ') };
  if (ev.errorClass !== undefined) ix.failure.errorClass = ev.errorClass;
  if (ev.httpStatus !== undefined) ix.failure.httpStatus = ev.httpStatus;
  return ix;
}

/** Why a tool result counts as failed, most specific evidence first; undefined when it did not fail. */
export function resultFailure(ev: ToolResultEvent): Failure | undefined {
  if (ev.permissionDenied) return { kind: 'permission_denied', detail: 'permission denied' };
  if (ev.httpStatus !== undefined && ev.httpStatus >= 400)
    return { kind: 'http_status', detail: `HTTP ${ev.httpStatus}`, httpStatus: ev.httpStatus };
  if (ev.exitCode !== undefined && ev.exitCode !== 0)
    return { kind: 'exit_code', detail: `exit code ${ev.exitCode}`, exitCode: ev.exitCode };
  if (ev.isError) return { kind: 'is_error', detail: 'tool reported an error' };
  return undefined;
}

export function utf8Bytes(s: string): number {
  return s.length === 0 ? 0 : Buffer.byteLength(s, 'utf8');
}

/**
 * UTF-8 bytes of a tool input's JSON form, computed without serialising it (large inputs would otherwise
 * be copied once more). Escape characters are not counted: a newline inside a string counts as 1 byte.
 */
export function jsonBytes(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return utf8Bytes(value) + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'bigint':
      return String(value).length;
    case 'object': {
      if (value === null) return 4;
      if (depth > 64) return 0; // cycles or absurd nesting: stop counting
      if (Array.isArray(value)) {
        let n = 2 + Math.max(0, value.length - 1);
        for (const item of value)
          n += item === undefined || typeof item === 'function' ? 4 : jsonBytes(item, depth + 1);
        return n;
      }
      let n = 2;
      let fields = 0;
      for (const key in value) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        n += utf8Bytes(key) + 3 + jsonBytes(item, depth + 1);
        fields++;
      }
      return n + Math.max(0, fields - 1);
    }
    default:
      return 0;
  }
}
