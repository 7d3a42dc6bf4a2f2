/**
 * The tape engine: decides how the simulated model answers one neutral request. Stateless about the
 * conversation (the turn is derived from the model turns already in the request's history, so retries
 * and parallel conversations get consistent answers); stateful only about fault and judge counters.
 */
import { estimateTokens, outputChars } from './codecs/common.js';
import { fillSchema } from './schema-fill.js';
import { SIDE_CALL_TEXT } from './side-call.js';
import {
  parseMatcher,
  type Fault,
  type JudgeEntry,
  type NextCondition,
  type Tape,
  type TapeTurn,
} from './tape.js';
import { deferredTools, describeTool, mapTool } from './tools.js';
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

type Emit = (e: Omit<SimEvent, 'time'>) => void;

export { SIDE_CALL_TEXT };
/** Tool-call ids the simulator mints: `toolu_sim_3`, `call_sim_3`. */
export const SIM_CALL_ID = /_sim_\d+$/;
/**
 * Ids of `tool_search` calls that load a deferred tool before a turn needs it (`call_sim_load_3`). They
 * do not match SIM_CALL_ID, so such a turn does not advance the tape: the same turn is served next.
 */
export const LOADER_CALL_ID = /_sim_load_\d+$/;

function faultLabel(f: Fault): string {
  if ('status' in f) return `status ${f.status}`;
  return 'drop' in f ? 'drop mid-stream' : 'malformed';
}

export class TapeEngine implements Responder {
  private readonly ids = new Map<string, number>();
  private readonly hits = new Map<string, number>();
  private readonly judgeUses = new Map<number, number>();
  private readonly answerTexts = new Map<number, string>();
  private readonly judgeMatchers: (RegExp | string | null)[];
  private readonly texts: Set<string>;
  private readonly voidIds = new Set<string>();
  private callSeq = 0;

  constructor(readonly tape: Tape) {
    tape.turns.forEach((t, i) => t.id !== undefined && this.ids.set(t.id, i));
    this.texts = new Set(tape.turns.map((t) => t.text?.trim() ?? '').filter(Boolean));
    this.judgeMatchers = (tape.judge ?? []).map((j) =>
      j.match === undefined ? null : (parseMatcher(j.match) ?? j.match),
    );
  }

  decide(req: NeutralRequest, ctx: { seq: number; emit: Emit }): Decision {
    const toolless = req.tools.length === 0;
    if (toolless || req.forcedTool !== undefined) {
      const j = this.matchJudge(req);
      if (j !== null) return this.judge(j, req, ctx);
    }
    if (req.jsonSchema) {
      return this.reply(
        req,
        { kind: 'side', side: 'json_schema' },
        { text: JSON.stringify(fillSchema(req.jsonSchema)), toolCalls: [] },
      );
    }
    if (toolless)
      return this.reply(req, { kind: 'side', side: 'no_tools' }, { text: SIDE_CALL_TEXT, toolCalls: [] });
    return this.turn(req, ctx);
  }

  /**
   * True when a model turn in the history came from this simulator: it carries a tool-call id we minted,
   * or its text is a tape turn's text. Agents inject model turns of their own (Qwen Code opens with
   * "Got it. Thanks for the context!"); those must not advance the tape.
   */
  isServed(turn: HistoryTurn): boolean {
    // Calls from a dropped or malformed response do not count: some agents keep the partial turn.
    if (turn.toolCalls.some((c) => SIM_CALL_ID.test(c.id) && !this.voidIds.has(c.id))) return true;
    const text = turn.text.trim();
    return text === '' ? turn.toolCalls.length === 0 : this.texts.has(text);
  }

  /** Index of the tape turn that answers a conversation with this history (may be past the end). */
  selectTurn(history: HistoryTurn[]): number {
    let idx = 0;
    for (const past of history.filter((t) => this.isServed(t))) {
      if (idx >= this.tape.turns.length) break;
      idx = this.nextIndex(idx, past.results);
    }
    return idx;
  }

  private nextIndex(idx: number, results: ToolResult[]): number {
    const turn = this.tape.turns[idx] as TapeTurn;
    for (const rule of turn.next ?? []) {
      if (!rule.if || conditionHolds(rule.if, results)) {
        return typeof rule.goto === 'number' ? rule.goto : (this.ids.get(rule.goto) as number);
      }
    }
    return idx + 1;
  }

