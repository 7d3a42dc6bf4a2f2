/**
 * Replay: serves a recording turn by turn as a simulator responder, and reports every place where the
 * agent's conversation departs from the recorded one as a `divergence` event (never silently). By
 * default the recorded turn is served anyway; `strict` fails the request instead.
 */
import { clip, estimateTokens, outputChars } from './codecs/common.js';
import { SIDE_CALL_TEXT, SIM_CALL_ID } from './engine.js';
import { stableJson } from './record-tools.js';
import {
  loadRecording,
  parseRecording,
  type RecordedSide,
  type RecordedTurn,
  type Recording,
} from './recording.js';
import { normalizeResult } from './replay-normalize.js';
import { fillSchema } from './schema-fill.js';
import { startSimulator, type Simulator, type SimulatorOptions } from './server.js';
import type { NeutralTool } from './tape.js';
import { describeTool, mapTool } from './tools.js';
import type {
  AnswerSource,
  Decision,
  HistoryTurn,
  NeutralReply,
  NeutralRequest,
  NeutralToolCall,
  Responder,
  SimEvent,
  ToolResult,
} from './types.js';

export type DivergenceKind = 'tool_result' | 'tool_set' | 'extra_turn' | 'side_call';

/** A divergence as reported in `event.data` (plus the event's `turn`, `request` and `message`). */
export interface Divergence {
  turn: number;
  kind: DivergenceKind;
  expected: unknown;
  actual: unknown;
  message: string;
  request?: number;
  data: Record<string, unknown>;
}

export interface ReplayOptions {
  /** Fail (HTTP 400) every request whose conversation has diverged, instead of serving the recorded turn. */
  strict?: boolean;
}

type Emit = (e: Omit<SimEvent, 'time'>) => void;
interface Found {
  key: string;
  turn: number;
  kind: DivergenceKind;
  message: string;
  data: Record<string, unknown>;
}

const MAX_CHARS = 4000;
const callSig = (c: NeutralToolCall) => `${c.name}\u0000${stableJson(c.args)}`;

