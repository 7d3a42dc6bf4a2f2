/**
 * Judge over any OpenAI Chat Completions-compatible endpoint: OpenAI, Azure OpenAI, Ollama, vLLM,
 * LM Studio. `base_url` is the API base the provider documents (`https://api.openai.com/v1`,
 * `http://localhost:11434/v1`, `https://<resource>.openai.azure.com/openai/deployments/<deployment>`);
 * `/chat/completions` is appended, query parameters (Azure's `api-version`) kept.
 */
import { postJson, type RetryOptions } from './http.js';
import { costOf } from './prices.js';
import { JudgeError, type JudgeClient, type JudgeReply } from './types.js';

export const OPENAI_DEFAULT_MODEL = 'gpt-4.1';
export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';
export const AZURE_API_VERSION = '2024-10-21';

export interface OpenAiJudgeOptions {
  model: string;
  baseUrl: string;
  /** Optional: local servers (Ollama, vLLM, LM Studio) need none. */
  apiKey?: string;
  retry: Omit<RetryOptions, 'signal'>;
  via?: string;
  cacheId: string | null;
}

/** The chat completions URL for a base URL; Azure hosts get `api-version` when it is missing. */
export function chatCompletionsUrl(baseUrl: string): { url: string; azure: boolean } {
  const u = new URL(baseUrl);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/chat/completions`;
  const azure =
    u.hostname.endsWith('.openai.azure.com') || u.hostname.endsWith('.cognitiveservices.azure.com');
  if (azure && !u.searchParams.has('api-version')) u.searchParams.set('api-version', AZURE_API_VERSION);
  return { url: u.toString(), azure };
}

/** Reasoning models reject a temperature other than the default. */
function acceptsTemperature(model: string): boolean {
  return !/^(o\d|gpt-5)/i.test(model);
}

export function createOpenAiJudge(opts: OpenAiJudgeOptions): JudgeClient {
  const { url, azure } = chatCompletionsUrl(opts.baseUrl);
  const headers: Record<string, string> = {};
  if (opts.apiKey) {
    if (azure) headers['api-key'] = opts.apiKey;
    else headers.authorization = `Bearer ${opts.apiKey}`;
  }
  return {
    provider: 'openai',
    model: opts.model,
    label: `openai ${opts.model}${opts.via ? ` (${opts.via})` : ''}`,
    cacheId: opts.cacheId,
    async complete(req): Promise<JudgeReply> {
      const body: Record<string, unknown> = {
        model: opts.model,
        messages: [
          { role: 'system', content: req.system },
          ...req.messages.map((m) => ({ role: m.role, content: m.content })),
        ],
      };
      if (acceptsTemperature(opts.model)) body.temperature = 0;
      const res = await postJson(url, headers, body, { ...opts.retry, signal: req.signal });
      const json = res.json as {
        model?: string;
        choices?: Array<{ message?: { content?: unknown } }>;
        usage?: { prompt_tokens?: number; completion_tokens?: number };
      };
      const content = json.choices?.[0]?.message?.content;
      if (!Array.isArray(json.choices) || json.choices.length === 0)
        throw new JudgeError('the Chat Completions answer has no choices', res.attempts);
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
            : '';
      const usage = { input: json.usage?.prompt_tokens ?? 0, output: json.usage?.completion_tokens ?? 0 };
      const model = typeof json.model === 'string' && json.model ? json.model : opts.model;
      const costUsd = opts.via ? undefined : costOf(model, usage);
      return { text, model, usage, attempts: res.attempts, ...(costUsd !== undefined ? { costUsd } : {}) };
    },
  };
}
