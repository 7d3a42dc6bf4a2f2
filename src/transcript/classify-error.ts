/**
 * One table mapping what agents report about a failure (HTTP status, provider error code, message text)
 * to an ErrorClass. docs/transcript.md reproduces this table; keep both in step.
 */
import { ERROR_CLASSES, type ErrorClass } from './model.js';

export { ERROR_CLASSES };

export function isErrorClass(v: unknown): v is ErrorClass {
  return typeof v === 'string' && (ERROR_CLASSES as readonly string[]).includes(v);
}

export interface ErrorFacts {
  /** HTTP status of the failed provider call, when known. */
  status?: number;
  /** Provider / CLI error code: `rate_limit`, `insufficient_quota`, `RESOURCE_EXHAUSTED`, ... */
  code?: string;
  /** Human message; only its first few KB are inspected. */
  message?: string;
}

/** Provider and CLI error codes (compared lower-cased). */
const CODES: Record<string, ErrorClass> = {
  // Claude Code assistant `error` field and Anthropic error types
  authentication_failed: 'auth',
  authentication_error: 'auth',
  oauth_org_not_allowed: 'auth',
  permission_error: 'auth',
  billing_error: 'quota',
  rate_limit: 'rate_limit',
  rate_limit_error: 'rate_limit',
  server_error: 'api_error',
  overloaded_error: 'api_error',
  api_error: 'api_error',
  invalid_request: 'api_error',
  invalid_request_error: 'api_error',
  not_found_error: 'api_error',
  request_too_large: 'limit_exceeded',
  max_output_tokens: 'limit_exceeded',
  timeout_error: 'timeout',
  // OpenAI codes
  insufficient_quota: 'quota',
  rate_limit_exceeded: 'rate_limit',
  invalid_api_key: 'auth',
  context_length_exceeded: 'limit_exceeded',
  // Google RPC statuses (Gemini)
  unauthenticated: 'auth',
  permission_denied: 'auth',
  resource_exhausted: 'rate_limit',
  deadline_exceeded: 'timeout',
  unavailable: 'api_error',
  internal: 'api_error',
  // Gemini CLI fatal error types
  fatalturnlimitederror: 'limit_exceeded',
  fatalauthenticationerror: 'auth',
  fatalcancellationerror: 'cancelled',
  // opencode error names
  providerautherror: 'auth',
  messageoutputlengtherror: 'limit_exceeded',
  messageabortederror: 'cancelled',
};

/**
 * Message phrases, checked in this order on the lower-cased message; the first class with a hit wins.
 * Quota comes before rate_limit so "429 insufficient_quota" is a quota problem, not a transient one.
 */
const PHRASES: ReadonlyArray<readonly [ErrorClass, readonly string[]]> = [
  [
    'auth',
    [
      'invalid api key',
      'invalid x-api-key',
      'incorrect api key',
      'api key not valid',
      'authentication',
      'unauthorized',
      'unauthenticated',
      'not logged in',
      'please run /login',
      'oauth token',
      'invalid auth method',
    ],
  ],
  [
    'quota',
    [
      'insufficient_quota',
      'exceeded your current quota',
      'quota exceeded',
      'out of credits',
      'credit balance',
      'billing',
      'payment required',
      'usage limit',
      'spend limit',
    ],
  ],
  ['rate_limit', ['rate limit', 'rate_limit', 'ratelimit', 'too many requests', 'resource_exhausted']],
  ['timeout', ['timed out', 'timeout', 'etimedout', 'deadline exceeded', 'deadline_exceeded']],
  [
    'network',
    [
      'econnrefused',
      'econnreset',
      'enotfound',
      'eai_again',
      'enetunreach',
      'ehostunreach',
      'socket hang up',
      'fetch failed',
      'network error',
      'connection error',
      'connection refused',
      'connection reset',
      'failed to connect',
      'error sending request',
      'stream disconnected',
      'getaddrinfo',
    ],
  ],
  [
    'limit_exceeded',
    [
      'max turns',
      'max_turns',
      'maximum session turns',
      'max session turns',
      'turn limit',
      'context length',
      'context window',
      'context_length_exceeded',
      'prompt is too long',
      'max_tokens',
      'maximum budget',
      'max_budget',
    ],
  ],
  ['cancelled', ['cancelled', 'canceled', 'aborted', 'interrupted by user']],
  [
    'api_error',
    [
      'api error',
      'server error',
      'server_error',
      'overloaded',
      'high demand',
      'bad gateway',
      'service unavailable',
      'temporarily unavailable',
    ],
  ],
];

const MAX_INSPECT = 4096;

/** Class implied by the message text alone, or undefined. */
export function classFromMessage(message: string | undefined): ErrorClass | undefined {
  if (!message) return undefined;
  const text = (message.length > MAX_INSPECT ? message.slice(0, MAX_INSPECT) : message).toLowerCase();
  for (const [cls, phrases] of PHRASES) {
    for (const p of phrases) if (text.includes(p)) return cls;
  }
  return undefined;
}

export function classFromCode(code: string | undefined): ErrorClass | undefined {
  return code ? CODES[code.toLowerCase()] : undefined;
}

/** Class implied by an HTTP status alone (null for statuses whose meaning depends on the message). */
export function classFromStatus(status: number): ErrorClass | null {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'quota';
  if (status === 429) return 'rate_limit';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500) return 'api_error';
  return null;
}

/**
 * Classify a failure. Order: 429 with a quota message → quota; a status with a fixed meaning
 * (401/403, 402, 429, 408/504, 5xx); the error code; the message; other statuses → api_error;
 * nothing known → `fallback` (default api_error).
 */
export function classifyError(facts: ErrorFacts, fallback: ErrorClass = 'api_error'): ErrorClass {
  const fromMessage = classFromMessage(facts.message);
  const fromCode = classFromCode(facts.code);
  if (facts.status !== undefined) {
    if (facts.status === 429 && (fromMessage === 'quota' || fromCode === 'quota')) return 'quota';
    const fixed = classFromStatus(facts.status);
    if (fixed) return fixed;
  }
  if (fromCode) return fromCode;
  if (fromMessage) return fromMessage;
  return facts.status !== undefined ? 'api_error' : fallback;
}

const STATUS_MARKERS = [
  'api error: ',
  'status code ',
  'status: ',
  'status ',
  'statuscode ',
  'http ',
  'last status: ',
];

/**
 * An HTTP status named in a message: "API Error: 500 ...", "status 429", "HTTP 503", "last status: 429".
 * Only 4xx/5xx numbers are accepted, and only in the first few KB.
 */
export function statusFromText(message: string | undefined): number | undefined {
  if (!message) return undefined;
  const text = (message.length > MAX_INSPECT ? message.slice(0, MAX_INSPECT) : message).toLowerCase();
  for (const marker of STATUS_MARKERS) {
    let at = text.indexOf(marker);
    while (at !== -1) {
      const start = at + marker.length;
      const digits = text.slice(start, start + 4);
      const m = /^([45]\d\d)(?!\d)/.exec(digits);
      if (m) return Number(m[1]);
      at = text.indexOf(marker, start);
    }
  }
  return undefined;
}
