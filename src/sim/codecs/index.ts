/** Which codec answers which path. Any base-path prefix before the API path is tolerated. */
import type { ProviderId } from '../types.js';
import { anthropicCodec } from './anthropic.js';
import type { ProviderCodec, Route } from './common.js';
import { geminiCodec } from './gemini.js';
import { openAiChatCodec } from './openai-chat.js';
import { openAiResponsesCodec } from './openai-responses.js';

export * from './common.js';

export const CODECS: Record<ProviderId, ProviderCodec> = {
  anthropic: anthropicCodec,
  'openai-responses': openAiResponsesCodec,
  'openai-chat': openAiChatCodec,
  gemini: geminiCodec,
};

export const SUPPORTED_PATHS = [
  'POST /v1/messages',
  'POST /v1/messages/count_tokens',
  'POST /v1/responses',
  'POST /v1/chat/completions',
  'POST /v1beta/models/{model}:streamGenerateContent',
  'POST /v1beta/models/{model}:generateContent',
  'POST /v1beta/models/{model}:countTokens',
  'HEAD /',
];

const GEMINI_OPS: Record<string, Route['op']> = {
  streamGenerateContent: 'stream_generate',
  generateContent: 'generate',
  countTokens: 'count_tokens',
};

/** Maps a POST path (query removed, possibly under a prefix) to a route, or null. */
export function matchRoute(pathname: string): Route | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname).replace(/\/+$/, '');
  } catch {
    return null;
  }
  if (path.endsWith('/v1/messages')) return { provider: 'anthropic', op: 'messages' };
  if (path.endsWith('/v1/messages/count_tokens')) return { provider: 'anthropic', op: 'count_tokens' };
  if (path.endsWith('/v1/responses')) return { provider: 'openai-responses', op: 'responses' };
  if (path.endsWith('/v1/chat/completions')) return { provider: 'openai-chat', op: 'chat' };
  const g = /\/(?:v1beta|v1alpha|v1)\/models\/([^/:]+):(\w+)$/.exec(path);
  if (g && GEMINI_OPS[g[2] as string])
    return { provider: 'gemini', op: GEMINI_OPS[g[2] as string] as Route['op'], model: g[1] as string };
  return null;
}
