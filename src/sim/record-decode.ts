/**
 * Reads a provider's answer (SSE stream or JSON body) back into neutral terms: the inverse of the codecs'
 * `frames` / `json`. Used by the recorder on upstream replies. Tolerant: unknown events and parts are
 * skipped; an error event or body becomes `error`.
 */
import { asArray, asRecord, parseArgs, textOf } from './codecs/common.js';
import { callName } from './codecs/openai-responses.js';
import type { NeutralToolCall, ProviderId, Usage } from './types.js';

export interface DecodedReply {
  text: string;
  thinking: string;
  toolCalls: NeutralToolCall[];
  usage?: Usage;
  /** The answer was an error (an SSE error event, or an error body). */
  error?: string;
}

export interface SseEvent {
  event?: string;
  data: string;
}

/** Splits an SSE body into events (multi-line `data:` joined with newlines; comments skipped). */
export function parseSseEvents(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\n+/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) out.push({ ...(event !== undefined ? { event } : {}), data: data.join('\n') });
  }
  return out;
}

function jsonEvents(text: string): Record<string, unknown>[] {
  return parseSseEvents(text)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => {
      try {
        return asRecord(JSON.parse(e.data));
      } catch {
        return {};
      }
    });
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function errorText(v: unknown): string | undefined {
  const e = asRecord(v);
  if (!Object.keys(e).length) return typeof v === 'string' && v ? v : undefined;
  return String(e.message ?? e.type ?? JSON.stringify(e));
}

const empty = (): DecodedReply => ({ text: '', thinking: '', toolCalls: [] });

/** Anthropic Messages: `message_start`, content blocks with deltas, `message_delta` usage; or one message. */
function anthropic(text: string, sse: boolean): DecodedReply {
  const out = empty();
  const fromMessage = (m: Record<string, unknown>) => {
    for (const b of asArray(m.content).map(asRecord)) {
      if (b.type === 'text') out.text += String(b.text ?? '');
      else if (b.type === 'thinking') out.thinking += String(b.thinking ?? '');
      else if (b.type === 'tool_use')
        out.toolCalls.push({ id: String(b.id ?? ''), name: String(b.name ?? ''), args: asRecord(b.input) });
    }
  };
  const usageOf = (u: Record<string, unknown>, prev?: Usage): Usage => {
    const input = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
    return { input: input || (prev?.input ?? 0), output: num(u.output_tokens) || (prev?.output ?? 0) };
  };
  if (!sse) {
    const m = asRecord(JSON.parse(text));
    if (m.type === 'error') return { ...out, error: errorText(m.error) ?? 'error' };
    fromMessage(m);
    if (m.usage) out.usage = usageOf(asRecord(m.usage));
    return out;
  }
  const blocks = new Map<number, { type: string; id: string; name: string; json: string; input: unknown }>();
  for (const ev of jsonEvents(text)) {
    const index = num(ev.index);
    if (ev.type === 'message_start') {
      const m = asRecord(ev.message);
      if (m.usage) out.usage = usageOf(asRecord(m.usage));
    } else if (ev.type === 'content_block_start') {
      const b = asRecord(ev.content_block);
      blocks.set(index, {
        type: String(b.type ?? ''),
        id: String(b.id ?? ''),
        name: String(b.name ?? ''),
        json: '',
        input: b.input,
      });
      if (b.type === 'text') out.text += String(b.text ?? '');
      if (b.type === 'thinking') out.thinking += String(b.thinking ?? '');
    } else if (ev.type === 'content_block_delta') {
      const d = asRecord(ev.delta);
      if (d.type === 'text_delta') out.text += String(d.text ?? '');
      else if (d.type === 'thinking_delta') out.thinking += String(d.thinking ?? '');
      else if (d.type === 'input_json_delta') {
        const b = blocks.get(index);
        if (b) b.json += String(d.partial_json ?? '');
      }
    } else if (ev.type === 'message_delta' && ev.usage) {
      out.usage = usageOf(asRecord(ev.usage), out.usage);
    } else if (ev.type === 'error') {
      out.error = errorText(ev.error) ?? 'error event';
    }
  }
  for (const [, b] of [...blocks].sort((x, y) => x[0] - y[0])) {
    if (b.type !== 'tool_use') continue;
    const args = b.json.trim() ? parseArgs(b.json) : asRecord(b.input);
    out.toolCalls.push({ id: b.id, name: b.name, args });
  }
  return out;
}

