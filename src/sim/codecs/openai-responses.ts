/** OpenAI Responses (`POST /v1/responses`, streamed SSE or one JSON response). Codex speaks this. */
import type { NeutralReply, OfferedTool, ToolResult } from '../types.js';
import {
  asArray,
  asRecord,
  BadRequest,
  chunks,
  exitCodeOf,
  HistoryBuilder,
  parseArgs,
  textOf,
  withCwd,
  type ProviderCodec,
  type ReplyContext,
  type WireFrame,
} from './common.js';

export function openAiError(status: number, message: string) {
  const type =
    status === 401
      ? 'authentication_error'
      : status === 429
        ? 'rate_limit_exceeded'
        : status < 500
          ? 'invalid_request_error'
          : 'server_error';
  return { error: { message, type, param: null, code: status === 401 ? 'invalid_api_key' : null } };
}

/** Results on the OpenAI wire formats carry no error flag: a non-zero exit code stands in for one. */
export function flaglessResult(callId: string, output: string): ToolResult {
  const exitCode = exitCodeOf(output);
  return {
    callId,
    output,
    isError: exitCode !== undefined && exitCode !== 0,
    ...(exitCode !== undefined ? { exitCode } : {}),
  };
}

/**
 * Offered tools, with a namespace's tools flattened to `<namespace>__<tool>` (Codex offers each MCP
 * server as one namespace tool `mcp__<server>` whose `tools` are the server's tools).
 */
function offeredTools(body: Record<string, unknown>): OfferedTool[] {
  return asArray(body.tools).flatMap((t): OfferedTool[] => {
    const r = asRecord(t);
    const name = String(r.name ?? r.type ?? '');
    if (r.type === 'namespace') {
      return asArray(r.tools).map((inner) => {
        const i = asRecord(inner);
        const tool = String(i.name ?? '');
        const schema = i.parameters ? asRecord(i.parameters) : undefined;
        return { name: `${name}__${tool}`, ...(schema ? { schema } : {}), namespace: { name, tool } };
      });
    }
    const schema = r.parameters ? asRecord(r.parameters) : undefined;
    return [{ name, ...(schema ? { schema } : {}) }];
  });
}

/** A call's wire name: a namespaced tool is called by its own name plus the namespace. */
function wireName(name: string, offered: OfferedTool[] = []): { name: string; namespace?: string } {
  const ns = offered.find((t) => t.name === name)?.namespace;
  return ns ? { name: ns.tool, namespace: ns.name } : { name };
}

/** The neutral name of a function_call item: `<namespace>__<name>` when it came from a namespace. */
export function callName(item: Record<string, unknown>, fallback = ''): string {
  const name = String(item.name ?? fallback);
  return typeof item.namespace === 'string' && item.namespace ? `${item.namespace}__${name}` : name;
}

