/** Judge over the Anthropic Messages API (`POST <base>/v1/messages`). */
import { ANSWER_BUDGET_TOKENS } from './batch.js';
import { postJson, type RetryOptions } from './http.js';
import { costOf } from './prices.js';
import { JudgeError, type JudgeClient, type JudgeReply } from './types.js';

export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';
export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com';
const MAX_TOKENS = ANSWER_BUDGET_TOKENS;

export interface AnthropicJudgeOptions {
  model: string;
  /** Root URL; a trailing `/v1` is tolerated. */
  baseUrl: string;
  apiKey?: string;
  /** `ANTHROPIC_AUTH_TOKEN` style bearer token (proxies), when there is no API key. */
  authToken?: string;
  retry: Omit<RetryOptions, 'signal'>;
  /** Shown in the label, e.g. `simulator`. */
  via?: string;
  cacheId: string | null;
}

export function createAnthropicJudge(opts: AnthropicJudgeOptions): JudgeClient {
  const url = `${opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/messages`;
  const headers: Record<string, string> = { 'anthropic-version': '2023-06-01' };
  if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
  else if (opts.authToken) headers.authorization = `Bearer ${opts.authToken}`;
  return {
    provider: 'anthropic',
    model: opts.model,
    label: `anthropic ${opts.model}${opts.via ? ` (${opts.via})` : ''}`,
    cacheId: opts.cacheId,
    async complete(req): Promise<JudgeReply> {
      const body = {
        model: opts.model,
        max_tokens: MAX_TOKENS,
        temperature: 0,
        system: req.system,
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
      };
      const res = await postJson(url, headers, body, { ...opts.retry, signal: req.signal });
      const json = res.json as {
        model?: string;
        content?: Array<{ type?: string; text?: string }>;
        usage?: {
          input_tokens?: number;
          output_tokens?: number;
          cache_creation_input_tokens?: number;
          cache_read_input_tokens?: number;
        };
      };
      if (!Array.isArray(json.content))
        throw new JudgeError('the Messages API answer has no "content" array', res.attempts);
      const text = json.content
        .filter((b) => b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text)
        .join('');
      // The API's counts are disjoint: every prompt token, cached or not, is judge input.
      const u = json.usage;
      const usage = {
        input:
          (u?.input_tokens ?? 0) + (u?.cache_creation_input_tokens ?? 0) + (u?.cache_read_input_tokens ?? 0),
        output: u?.output_tokens ?? 0,
      };
      const model = typeof json.model === 'string' && json.model ? json.model : opts.model;
      const costUsd = opts.via ? undefined : costOf(model, usage);
      return { text, model, usage, attempts: res.attempts, ...(costUsd !== undefined ? { costUsd } : {}) };
    },
  };
}
