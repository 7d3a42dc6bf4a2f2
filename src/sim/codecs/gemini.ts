/** Gemini (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse` and `:generateContent`). Gemini CLI speaks this. */
import type { JsonSchema, NeutralReply, OfferedTool } from '../types.js';
import {
  asArray,
  asRecord,
  BadRequest,
  chunks,
  exitCodeOf,
  HistoryBuilder,
  textOf,
  withCwd,
  type ProviderCodec,
  type ReplyContext,
  type WireFrame,
} from './common.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Gemini schemas use upper-case type names (`OBJECT`); JSON Schema uses lower case. */
function lowerTypes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(lowerTypes);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    out[k] = k === 'type' && typeof x === 'string' ? x.toLowerCase() : lowerTypes(x);
  return out;
}

/** Model parts; streamed text is split in two chunks, a whole response keeps it in one part. */
function parts(reply: NeutralReply, split: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (reply.thinking !== undefined) out.push({ text: reply.thinking, thought: true });
  if (reply.text !== undefined)
    for (const c of split ? chunks(reply.text) : [reply.text]) out.push({ text: c });
  for (const c of reply.toolCalls) out.push({ functionCall: { id: c.id, name: c.name, args: c.args } });
  return out;
}

function usageMetadata(reply: NeutralReply) {
  return {
    promptTokenCount: reply.usage.input,
    candidatesTokenCount: reply.usage.output,
    totalTokenCount: reply.usage.input + reply.usage.output,
  };
}

/** The function declarations offered, their schemas in JSON Schema's lower-case types. */
function offeredTools(body: Record<string, unknown>): OfferedTool[] {
  return asArray(body.tools)
    .flatMap((t) => asArray(asRecord(t).functionDeclarations))
    .map((d) => {
      const fd = asRecord(d);
      const raw = fd.parametersJsonSchema ?? fd.parameters;
      return { name: String(fd.name ?? ''), ...(raw ? { schema: lowerTypes(raw) as JsonSchema } : {}) };
    });
}

/** A model turn: its visible text (thoughts left out) and its function calls. */
function modelTurn(ps: Record<string, unknown>[], h: HistoryBuilder, texts: string[]): void {
  const text = ps
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text as string)
    .join('');
  const calls = ps
    .filter((p) => p.functionCall)
    .map((p) => {
      const fc = asRecord(p.functionCall);
      return {
        id: String(fc.id ?? fc.name ?? ''),
        name: String(fc.name ?? ''),
        args: asRecord(fc.args),
      };
    });
  h.model(text, calls);
  texts.push(text);
}

/** A user turn: its text (the last part is the user's message) and the function responses it carries. */
function userTurn(ps: Record<string, unknown>[], h: HistoryBuilder, texts: string[]): void {
  const userTexts = ps
    .filter((p) => typeof p.text === 'string' && !p.functionResponse)
    .map((p) => p.text as string);
  texts.push(...userTexts);
  if (userTexts.length) h.user(userTexts.at(-1) ?? '');
  for (const p of ps) {
    if (p.functionResponse) {
      const fr = asRecord(p.functionResponse);
      const response = asRecord(fr.response);
      const value = response.output ?? response.error ?? response.content ?? response;
      const output = typeof value === 'string' ? value : JSON.stringify(value);
      const exitCode = exitCodeOf(output);
      const name = String(fr.name ?? '');
      h.result({
        callId: String(fr.id ?? name),
        name,
        output,
        isError: 'error' in response,
        ...(exitCode !== undefined ? { exitCode } : {}),
      });
      texts.push(output);
    }
  }
}

export const geminiCodec: ProviderCodec = {
  provider: 'gemini',

  parse(body, route, bodyChars) {
    if (!Array.isArray(body.contents)) throw new BadRequest('contents: expected an array');
    const tools = offeredTools(body);
    const fcc = asRecord(asRecord(body.toolConfig).functionCallingConfig);
    const allowed = asArray(fcc.allowedFunctionNames);
    const si = body.systemInstruction;
    const system = typeof si === 'string' ? si : textOf(asRecord(si).parts);
    const h = new HistoryBuilder();
    const texts: string[] = [system];
    for (const c of body.contents as unknown[]) {
      const content = asRecord(c);
      const ps = asArray(content.parts).map(asRecord);
      if (content.role === 'model') modelTurn(ps, h, texts);
      else userTurn(ps, h, texts);
    }
    const gc = asRecord(body.generationConfig);
    const schema = gc.responseJsonSchema ?? gc.responseSchema;
    const promptText = texts.filter(Boolean).join('\n');
    return {
      provider: 'gemini',
      model: route.model ?? String(body.model ?? ''),
      stream: route.op === 'stream_generate',
      tools,
      ...(fcc.mode === 'ANY' && allowed.length === 1 ? { forcedTool: String(allowed[0]) } : {}),
      system,
      history: h.turns,
      lastUserText: h.lastUserText,
      summary: h.summary,
      promptText,
      ...(schema ? { jsonSchema: lowerTypes(schema) as JsonSchema } : {}),
      ...withCwd(promptText),
      bodyChars,
    };
  },

  frames(reply, ctx) {
    const all = parts(reply, true);
    if (!all.length) all.push({ text: '' });
    return all.map((part, i): WireFrame => {
      const last = i === all.length - 1;
      const candidate = {
        content: { role: 'model', parts: [part] },
        index: 0,
        ...(last ? { finishReason: 'STOP' } : {}),
      };
      return {
        data: {
          candidates: [candidate],
          ...(last ? { usageMetadata: usageMetadata(reply) } : {}),
          modelVersion: ctx.req.model,
        },
      };
    });
  },

  json(reply: NeutralReply, ctx: ReplyContext) {
    return {
      candidates: [
        { content: { role: 'model', parts: parts(reply, false) }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: usageMetadata(reply),
      modelVersion: ctx.req.model,
    };
  },

  error(status, message) {
    return {
      error: {
        code: status,
        message,
        status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
      },
    };
  },
};