function outputItems(reply: NeutralReply, seq: number, offered: OfferedTool[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (reply.thinking !== undefined) {
    items.push({
      id: `rs_sim_${seq}`,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: reply.thinking }],
    });
  }
  if (reply.text !== undefined) {
    items.push({
      id: `msg_sim_${seq}`,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  for (const c of reply.toolCalls) {
    items.push({
      id: `fc_${c.id}`,
      type: 'function_call',
      status: 'completed',
      ...wireName(c.name, offered),
      call_id: c.id,
      arguments: JSON.stringify(c.args),
    });
  }
  return items;
}

function responseObject(reply: NeutralReply, ctx: ReplyContext, status: string, output: unknown[]) {
  return {
    id: `resp_sim_${ctx.seq}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: ctx.req.model,
    status,
    output,
    ...(status === 'completed'
      ? {
          usage: {
            input_tokens: reply.usage.input,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: reply.usage.output,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: reply.usage.input + reply.usage.output,
          },
        }
      : {}),
  };
}

export const openAiResponsesCodec: ProviderCodec = {
  provider: 'openai-responses',

  parse(body, _route, bodyChars) {
    const input =
      typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
    if (!Array.isArray(input)) throw new BadRequest('input: expected a string or an array');
    const tools = offeredTools(body);
    const choice = asRecord(body.tool_choice);
    const systemParts = [textOf(body.instructions)];
    const h = new HistoryBuilder();
    const texts: string[] = [];
    for (const raw of input) {
      const item = asRecord(raw);
      const type = item.type ?? (item.role ? 'message' : undefined);
      if (type === 'message') {
        const text = textOf(item.content);
        texts.push(text);
        if (item.role === 'assistant') h.model(text);
        else if (item.role === 'user') h.user(text);
        else systemParts.push(text);
      } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
        const args =
          type === 'function_call'
            ? parseArgs(item.arguments)
            : type === 'custom_tool_call'
              ? { input: item.input }
              : asRecord(item.action);
        h.model('', [{ id: String(item.call_id ?? item.id ?? ''), name: callName(item, type), args }]);
      } else if (type === 'reasoning') {
        h.model('');
      } else if (typeof type === 'string' && type.endsWith('_output')) {
        const output = textOf(item.output);
        texts.push(output);
        h.result(flaglessResult(String(item.call_id ?? ''), output));
      }
    }
    const system = systemParts.filter(Boolean).join('\n');
    const promptText = [system, ...texts].filter(Boolean).join('\n');
    const format = asRecord(asRecord(body.text).format);
    return {
      provider: 'openai-responses',
      model: String(body.model ?? ''),
      stream: body.stream === true,
      tools,
      ...(choice.type === 'function' && typeof choice.name === 'string' ? { forcedTool: choice.name } : {}),
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
    const frames: WireFrame[] = [];
    let n = 0;
    const push = (type: string, data: Record<string, unknown>) =>
      frames.push({ event: type, data: { type, sequence_number: n++, ...data } });
    push('response.created', { response: responseObject(reply, ctx, 'in_progress', []) });
    push('response.in_progress', { response: responseObject(reply, ctx, 'in_progress', []) });
    const items = outputItems(reply, ctx.seq, ctx.req.tools);
    items.forEach((item, output_index) => {
      const id = item.id;
      if (item.type === 'reasoning') {
        push('response.output_item.added', { output_index, item: { ...item, summary: [] } });
        const text = reply.thinking ?? '';
        for (const delta of chunks(text))
          push('response.reasoning_summary_text.delta', {
            item_id: id,
            output_index,
            summary_index: 0,
            delta,
          });
        push('response.reasoning_summary_text.done', { item_id: id, output_index, summary_index: 0, text });
      } else if (item.type === 'message') {
        const text = reply.text ?? '';
        push('response.output_item.added', {
          output_index,
          item: { ...item, status: 'in_progress', content: [] },
        });
        const part = { type: 'output_text', text: '', annotations: [] };
        push('response.content_part.added', { item_id: id, output_index, content_index: 0, part });
        for (const delta of chunks(text))
          push('response.output_text.delta', { item_id: id, output_index, content_index: 0, delta });
        push('response.output_text.done', { item_id: id, output_index, content_index: 0, text });
        push('response.content_part.done', {
          item_id: id,
          output_index,
          content_index: 0,
          part: { ...part, text },
        });
      } else {
        push('response.output_item.added', {
          output_index,
          item: { ...item, status: 'in_progress', arguments: '' },
        });
        for (const delta of chunks(String(item.arguments)))
          push('response.function_call_arguments.delta', { item_id: id, output_index, delta });
        push('response.function_call_arguments.done', {
          item_id: id,
          output_index,
          arguments: item.arguments,
        });
      }
      push('response.output_item.done', { output_index, item });
    });
    push('response.completed', { response: responseObject(reply, ctx, 'completed', items) });
    return frames;
  },

  json(reply, ctx) {
    return responseObject(reply, ctx, 'completed', outputItems(reply, ctx.seq, ctx.req.tools));
  },

  error: openAiError,
};
