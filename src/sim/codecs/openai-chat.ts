/** OpenAI Chat Completions (`POST /v1/chat/completions`, streamed or not). Qwen Code and opencode speak this. */
import type { NeutralReply, OfferedTool } from '../types.js';
import {
  asArray,
  asRecord,
  BadRequest,
  chunks,
  HistoryBuilder,
  parseArgs,
  textOf,
  withCwd,
  type ProviderCodec,
  type WireFrame,
} from './common.js';
import { flaglessResult, openAiError } from './openai-responses.js';

function usage(reply: NeutralReply) {
  return {
    prompt_tokens: reply.usage.input,
    completion_tokens: reply.usage.output,
    total_tokens: reply.usage.input + reply.usage.output,
  };
}

function finishReason(reply: NeutralReply): string {
  return reply.toolCalls.length ? 'tool_calls' : 'stop';
}

export const openAiChatCodec: ProviderCodec = {
  provider: 'openai-chat',

  parse(body, _route, bodyChars) {
    if (!Array.isArray(body.messages)) throw new BadRequest('messages: expected an array');
    const tools: OfferedTool[] = asArray(body.tools).map((t) => {
      const fn = asRecord(asRecord(t).function);
      const schema = fn.parameters ? asRecord(fn.parameters) : undefined;
      return { name: String(fn.name ?? ''), ...(schema ? { schema } : {}) };
    });
    const choice = asRecord(body.tool_choice);
    const forced = asRecord(choice.function).name;
    const systemParts: string[] = [];
    const texts: string[] = [];
    const h = new HistoryBuilder();
    for (const m of body.messages as unknown[]) {
      const msg = asRecord(m);
      const text = textOf(msg.content);
      texts.push(text);
      if (msg.role === 'system' || msg.role === 'developer') systemParts.push(text);
      else if (msg.role === 'user') h.user(text);
      else if (msg.role === 'assistant') {
        const calls = asArray(msg.tool_calls).map((c) => {
          const call = asRecord(c);
          const fn = asRecord(call.function);
          return { id: String(call.id ?? ''), name: String(fn.name ?? ''), args: parseArgs(fn.arguments) };
        });
        h.model(text, calls);
      } else if (msg.role === 'tool') h.result(flaglessResult(String(msg.tool_call_id ?? ''), text));
    }
    const format = asRecord(body.response_format);
    const jsonSchema =
      format.type === 'json_schema'
        ? asRecord(asRecord(format.json_schema).schema)
        : format.type === 'json_object'
          ? { type: 'object' }
          : undefined;
    const system = systemParts.join('\n');
    const promptText = texts.filter(Boolean).join('\n');
    return {
      provider: 'openai-chat',
      model: String(body.model ?? ''),
      stream: body.stream === true,
      tools,
      ...(typeof forced === 'string' ? { forcedTool: forced } : {}),
      system,
      history: h.turns,
      lastUserText: h.lastUserText,
      summary: h.summary,
      promptText,
      ...(jsonSchema ? { jsonSchema } : {}),
      ...withCwd(promptText),
      bodyChars,
    };
  },

  frames(reply, ctx) {
    const base = {
      id: `chatcmpl-sim-${ctx.seq}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: ctx.req.model,
    };
    const frames: WireFrame[] = [];
    const delta = (
      d: Record<string, unknown>,
      finish: string | null = null,
      extra: Record<string, unknown> = {},
    ) =>
      frames.push({ data: { ...base, choices: [{ index: 0, delta: d, finish_reason: finish }], ...extra } });
    delta({ role: 'assistant', content: '' });
    if (reply.thinking !== undefined) for (const c of chunks(reply.thinking)) delta({ reasoning_content: c });
    if (reply.text !== undefined) for (const c of chunks(reply.text)) delta({ content: c });
    reply.toolCalls.forEach((call, index) => {
      delta({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      });
      for (const c of chunks(JSON.stringify(call.args)))
        delta({ tool_calls: [{ index, function: { arguments: c } }] });
    });
    // With include_usage the real API sends usage in a final chunk without choices; otherwise we attach it to the finish chunk.
    const separateUsage = asRecord(ctx.body.stream_options).include_usage === true;
    delta({}, finishReason(reply), separateUsage ? {} : { usage: usage(reply) });
    if (separateUsage) frames.push({ data: { ...base, choices: [], usage: usage(reply) } });
    frames.push({ data: '[DONE]' });
    return frames;
  },

  json(reply, ctx) {
    const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null };
    if (reply.thinking !== undefined) message.reasoning_content = reply.thinking;
    if (reply.toolCalls.length) {
      message.tool_calls = reply.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      }));
    }
    return {
      id: `chatcmpl-sim-${ctx.seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: ctx.req.model,
      choices: [{ index: 0, message, finish_reason: finishReason(reply) }],
      usage: usage(reply),
    };
  },

  error: openAiError,
};
