/**
 * What a module adapter's `run` returns, made into a Transcript: our own shape as it is, or the shape
 * upstream AXIS (netlify/axis) adapters return, `{ transcript: [{ type, timestamp, content }], result,
 * metadata }`, with its entries mapped onto our events. Anything else becomes a clear crash, never a throw.
 * Pure: value in, Transcript out.
 */
import type { RunError, TokenUsage, Transcript, TranscriptEvent } from '../transcript/model.js';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export interface RunFrame {
  agent: string;
  prompt: string;
  startedAt: number;
  endedAt: number;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isObj(v)) {
    const keys = Object.keys(v).slice(0, 6);
    return keys.length ? `an object with ${keys.map((k) => `"${k}"`).join(', ')}` : 'an empty object';
  }
  return typeof v;
}

/** A Transcript whose run failed before anything useful came back. */
export function crashTranscript(frame: RunFrame, message: string): Transcript {
  return {
    agent: frame.agent,
    events: [
      { kind: 'user', text: frame.prompt, ts: frame.startedAt, tsSource: 'received' },
      { kind: 'error', message, errorClass: 'crash', ts: frame.endedAt, tsSource: 'received' },
    ],
    result: null,
    usage: { input: 0, output: 0, cacheReadInput: 0 },
    exitCode: null,
    startedAt: frame.startedAt,
    endedAt: frame.endedAt,
    durationMs: frame.endedAt - frame.startedAt,
    error: { class: 'crash', message },
  };
}

/** Text of an upstream content object: `text`, a string `content`, or the text blocks of `message.content`. */
function textOf(c: Json): string {
  if (typeof c.text === 'string') return c.text;
  if (typeof c.content === 'string') return c.content;
  const blocks = isObj(c.message) ? c.message.content : c.content;
  if (Array.isArray(blocks)) {
    return blocks
      .filter((b): b is Json => isObj(b) && b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('');
  }
  return '';
}

function outputOf(c: Json): string {
  for (const key of ['output', 'aggregated_output', 'result', 'content', 'text']) {
    const v = c[key];
    if (typeof v === 'string') return v;
  }
  return c.output === undefined ? '' : JSON.stringify(c.output);
}

/** One upstream transcript entry → our events (none for an entry we cannot read). */
export function mapUpstreamEntry(entry: unknown, index: number): TranscriptEvent[] {
  if (!isObj(entry)) return [];
  const c = isObj(entry.content) ? entry.content : {};
  const parsed = str(entry.timestamp) ? Date.parse(entry.timestamp as string) : NaN;
  const at = Number.isFinite(parsed) ? { ts: parsed, tsSource: 'agent' as const } : {};
  const id = str(c.tool_id) ?? str(c.id) ?? str(c.tool_use_id) ?? `call-${index}`;
  switch (entry.type) {
    case 'user':
      return [{ kind: 'user', text: textOf(c), ...at }];
    case 'assistant': {
      const text = textOf(c);
      return text ? [{ kind: 'text', text, ...at }] : [];
    }
    case 'tool_use':
      return [
        {
          kind: 'tool_call',
          id,
          name: str(c.tool_name) ?? str(c.name) ?? str(c.title) ?? 'tool',
          input: c.parameters ?? c.input ?? c.arguments ?? {},
          ...(str(c.kind) ? { toolKind: c.kind as string } : {}),
          ...at,
        },
      ];
    case 'tool_result':
      return [
        {
          kind: 'tool_result',
          callId: id,
          output: outputOf(c),
          isError: c.is_error === true || c.status === 'error' || c.status === 'failed',
          ...(num(c.exit_code) !== undefined ? { exitCode: c.exit_code as number } : {}),
          ...at,
        },
      ];
    case 'error':
      return [
        {
          kind: 'error',
          message: str(c.error) ?? str(c.message) ?? (textOf(c) || 'error'),
          ...at,
        },
      ];
    default:
      return [{ kind: 'system', subtype: String(entry.type ?? 'system'), data: c, ...at }];
  }
}

function usageOf(meta: Json): TokenUsage {
  const u = isObj(meta.tokenUsage) ? meta.tokenUsage : {};
  return {
    input: num(u.input) ?? 0,
    output: num(u.output) ?? 0,
    cacheReadInput: num(u.cacheReadInput) ?? 0,
  };
}

/** Upstream `{ transcript, result, metadata }` → Transcript. */
export function fromUpstream(value: Json, frame: RunFrame): Transcript {
  const entries = Array.isArray(value.transcript) ? value.transcript : [];
  const events = entries.flatMap((e, i) => mapUpstreamEntry(e, i));
  if (!events.some((e) => e.kind === 'user')) {
    events.unshift({ kind: 'user', text: frame.prompt, ts: frame.startedAt, tsSource: 'received' });
  }
  const meta = isObj(value.metadata) ? value.metadata : {};
  const startedAt = num(meta.startTime) ?? frame.startedAt;
  const endedAt = num(meta.endTime) ?? frame.endedAt;
  const result = typeof value.result === 'string' ? value.result : null;
  const out: Transcript = {
    agent: frame.agent,
    events,
    result,
    usage: usageOf(meta),
    exitCode: num(meta.exitCode) ?? (meta.error ? 1 : 0),
    startedAt,
    endedAt,
    durationMs: num(meta.durationMs) ?? endedAt - startedAt,
  };
  if (num(meta.totalCostUsd) !== undefined) out.costUsd = meta.totalCostUsd as number;
  if (str(meta.sessionId)) out.sessionId = meta.sessionId as string;
  // Upstream's rule: with a result, only an explicit error fails the run; without one, a non-zero exit does too.
  const message = str(meta.error) ?? (isObj(meta.error) ? str(meta.error.message) : undefined);
  if (message) {
    const error: RunError = { class: 'crash', message };
    out.error = error;
    events.push({ kind: 'error', message, errorClass: 'crash', ts: endedAt, tsSource: 'received' });
  } else if (result !== null) {
    out.exitCode = 0;
  }
  return out;
}

const isTranscript = (v: Json): boolean =>
  Array.isArray(v.events) && isObj(v.usage) && (v.result === null || typeof v.result === 'string');

/** Whatever a module adapter returned → a Transcript (ours, upstream's mapped, or a crash saying why). */
export function moduleOutput(value: unknown, frame: RunFrame, adapter: string): Transcript {
  if (isObj(value) && isTranscript(value)) {
    const t = value as unknown as Transcript;
    return {
      ...t,
      agent: frame.agent,
      startedAt: num(t.startedAt) ?? frame.startedAt,
      endedAt: num(t.endedAt) ?? frame.endedAt,
      durationMs: num(t.durationMs) ?? frame.endedAt - frame.startedAt,
      exitCode: t.exitCode ?? null,
    };
  }
  if (isObj(value) && (Array.isArray(value.transcript) || 'metadata' in value)) {
    return fromUpstream(value, frame);
  }
  return crashTranscript(
    frame,
    `adapter "${adapter}" returned ${describe(value)}; expected a Transcript ({ events, result, usage, ... }) ` +
      'or the upstream shape { transcript, result, metadata }',
  );
}