/** Every string in a tool call with the recorded working directory replaced by the current one. */
export function rebase<T>(value: T, from: string | undefined, to: string | undefined): T {
  if (!from || !to || from === to) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.split(from).join(to);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The divergences among simulator events, flattened. */
export function divergences(events: SimEvent[]): Divergence[] {
  return events
    .filter((e) => e.type === 'divergence')
    .map((e) => {
      const data = e.data ?? {};
      return {
        turn: e.turn ?? -1,
        kind: data.kind as DivergenceKind,
        expected: data.expected,
        actual: data.actual,
        message: e.message,
        ...(e.request !== undefined ? { request: e.request } : {}),
        data,
      };
    });
}

export class Replayer implements Responder {
  private readonly texts: Set<string>;
  private readonly sentSigs = new Set<string>();
  private readonly reported = new Set<string>();
  private readonly sideUsed = new Set<number>();
  private callSeq = 0;

  constructor(
    readonly recording: Recording,
    readonly options: ReplayOptions = {},
  ) {
    this.texts = new Set(recording.turns.map((t) => t.text?.trim() ?? '').filter(Boolean));
  }

  decide(req: NeutralRequest, ctx: { seq: number; emit: Emit }): Decision {
    if (req.tools.length === 0 || req.jsonSchema) return this.side(req, ctx);
    return this.turn(req, ctx);
  }

  /** A model turn in the request's history that this replay served (minted id, sent call, or recorded text). */
  isServed(t: HistoryTurn): boolean {
    if (t.toolCalls.some((c) => SIM_CALL_ID.test(c.id) || this.sentSigs.has(callSig(c)))) return true;
    const text = t.text.trim();
    return text === '' ? t.toolCalls.length === 0 : this.texts.has(text);
  }

  private turn(req: NeutralRequest, ctx: { seq: number; emit: Emit }): Decision {
    const turns = this.recording.turns;
    const served = req.history.filter((t) => this.isServed(t));
    const k = served.length;
    const found: Found[] = [];
    served.forEach((h, i) => found.push(...this.compareResults(i, h.results, req.cwd)));
    const rec = turns[k];
    if (!rec) {
      found.push({
        key: `extra_turn:${k}`,
        turn: k,
        kind: 'extra_turn',
        message: `turn ${k}: the agent asked for another turn, but the recording holds only ${turns.length}`,
        data: { expected: turns.length, actual: k + 1 },
      });
    } else if (rec.offered) {
      const diff = this.compareToolSet(
        k,
        rec.offered,
        req.tools.map((t) => t.name),
      );
      if (diff) found.push(diff);
    }
    this.report(found, ctx);
    if (!rec) return this.fail(k, `[axis sim] replay: ${found.at(-1)?.message}`);
    if (this.options.strict && found.length) {
      const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
      return this.fail(k, `[axis sim] replay diverged (strict): ${found[0]?.message}${more}`);
    }
    const source: AnswerSource = { kind: 'turn', turn: k };
    const calls = this.calls(rec.tools ?? [], req, ctx, k);
    if ('error' in calls) return calls.error;
    return { kind: 'reply', source, reply: this.reply(req, rec, calls) };
  }

  private side(req: NeutralRequest, ctx: { seq: number; emit: Emit }): Decision {
    const kind = req.jsonSchema ? 'json_schema' : 'no_tools';
    const cwds = [this.recording.cwd, req.cwd];
    const prompt = normalizeResult(req.lastUserText.slice(0, 300), cwds);
    const entries = this.recording.side.map((s, i) => [s, i] as const).filter(([s]) => s.kind === kind);
    const unused = entries.filter(([, i]) => !this.sideUsed.has(i));
    const pick =
      unused.find(([s]) => normalizeResult(s.prompt, cwds) === prompt) ?? unused[0] ?? entries.at(-1);
    const source: AnswerSource = { kind: 'side', side: kind };
    if (!pick) {
      const found: Found = {
        key: `side_call:${kind}:${prompt}`,
        turn: -1,
        kind: 'side_call',
        message: `a ${kind === 'json_schema' ? 'structured-output' : 'tool-less'} side call the recording does not hold: "${clip(req.lastUserText, 80)}"`,
        data: { expected: null, actual: clip(req.lastUserText, MAX_CHARS) },
      };
      this.report([found], ctx);
      if (this.options.strict)
        return this.fail(undefined, `[axis sim] replay diverged (strict): ${found.message}`);
      const text = req.jsonSchema ? JSON.stringify(fillSchema(req.jsonSchema)) : SIDE_CALL_TEXT;
      return { kind: 'reply', source, reply: this.reply(req, { text }, []) };
    }
    const [entry, index] = pick;
    this.sideUsed.add(index);
    const calls = this.calls(entry.tools ?? [], req, ctx, undefined);
    if ('error' in calls) return calls.error;
    return { kind: 'reply', source, reply: this.reply(req, entry, calls) };
  }

  private compareResults(i: number, actual: ToolResult[], cwd: string | undefined): Found[] {
    const recorded = this.recording.turns[i]?.results;
    if (!recorded) return [];
    if (recorded.length !== actual.length) {
      return [
        {
          key: `tool_result:${i}:count`,
          turn: i,
          kind: 'tool_result',
          message: `turn ${i}: the agent sent ${actual.length} tool result(s), the recording holds ${recorded.length}`,
          data: {
            expected: recorded.map((r) => clip(r.output, 200)),
            actual: actual.map((r) => clip(r.output, 200)),
          },
        },
      ];
    }
    const cwds = [this.recording.cwd, cwd];
    const out: Found[] = [];
    recorded.forEach((exp, j) => {
      const act = actual[j] as ToolResult;
      const [e, a] = [normalizeResult(exp.output, cwds), normalizeResult(act.output, cwds)];
      const flag = exp.is_error !== act.isError;
      if (e === a && !flag) return;
      const which = recorded.length > 1 ? ` ${j + 1} of ${recorded.length}` : '';
      const detail =
        e === a
          ? `is_error ${exp.is_error} became ${act.isError}`
          : `expected "${clip(e, 80)}", got "${clip(a, 80)}"`;
      out.push({
        key: `tool_result:${i}:${j}`,
        turn: i,
        kind: 'tool_result',
        message: `turn ${i}: tool result${which} differs from the recording: ${detail}`,
        data: {
          call: j,
          expected: exp.output.slice(0, MAX_CHARS),
          actual: act.output.slice(0, MAX_CHARS),
          ...(flag ? { expected_error: exp.is_error, actual_error: act.isError } : {}),
        },
      });
    });
    return out;
  }

  private compareToolSet(k: number, recorded: string[], offered: string[]): Found | null {
    const [want, have] = [new Set(recorded), new Set(offered)];
    const missing = [...want].filter((n) => !have.has(n)).sort();
    const added = [...have].filter((n) => !want.has(n)).sort();
    if (!missing.length && !added.length) return null;
    const parts = [
      ...(missing.length ? [`missing ${missing.join(', ')}`] : []),
      ...(added.length ? [`new ${added.join(', ')}`] : []),
    ];
    return {
      key: `tool_set:${k}`,
      turn: k,
      kind: 'tool_set',
      message: `turn ${k}: the agent offered a different tool set (${parts.join('; ')})`,
      data: { expected: [...want].sort(), actual: [...have].sort(), missing, added },
    };
  }

  private report(found: Found[], ctx: { seq: number; emit: Emit }): void {
    for (const f of found) {
      if (this.reported.has(f.key)) continue;
      this.reported.add(f.key);
      ctx.emit({
        type: 'divergence',
        message: f.message,
        request: ctx.seq,
        ...(f.turn >= 0 ? { turn: f.turn } : {}),
        data: { kind: f.kind, ...f.data },
      });
    }
  }

  private calls(
    tools: NeutralTool[],
    req: NeutralRequest,
    ctx: { seq: number; emit: Emit },
    turn: number | undefined,
  ): NeutralToolCall[] | { error: Decision } {
    const calls: NeutralToolCall[] = [];
    const where = turn === undefined ? 'side call' : `turn ${turn}`;
    for (const recorded of tools) {
      const tool = rebase(recorded, this.recording.cwd, req.cwd);
      const mapped = mapTool(tool, req.tools, req.cwd);
      if (!mapped.ok) {
        const message = `${where}: ${mapped.message}`;
        ctx.emit({
          type: 'tool_not_offered',
          message,
          request: ctx.seq,
          ...(turn !== undefined ? { turn } : {}),
          data: { tool: describeTool(tool), wanted: mapped.wanted, offered: mapped.offered },
        });
        return { error: this.fail(turn, `[axis sim] ${message}`) };
      }
      if (mapped.unresolvedPath) {
        ctx.emit({
          type: 'path_unresolved',
          message: `${where}: ${mapped.name} wants an absolute path but the agent's prompt states no working directory; sent "${mapped.unresolvedPath}" as is`,
          request: ctx.seq,
          ...(turn !== undefined ? { turn } : {}),
        });
      }
      this.callSeq += 1;
      const call = {
        id: `${req.provider === 'anthropic' ? 'toolu' : 'call'}_sim_${this.callSeq}`,
        name: mapped.name,
        args: mapped.args,
      };
      this.sentSigs.add(callSig(call));
      calls.push(call);
    }
    return calls;
  }

  private reply(
    req: NeutralRequest,
    rec: Pick<RecordedTurn | RecordedSide, 'text' | 'thinking' | 'usage'>,
    toolCalls: NeutralToolCall[],
  ): NeutralReply {
    const reply: NeutralReply = {
      ...(rec.text !== undefined ? { text: rec.text } : {}),
      ...(rec.thinking !== undefined ? { thinking: rec.thinking } : {}),
      toolCalls,
      usage: { input: 0, output: 0 },
    };
    reply.usage = rec.usage
      ? { ...rec.usage }
      : { input: estimateTokens(req.bodyChars), output: estimateTokens(outputChars(reply)) };
    return reply;
  }

  private fail(turn: number | undefined, message: string): Decision {
    return {
      kind: 'error',
      source: { kind: 'error', ...(turn !== undefined ? { turn } : {}) },
      status: 400,
      message,
    };
  }
}

export interface ReplayServerOptions extends Omit<SimulatorOptions, 'tape' | 'responder'>, ReplayOptions {
  /** A recording object, or the path of a recorded tape (.json). */
  tape: Recording | string;
}

/** Starts a simulator that replays a recording. */
export async function startReplay(options: ReplayServerOptions): Promise<Simulator> {
  const { tape, strict, ...rest } = options;
  const recording = typeof tape === 'string' ? await loadRecording(tape) : parseRecording(tape);
  return startSimulator({ ...rest, responder: new Replayer(recording, { strict: strict === true }) });
}
