/**
 * What Claude Code's `result` line says, with the usage arithmetic it shares with the stream parser
 * (claude.ts): token usage (a message's, raised as the message reports it again, the run's totals), the
 * run's error, its main model. No parser state.
 */
import { classifyError, statusFromText } from './classify-error.js';
import type { ErrorClass, RunError, TokenUsage } from './model.js';
import { emptyUsage } from './model.js';
import { count, num, rec, str, type Json } from './util.js';

/**
 * Qwen Code reports API failures as a text "[API Error: 500 fake error]", or appends one to the text a
 * dropped stream cut short ("Here is…[API Error: terminated (cause: other side closed)]").
 */
export function qwenApiError(text: string): { before: string; message: string } | undefined {
  const t = text.trim();
  if (t.startsWith('[API Error')) {
    const end = t.lastIndexOf(']');
    return { before: '', message: end > 0 ? t.slice(1, end) : t.slice(1) };
  }
  const at = t.endsWith(']') ? t.lastIndexOf('[API Error') : -1;
  return at > 0 ? { before: t.slice(0, at), message: t.slice(at + 1, -1) } : undefined;
}

/** An API usage object (snake_case or camelCase keys) as AXIS counts it. */
export function usageOf(u: Json | undefined): TokenUsage {
  if (!u) return emptyUsage();
  const write = count(u.cache_creation_input_tokens ?? u.cacheCreationInputTokens);
  const usage: TokenUsage = {
    // AXIS counts cache writes as input (they are sent and billed as input); cache reads are separate.
    input: count(u.input_tokens ?? u.inputTokens) + write,
    output: count(u.output_tokens ?? u.outputTokens),
    cacheReadInput: count(u.cache_read_input_tokens ?? u.cacheReadInputTokens),
  };
  if (write > 0) usage.cacheWriteInput = write;
  return usage;
}

/** Raise `into` to `u` field by field, adding the same increase to `total`. */
export function maxInto(into: TokenUsage, u: TokenUsage, total: TokenUsage): void {
  total.input += Math.max(0, u.input - into.input);
  total.output += Math.max(0, u.output - into.output);
  total.cacheReadInput += Math.max(0, u.cacheReadInput - into.cacheReadInput);
  into.input = Math.max(into.input, u.input);
  into.output = Math.max(into.output, u.output);
  into.cacheReadInput = Math.max(into.cacheReadInput, u.cacheReadInput);
  if (u.cacheWriteInput !== undefined) {
    const before = into.cacheWriteInput ?? 0;
    if (u.cacheWriteInput > before)
      total.cacheWriteInput = (total.cacheWriteInput ?? 0) + u.cacheWriteInput - before;
    into.cacheWriteInput = Math.max(before, u.cacheWriteInput);
  }
}

function sumUsage(list: Iterable<TokenUsage>): TokenUsage {
  const total = emptyUsage();
  for (const u of list) {
    total.input += u.input;
    total.output += u.output;
    total.cacheReadInput += u.cacheReadInput;
    if (u.cacheWriteInput !== undefined)
      total.cacheWriteInput = (total.cacheWriteInput ?? 0) + u.cacheWriteInput;
  }
  return total;
}

/** Claude Code `result.subtype` values that name a limit rather than a failure. */
const LIMIT_SUBTYPES = new Set([
  'error_max_turns',
  'error_max_budget_usd',
  'error_max_structured_output_retries',
]);

/** The result line's totals: `modelUsage` (every model, subagents included, matches the cost) else `usage`. */
export function finalUsage(r: Json): TokenUsage | undefined {
  const perModel = rec(r.modelUsage);
  if (perModel && Object.keys(perModel).length > 0) {
    return sumUsage(Object.values(perModel).map((m) => usageOf(rec(m))));
  }
  const u = rec(r.usage);
  return u ? usageOf(u) : undefined;
}

/** The run's error as the result line gives it (with `qwen`, also an `[API Error …]` result text). */
export function resultError(r: Json, qwen: boolean): RunError | undefined {
  const subtype = str(r.subtype) ?? '';
  const text = str(r.result);
  const errors = Array.isArray(r.errors) ? r.errors.filter((e): e is string => typeof e === 'string') : [];
  const status = num(r.api_error_status);
  if (r.is_error === true || subtype.startsWith('error')) {
    const message = text || errors.join('\n') || `Agent reported ${subtype || 'an error'}`;
    let cls: ErrorClass;
    if (LIMIT_SUBTYPES.has(subtype)) cls = 'limit_exceeded';
    else if (status !== undefined) cls = classifyError({ status, message });
    else
      cls = classifyError(
        { message, status: statusFromText(message) },
        subtype === 'error_during_execution' ? 'crash' : 'api_error',
      );
    const httpStatus = status ?? statusFromText(message);
    return httpStatus !== undefined ? { class: cls, message, httpStatus } : { class: cls, message };
  }
  if (qwen && text) {
    const apiError = qwenApiError(text)?.message;
    if (apiError) {
      const httpStatus = statusFromText(apiError);
      const cls = classifyError({ status: httpStatus, message: apiError });
      return httpStatus !== undefined
        ? { class: cls, message: apiError, httpStatus }
        : { class: cls, message: apiError };
    }
  }
  return undefined;
}

/** The model with the most tokens in `modelUsage`, taken as the run's model. */
export function firstModel(modelUsage: Json | undefined): string | undefined {
  if (!modelUsage) return undefined;
  let best: string | undefined;
  let bestTokens = -1;
  for (const [name, m] of Object.entries(modelUsage)) {
    const u = rec(m);
    const tokens = count(u?.inputTokens) + count(u?.outputTokens);
    if (tokens > bestTokens) {
      best = name;
      bestTokens = tokens;
    }
  }
  return best;
}

/**
 * Statuses of the init line's `mcp_servers` that mean a server is not there: Claude Code's `failed` and
 * `needs-auth`, Qwen Code's `disconnected`. Both CLIs then run on without the server and exit 0.
 */
const MCP_DOWN = new Set(['failed', 'needs-auth', 'disconnected']);

/** The run's error when the init line says a configured MCP server did not start. */
export function mcpStartError(servers: unknown, qwen: boolean): RunError | undefined {
  if (!Array.isArray(servers)) return undefined;
  const down = servers.map((s) => rec(s)).filter((s) => s && MCP_DOWN.has(str(s.status) ?? ''));
  if (down.length === 0) return undefined;
  const names = down.map((s) => `"${str(s?.name) ?? '?'}"`).join(', ');
  const states = down.map((s) => str(s?.status)).join(', ');
  const cli = qwen ? 'Qwen Code' : 'Claude Code';
  const which = down.length === 1 ? 'MCP server' : 'MCP servers';
  return {
    class: 'setup_failed',
    message: `${which} ${names} did not start (${cli} reports: ${states}); the agent ran without ${down.length === 1 ? 'it' : 'them'}`,
  };
}