/** OpenAI Responses: output items (from `response.output_item.done`, else the completed response). */
function responses(text: string, sse: boolean): DecodedReply {
  const out = empty();
  let items: Record<string, unknown>[] = [];
  let response: Record<string, unknown> = {};
  if (!sse) {
    response = asRecord(JSON.parse(text));
    if (response.error) return { ...out, error: errorText(response.error) ?? 'error' };
    items = asArray(response.output).map(asRecord);
  } else {
    for (const ev of jsonEvents(text)) {
      if (ev.type === 'response.output_item.done') items.push(asRecord(ev.item));
      else if (ev.type === 'response.completed' || ev.type === 'response.incomplete')
        response = asRecord(ev.response);
      else if (ev.type === 'response.failed')
        out.error = errorText(asRecord(ev.response).error) ?? 'response.failed';
      else if (ev.type === 'error') out.error = errorText(ev.error ?? ev) ?? 'error event';
    }
    if (!items.length) items = asArray(response.output).map(asRecord);
  }
  for (const item of items) {
    if (item.type === 'message') out.text += textOf(item.content);
    else if (item.type === 'reasoning') out.thinking += textOf(item.summary);
    else if (item.type === 'function_call')
      out.toolCalls.push({
        id: String(item.call_id ?? item.id ?? ''),
        name: callName(item),
        args: parseArgs(item.arguments),
      });
    else if (item.type === 'custom_tool_call')
      out.toolCalls.push({
        id: String(item.call_id ?? item.id ?? ''),
        name: String(item.name ?? ''),
        args: { input: item.input },
      });
  }
  const u = asRecord(response.usage);
  if (response.usage) out.usage = { input: num(u.input_tokens), output: num(u.output_tokens) };
  return out;
}

/** OpenAI Chat Completions: deltas merged per tool-call index; or one completion. */
function chat(text: string, sse: boolean): DecodedReply {
  const out = empty();
  const usageOf = (u: Record<string, unknown>): Usage => ({
    input: num(u.prompt_tokens),
    output: num(u.completion_tokens),
  });
  const reasoning = (m: Record<string, unknown>) =>
    typeof m.reasoning_content === 'string'
      ? m.reasoning_content
      : typeof m.reasoning === 'string'
        ? m.reasoning
        : '';
  if (!sse) {
    const body = asRecord(JSON.parse(text));
    if (body.error) return { ...out, error: errorText(body.error) ?? 'error' };
    const m = asRecord(asRecord(asArray(body.choices)[0]).message);
    out.text = textOf(m.content);
    out.thinking = reasoning(m);
    for (const c of asArray(m.tool_calls).map(asRecord)) {
      const fn = asRecord(c.function);
      out.toolCalls.push({
        id: String(c.id ?? ''),
        name: String(fn.name ?? ''),
        args: parseArgs(fn.arguments),
      });
    }
    if (body.usage) out.usage = usageOf(asRecord(body.usage));
    return out;
  }
  const calls = new Map<number, { id: string; name: string; args: string }>();
  for (const ev of jsonEvents(text)) {
    if (ev.error) out.error = errorText(ev.error) ?? 'error';
    if (ev.usage) out.usage = usageOf(asRecord(ev.usage));
    const d = asRecord(asRecord(asArray(ev.choices)[0]).delta);
    if (typeof d.content === 'string') out.text += d.content;
    out.thinking += reasoning(d);
    for (const tc of asArray(d.tool_calls).map(asRecord)) {
      const index = num(tc.index);
      const fn = asRecord(tc.function);
      const call = calls.get(index) ?? { id: '', name: '', args: '' };
      if (tc.id) call.id = String(tc.id);
      if (fn.name) call.name += String(fn.name);
      if (typeof fn.arguments === 'string') call.args += fn.arguments;
      calls.set(index, call);
    }
  }
  for (const [, c] of [...calls].sort((x, y) => x[0] - y[0])) {
    out.toolCalls.push({ id: c.id, name: c.name, args: c.args.trim() ? parseArgs(c.args) : {} });
  }
  return out;
}

/** Gemini: one GenerateContentResponse per SSE event (or a JSON object, or an array of them). */
function gemini(text: string, sse: boolean): DecodedReply {
  const out = empty();
  let chunks: Record<string, unknown>[];
  if (sse) chunks = jsonEvents(text);
  else {
    const body: unknown = JSON.parse(text);
    chunks = Array.isArray(body) ? body.map(asRecord) : [asRecord(body)];
  }
  for (const chunk of chunks) {
    if (chunk.error) out.error = errorText(chunk.error) ?? 'error';
    const parts = asArray(asRecord(asRecord(asArray(chunk.candidates)[0]).content).parts).map(asRecord);
    for (const p of parts) {
      if (typeof p.text === 'string') {
        if (p.thought) out.thinking += p.text;
        else out.text += p.text;
      } else if (p.functionCall) {
        const fc = asRecord(p.functionCall);
        out.toolCalls.push({ id: String(fc.id ?? ''), name: String(fc.name ?? ''), args: asRecord(fc.args) });
      }
    }
    const u = asRecord(chunk.usageMetadata);
    if (chunk.usageMetadata)
      out.usage = {
        input: num(u.promptTokenCount),
        output: num(u.candidatesTokenCount) + num(u.thoughtsTokenCount),
      };
  }
  return out;
}

const DECODERS: Record<ProviderId, (text: string, sse: boolean) => DecodedReply> = {
  anthropic,
  'openai-responses': responses,
  'openai-chat': chat,
  gemini,
};

/** Decodes one answer; a body that is not the provider's JSON comes back with `error` set. */
export function decodeReply(provider: ProviderId, body: string, sse: boolean): DecodedReply {
  try {
    return DECODERS[provider](body, sse);
  } catch (err) {
    return { ...empty(), error: `cannot read the ${provider} answer: ${(err as Error).message}` };
  }
}