  private turn(req: NeutralRequest, ctx: { seq: number; emit: Emit }): Decision {
    const idx = this.selectTurn(req.history);
    const turn = this.tape.turns[idx];
    if (!turn) {
      const message = `tape exhausted: all ${this.tape.turns.length} turns are served and the agent asked for another (its history holds ${req.history.length} model turns)`;
      ctx.emit({ type: 'tape_exhausted', message, request: ctx.seq, turn: idx });
      return {
        kind: 'error',
        source: { kind: 'error', turn: idx },
        status: 400,
        message: `[axis sim] ${message}`,
      };
    }
    const source: AnswerSource = {
      kind: 'turn',
      turn: idx,
      ...(turn.id !== undefined ? { turnId: turn.id } : {}),
    };
    const load = this.loadDeferred(turn, idx, req, source, ctx);
    if (load) return load;
    const delay = turn.delay_ms ? { delayMs: turn.delay_ms } : {};
    const fault = turn.fault && this.consume(`turn:${idx}`, turn.fault.times) ? turn.fault : undefined;
    if (fault && 'status' in fault) return this.faultError(fault, source, ctx, delay);

    const calls: NeutralToolCall[] = [];
    for (const tool of turn.tools ?? []) {
      const mapped = mapTool(tool, req.tools, req.cwd);
      if (!mapped.ok) {
        const why = `turn ${idx}${turn.id ? ` (${turn.id})` : ''}: ${mapped.message}`;
        return this.notOffered(why, tool, mapped, source, ctx);
      }
      if (mapped.unresolvedPath) {
        ctx.emit({
          type: 'path_unresolved',
          message: `turn ${idx}: ${mapped.name} wants an absolute path but the agent's prompt states no working directory; sent "${mapped.unresolvedPath}" as is`,
          request: ctx.seq,
          turn: idx,
        });
      }
      calls.push({ id: this.callId(req), name: mapped.name, args: mapped.args });
    }
    const content = {
      ...(turn.text !== undefined ? { text: turn.text } : {}),
      ...(turn.thinking !== undefined ? { thinking: turn.thinking } : {}),
      toolCalls: calls,
    };
    if (fault) {
      for (const c of calls) this.voidIds.add(c.id);
      ctx.emit({
        type: 'fault_injected',
        message: `turn ${idx}: ${faultLabel(fault)}`,
        request: ctx.seq,
        turn: idx,
      });
      source.fault = faultLabel(fault);
      return {
        ...this.reply(req, source, content),
        ...delay,
        streamFault: 'drop' in fault ? { drop: 'mid-stream' } : { malformed: true },
      };
    }
    return { ...this.reply(req, source, content), ...delay };
  }

  /**
   * A turn whose MCP (or raw) tool the agent lists as deferred (Qwen Code) is preceded by one model turn
   * calling `tool_search` to load it, as a real model must. If the tool is still not offered after that,
   * the turn fails loudly instead of loading again.
   */
  private loadDeferred(
    turn: TapeTurn,
    idx: number,
    req: NeutralRequest,
    source: AnswerSource,
    ctx: { seq: number; emit: Emit },
  ): Decision | null {
    const deferred = deferredTools(req.system);
    if (deferred.length === 0) return null;
    const calls: NeutralToolCall[] = [];
    for (const tool of turn.tools ?? []) {
      const mapped = mapTool(tool, req.tools, req.cwd, deferred);
      if (!mapped.ok || !mapped.loads) continue;
      const last = req.history.at(-1);
      if (last?.toolCalls.some((c) => LOADER_CALL_ID.test(c.id))) {
        const plain = mapTool(tool, req.tools, req.cwd);
        if (plain.ok) continue;
        const why = `turn ${idx}: ${mapped.name} was called to load ${mapped.loads}, but the agent still does not offer it; ${plain.message}`;
        return this.notOffered(why, tool, plain, source, ctx);
      }
      calls.push({ id: this.callId(req, 'load_'), name: mapped.name, args: mapped.args });
    }
    return calls.length ? this.reply(req, source, { toolCalls: calls }) : null;
  }

  private notOffered(
    message: string,
    tool: NonNullable<TapeTurn['tools']>[number],
    mapped: { wanted: string[]; offered: string[] },
    source: AnswerSource,
    ctx: { seq: number; emit: Emit },
  ): Decision {
    ctx.emit({
      type: 'tool_not_offered',
      message,
      request: ctx.seq,
      ...(source.turn !== undefined ? { turn: source.turn } : {}),
      data: { tool: describeTool(tool), wanted: mapped.wanted, offered: mapped.offered },
    });
    return {
      kind: 'error',
      source: { ...source, kind: 'error' },
      status: 400,
      message: `[axis sim] ${message}`,
    };
  }

