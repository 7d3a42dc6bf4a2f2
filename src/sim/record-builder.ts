/**
 * How the recorder's exchanges become a recording: model turns placed by the history the agent sends,
 * side calls (no tools offered, or structured output asked for) kept apart.
 */
import type { DecodedReply } from './record-decode.js';
import { stableJson, toNeutralTool } from './record-tools.js';
import { emptyRecording, type RecordedSide, type RecordedTurn, type Recording } from './recording.js';
import type { HistoryTurn, NeutralRequest, NeutralToolCall } from './types.js';

/** Where an exchange went in the recording. */
export type RecordedAs =
  | { kind: 'turn'; turn: number; retry?: boolean }
  | { kind: 'side'; side: number }
  | { kind: 'none'; reason: string };

const callSig = (c: NeutralToolCall) => `${c.name}\u0000${stableJson(c.args)}`;

/**
 * Builds a recording from parsed exchanges. Like the tape engine, it places a turn by the history the
 * agent sends: the number of recorded turns in it is the index of the turn being answered.
 */
export class RecordingBuilder {
  readonly rec: Recording;
  private readonly ids = new Set<string>();
  private readonly sigs = new Set<string>();
  private readonly texts = new Set<string>();

  constructor(fields: Partial<Recording> = {}) {
    this.rec = emptyRecording(fields);
  }

  private isRecorded(t: HistoryTurn): boolean {
    if (t.toolCalls.some((c) => this.ids.has(c.id) || this.sigs.has(callSig(c)))) return true;
    const text = t.text.trim();
    return text === '' ? t.toolCalls.length === 0 : this.texts.has(text);
  }

  add(req: NeutralRequest, reply: DecodedReply): RecordedAs {
    const rec = this.rec;
    rec.provider ??= req.provider;
    if (rec.model === undefined && req.model) rec.model = req.model;
    if (rec.cwd === undefined && req.cwd) rec.cwd = req.cwd;
    const body = {
      ...(reply.text !== '' || (!reply.toolCalls.length && !reply.thinking) ? { text: reply.text } : {}),
      ...(reply.thinking ? { thinking: reply.thinking } : {}),
      ...(reply.toolCalls.length
        ? { tools: reply.toolCalls.map((c) => toNeutralTool(c, req.tools, req.cwd)) }
        : {}),
      ...(reply.usage ? { usage: reply.usage } : {}),
    };
    if (req.tools.length === 0 || req.jsonSchema) {
      const side: RecordedSide = {
        kind: req.jsonSchema ? 'json_schema' : 'no_tools',
        prompt: req.lastUserText.slice(0, 300),
        ...body,
      };
      rec.side.push(side);
      return { kind: 'side', side: rec.side.length - 1 };
    }
    const served = req.history.filter((t) => this.isRecorded(t));
    served.forEach((h, i) => {
      const turn = rec.turns[i];
      if (turn?.tools?.length && h.results.length)
        turn.results = h.results.map((r) => ({ output: r.output, is_error: r.isError }));
    });
    const k = served.length;
    if (k < rec.turns.length - 1) {
      return {
        kind: 'none',
        reason: `its history matches only ${k} of the ${rec.turns.length} recorded turns (another conversation)`,
      };
    }
    const turn: RecordedTurn = { ...body, offered: req.tools.map((t) => t.name) };
    for (const c of reply.toolCalls) {
      if (c.id) this.ids.add(c.id);
      this.sigs.add(callSig(c));
    }
    if (reply.text.trim()) this.texts.add(reply.text.trim());
    const retry = k < rec.turns.length;
    rec.turns[k] = turn;
    return retry ? { kind: 'turn', turn: k, retry: true } : { kind: 'turn', turn: k };
  }
}
