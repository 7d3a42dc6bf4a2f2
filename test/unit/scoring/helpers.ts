/** Small event builders for scoring tests (agent clock unless told otherwise). */
import type {
  ErrorEvent,
  TextEvent,
  ThinkingEvent,
  ToolCallEvent,
  ToolResultEvent,
  TranscriptEvent,
} from '../../../src/transcript/model.js';
import { classifyInteractions } from '../../../src/scoring/classify.js';
import { groupInteractions } from '../../../src/scoring/interactions.js';
import type { ClassifiedInteraction } from '../../../src/scoring/types.js';

export const T0 = 1_700_000_000_000;

type Clock = { ts?: number; tsSource?: 'agent' | 'received' };
const at = (ts?: number, tsSource: 'agent' | 'received' = 'agent'): Clock =>
  ts === undefined ? {} : { ts: T0 + ts, tsSource };

export function text(t: string, ts?: number): TextEvent {
  return { kind: 'text', text: t, ...at(ts) };
}
export function thinking(t: string, ts?: number): ThinkingEvent {
  return { kind: 'thinking', text: t, ...at(ts) };
}
export function call(
  id: string,
  name: string,
  input: unknown,
  ts?: number,
  src?: 'agent' | 'received',
): ToolCallEvent {
  return { kind: 'tool_call', id, name, input, ...at(ts, src) };
}
export function result(
  callId: string,
  output: string,
  opts: Partial<Omit<ToolResultEvent, 'kind' | 'callId' | 'output' | 'ts'>> & {
    at?: number;
    src?: 'agent' | 'received';
  } = {},
): ToolResultEvent {
  const { at: ts, src, ...rest } = opts;
  return { kind: 'tool_result', callId, output, isError: false, ...rest, ...at(ts, src) };
}
export function error(message: string, opts: Partial<Omit<ErrorEvent, 'kind' | 'message'>> = {}): ErrorEvent {
  return { kind: 'error', message, ...opts };
}

/** Group + classify, measured from T0. */
export function classified(events: TranscriptEvent[]): ClassifiedInteraction[] {
  return classifyInteractions(groupInteractions(events, { startedAt: T0 }));
}

/** A tool interaction from one call + result pair (ids "c1"…). */
export function toolIx(
  name: string,
  input: unknown,
  res: Parameters<typeof result>[2] & { output?: string; durationMs?: number } = {},
): ClassifiedInteraction {
  const { output = 'ok', durationMs, ...rest } = res;
  const events: TranscriptEvent[] =
    durationMs === undefined
      ? [call('c1', name, input), result('c1', output, rest)]
      : [call('c1', name, input, 0), result('c1', output, { ...rest, at: durationMs })];
  return classified(events)[0]!;
}