  private matchJudge(req: NeutralRequest): number | null {
    const entries = this.tape.judge ?? [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as JudgeEntry;
      if (entry.times !== undefined && (this.judgeUses.get(i) ?? 0) >= entry.times) continue;
      const m = this.judgeMatchers[i];
      if (m === null || m === undefined) return i;
      if (typeof m === 'string' ? req.promptText.includes(m) : matchesFromStart(m, req.promptText)) return i;
    }
    return null;
  }

  private judge(i: number, req: NeutralRequest, ctx: { seq: number; emit: Emit }): Decision {
    const entry = (this.tape.judge ?? [])[i] as JudgeEntry;
    this.judgeUses.set(i, (this.judgeUses.get(i) ?? 0) + 1);
    const source: AnswerSource = { kind: 'judge', judge: i };
    const fault = entry.fault && this.consume(`judge:${i}`, entry.fault.times) ? entry.fault : undefined;
    if (fault && 'status' in fault) return this.faultError(fault, source, ctx, {}, `judge[${i}]`);
    const answer = entry.answer;
    const asTool =
      req.forcedTool !== undefined && answer !== null && typeof answer === 'object' && !Array.isArray(answer);
    const content = asTool
      ? {
          toolCalls: [
            { id: this.callId(req), name: req.forcedTool as string, args: answer as Record<string, unknown> },
          ],
        }
      : { text: this.answerText(i, answer), toolCalls: [] };
    if (fault) {
      ctx.emit({ type: 'fault_injected', message: `judge[${i}]: ${faultLabel(fault)}`, request: ctx.seq });
      source.fault = faultLabel(fault);
      return {
        ...this.reply(req, source, content),
        streamFault: 'drop' in fault ? { drop: 'mid-stream' } : { malformed: true },
      };
    }
    return this.reply(req, source, content);
  }

  /** A judge entry's answer as text, serialized once per entry (a long run asks the same entry often). */
  private answerText(i: number, answer: unknown): string {
    if (typeof answer === 'string') return answer;
    let text = this.answerTexts.get(i);
    if (text === undefined) this.answerTexts.set(i, (text = JSON.stringify(answer ?? null)));
    return text;
  }

  private faultError(
    fault: Extract<Fault, { status: number }>,
    source: AnswerSource,
    ctx: { seq: number; emit: Emit },
    delay: { delayMs?: number },
    where = `turn ${source.turn}`,
  ): Decision {
    ctx.emit({
      type: 'fault_injected',
      message: `${where}: ${faultLabel(fault)}`,
      request: ctx.seq,
      ...(source.turn !== undefined ? { turn: source.turn } : {}),
    });
    return {
      kind: 'error',
      source: { ...source, fault: faultLabel(fault) },
      status: fault.status,
      message: `[axis sim] injected fault: HTTP ${fault.status}`,
      ...(fault.body !== undefined ? { body: fault.body } : {}),
      ...delay,
    };
  }

  /** True while a fault still has uses left (no `times`: forever). */
  private consume(key: string, times: number | undefined): boolean {
    const used = this.hits.get(key) ?? 0;
    if (times !== undefined && used >= times) return false;
    this.hits.set(key, used + 1);
    return true;
  }

  private callId(req: NeutralRequest, kind = ''): string {
    this.callSeq += 1;
    return `${req.provider === 'anthropic' ? 'toolu' : 'call'}_sim_${kind}${this.callSeq}`;
  }

  private reply(
    req: NeutralRequest,
    source: AnswerSource,
    content: Omit<NeutralReply, 'usage'>,
  ): Extract<Decision, { kind: 'reply' }> {
    const reply: NeutralReply = { ...content, usage: { input: estimateTokens(req.bodyChars), output: 0 } };
    reply.usage.output = estimateTokens(outputChars(reply));
    return { kind: 'reply', source, reply };
  }
}

/** A `g` or `y` regex's test() resumes where the last one stopped: each prompt is searched from its start. */
function matchesFromStart(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  return re.test(text);
}

export function conditionHolds(cond: NextCondition, results: ToolResult[]): boolean {
  if (
    cond.result_contains !== undefined &&
    !results.some((r) => r.output.includes(cond.result_contains as string))
  )
    return false;
  if (cond.result_matches !== undefined) {
    const re = new RegExp(cond.result_matches);
    if (!results.some((r) => re.test(r.output))) return false;
  }
  if (cond.exit_nonzero !== undefined) {
    const nonzero = results.some((r) => r.exitCode !== undefined && r.exitCode !== 0);
    if (nonzero !== cond.exit_nonzero) return false;
  }
  if (cond.is_error !== undefined && results.some((r) => r.isError) !== cond.is_error) return false;
  return true;
}
