/**
 * One JSON POST with a per-attempt timeout and retries: 429, 408 and 5xx answers, timeouts, network
 * errors and unreadable bodies are retried with exponential backoff (Retry-After / retry-after-ms
 * honoured, capped); any other status fails at once. Used by the HTTP judge clients.
 */
import { post, type HttpAnswer } from './http-client.js';
import { JudgeError } from './types.js';

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Limit of one attempt, including reading the body. */
  timeoutMs: number;
  /** First backoff; doubles per retry. Default 1000. */
  baseDelayMs?: number;
  /** Longest wait between attempts, also for Retry-After. Default 60000. */
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Called before each wait, e.g. for -v logging. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

export interface PostResult {
  json: unknown;
  status: number;
  attempts: number;
}

export const DEFAULT_BASE_DELAY_MS = 1_000;
export const DEFAULT_MAX_DELAY_MS = 60_000;

export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  opts: RetryOptions,
): Promise<PostResult> {
  const base = opts.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const cap = opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const payload = JSON.stringify(body);
  let lastReason = '';
  let target: URL | undefined;
  for (let attempt = 0; ; attempt++) {
    if (opts.signal?.aborted) throw new JudgeError('judge call cancelled', attempt);
    let retryAfterMs: number | undefined;
    try {
      target ??= new URL(url);
      const res = await send(target, headers, payload, opts.timeoutMs, opts.signal);
      const text = res.text;
      if (res.status >= 200 && res.status < 300) {
        try {
          return { json: JSON.parse(text), status: res.status, attempts: attempt + 1 };
        } catch {
          lastReason = `HTTP ${res.status} with a body that is not JSON: ${excerpt(text)}`;
        }
      } else if (res.status === 429 || res.status === 408 || res.status >= 500) {
        lastReason = `HTTP ${res.status}: ${errorMessage(text)}`;
        retryAfterMs = retryAfter(toHeaders(res.headers));
      } else {
        throw new JudgeError(`HTTP ${res.status}: ${errorMessage(text)}`, attempt + 1);
      }
    } catch (err) {
      if (err instanceof JudgeError) throw err;
      if (opts.signal?.aborted) throw new JudgeError('judge call cancelled', attempt + 1);
      lastReason =
        err instanceof AttemptTimeout
          ? `no answer within ${formatSeconds(opts.timeoutMs)}`
          : `network error: ${networkReason(err)}`;
    }
    if (attempt >= opts.maxRetries) {
      const tries = attempt + 1;
      throw new JudgeError(`${lastReason} (${tries} attempt${tries === 1 ? '' : 's'})`, tries);
    }
    const delayMs = Math.min(cap, retryAfterMs ?? base * 2 ** attempt);
    opts.onRetry?.({ attempt: attempt + 1, delayMs, reason: lastReason });
    await sleep(delayMs, opts.signal);
  }
}

class AttemptTimeout extends Error {}

/** One attempt through the judges' own HTTP client (http-client.ts: why not node:http or fetch). */
function send(
  target: URL,
  headers: Record<string, string>,
  payload: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<HttpAnswer> {
  return post(target, headers, payload, {
    timeoutMs,
    signal,
    timeoutError: () => new AttemptTimeout(),
  });
}

function toHeaders(h: Record<string, string>): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) {
    try {
      out.set(k, v);
    } catch {
      // a header the Headers class refuses is not one a retry needs
    }
  }
  return out;
}

/** `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an HTTP date; undefined when absent. */
export function retryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The provider's own error message when the body is a JSON error object, else the start of the body. */
export function errorMessage(text: string): string {
  try {
    const v = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m =
      typeof v.error === 'string'
        ? v.error
        : typeof v.error?.message === 'string'
          ? v.error.message
          : v.message;
    if (typeof m === 'string' && m.trim() !== '') return excerpt(m);
  } catch {
    // not JSON
  }
  return excerpt(text) || '(empty body)';
}

function excerpt(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function networkReason(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return e.code ?? e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
