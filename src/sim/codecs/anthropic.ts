/** Anthropic Messages (`POST /v1/messages`, streamed SSE or one JSON message). Claude Code speaks this. */
import type { NeutralReply, OfferedTool } from '../types.js';
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

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function contentBlocks(reply: NeutralReply, seq: number): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (reply.thinking !== undefined)
    blocks.push({ type: 'thinking', thinking: reply.thinking, signature: `sim-sig-${seq}` });
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  for (const c of reply.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
  return blocks;
}

function message(reply: NeutralReply, ctx: ReplyContext, content: unknown[], streaming: boolean) {
  return {
    id: `msg_sim_${ctx.seq}`,
    type: 'message',
    role: 'assistant',
    model: ctx.req.model,
    content,
    stop_reason: streaming ? null : reply.toolCalls.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage.input,
      output_tokens: streaming ? 1 : reply.usage.output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

export const anthropicCodec: ProviderCodec = {
  provider: 'anthropic',

  parse(body, _route, bodyChars) {
    if (!Array.isArray(body.messages)) throw new BadRequest('messages: expected an array');
    const tools: OfferedTool[] = asArray(body.tools).map((t) => {
      const r = asRecord(t);
      const schema = r.input_schema ? asRecord(r.input_schema) : undefined;
      return { name: String(r.name ?? r.type ?? ''), ...(schema ? { schema } : {}) };
    });
    const choice = asRecord(body.tool_choice);
    const system = textOf(body.system);
    const h = new HistoryBuilder();
    const texts: string[] = [system];
    for (const m of body.messages as unknown[]) {
      const msg = asRecord(m);
      const blocks =
        typeof msg.content === 'string' ? [{ type: 'text', text: msg.content }] : asArray(msg.content);
      if (msg.role === 'assistant') {
        const text = blocks
          .map((b) => (asRecord(b).type === 'text' ? String(asRecord(b).text ?? '') : ''))
          .join('');
        const calls = blocks
          .map(asRecord)
          .filter((b) => b.type === 'tool_use')
          .map((b) => ({ id: String(b.id ?? ''), name: String(b.name ?? ''), args: asRecord(b.input) }));
        h.model(text, calls);
        texts.push(text);
        continue;
      }
      const userTexts = blocks
        .map(asRecord)
        .filter((b) => b.type === 'text')
        .map((b) => String(b.text ?? ''));
      texts.push(...userTexts);
      // Text first, results second: the log summary should show the tool result when a message has both.
      if (userTexts.length) h.user(userTexts.at(-1) ?? '');
      for (const b of blocks.map(asRecord).filter((b) => b.type === 'tool_result')) {
        const output = textOf(b.content);
        const exitCode = exitCodeOf(output);
        h.result({
          callId: String(b.tool_use_id ?? ''),
          output,
          isError: b.is_error === true,
          ...(exitCode !== undefined ? { exitCode } : {}),
        });
        texts.push(output);
      }
    }
    const format = asRecord(asRecord(body.output_config).format ?? body.output_format);
    const promptText = texts.filter(Boolean).join('\n');
    return {
      provider: 'anthropic',
      model: String(body.model ?? ''),
      stream: body.stream === true,
      tools,
      ...(choice.type === 'tool' && typeof choice.name === 'string' ? { forcedTool: choice.name } : {}),
      system,
      history: h.turns,
      lastUserText: h.lastUserText,
      summary: h.summary,
      promptText,
      ...(format.type === 'json_schema' ? { jsonSchema: asRecord(format.schema) } : {}),
      ...withCwd(promptText),
      bodyChars,
    };
  },

  frames(reply, ctx) {
    const frames: WireFrame[] = [
      { event: 'message_start', data: { type: 'message_start', message: message(reply, ctx, [], true) } },
    ];
    const push = (type: string, data: Record<string, unknown>) =>
      frames.push({ event: type, data: { type, ...data } });
    contentBlocks(reply, ctx.seq).forEach((block, index) => {
      if (block.type === 'thinking') {
        push('content_block_start', {
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        for (const c of chunks(String(block.thinking)))
          push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: c } });
        push('content_block_delta', {
          index,
          delta: { type: 'signature_delta', signature: block.signature },
        });
      } else if (block.type === 'text') {
        push('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const c of chunks(String(block.text)))
          push('content_block_delta', { index, delta: { type: 'text_delta', text: c } });
      } else {
        push('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        for (const c of chunks(JSON.stringify(block.input)))
          push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: c } });
      }
      push('content_block_stop', { index });
    });
    push('message_delta', {
      delta: { stop_reason: reply.toolCalls.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: reply.usage.output },
    });
    push('message_stop', {});
    return frames;
  },

  json(reply, ctx) {
    return message(reply, ctx, contentBlocks(reply, ctx.seq), false);
  },

  error(status, message) {
    return { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } };
  },
};
