/**
 * Live provider-call failures, read off an agent CLI's output line by line while it runs (the parsers only
 * give a transcript at the end). A notice is either a failed provider call the CLI is retrying or giving up
 * on, or a sign the provider answered (progress), which ends a streak of failures.
 */
import { classifyError, statusFromText } from './classify-error.js';
import type { ErrorClass } from './model.js';
import { num, parseLine, rec, str, type Json } from './util.js';

export interface ApiFailureNotice {
  kind: 'failure';
  /** HTTP status of the failed call; absent when there was no HTTP answer (connection refused, DNS). */
  httpStatus?: number;
  errorClass: ErrorClass;
  /** The CLI's own words, short. */
  detail?: string;
  /** The CLI's retry attempt number and cap, when it says. */
  attempt?: number;
  maxRetries?: number;
}

export type ApiNotice = ApiFailureNotice | { kind: 'progress' };

/** Which output dialect an adapter speaks, for notices. */
export type NoticeFormat = 'claude' | 'codex' | 'gemini' | 'opencode' | 'none';

export function noticeFormatFor(adapter: string): NoticeFormat {
  if (adapter === 'claude-code' || adapter === 'qwen-code') return 'claude';
  if (adapter === 'codex' || adapter === 'gemini' || adapter === 'opencode') return adapter;
  return 'none';
}

/** A notice from one stdout line, or undefined when the line says nothing about provider calls. */
export function stdoutNotice(format: NoticeFormat, line: string): ApiNotice | undefined {
  const parsed = parseLine(line);
  if (parsed.kind !== 'json') return undefined;
  const ev = parsed.value;
  switch (format) {
    case 'claude':
      return claudeNotice(ev);
    case 'codex':
      return codexNotice(ev);
    case 'gemini':
      return ev.type === 'message' && ev.role === 'assistant' ? { kind: 'progress' } : undefined;
    case 'opencode':
      return opencodeNotice(ev);
    default:
      return undefined;
  }
}

/**
 * Gemini CLI reports its retries on stderr only: "Attempt 2 failed with status 429. Retrying with backoff...".
 * Its last one, "Attempt 3 failed: {"error":{"code":500,…}}. Max attempts reached", gives up: no retry
 * follows, so 2 retries were made, and the status is only in the error's JSON.
 */
export function stderrNotice(format: NoticeFormat, chunk: string): ApiFailureNotice | undefined {
  if (format !== 'gemini') return undefined;
  const m = /Attempt (\d+) failed(?: with status (\d{3}))?/.exec(chunk);
  if (!m) return undefined;
  const line = chunk.slice(m.index).split('\n')[0]!.trim();
  const status = m[2] ?? /"code":\s*([45]\d\d)\b/.exec(line)?.[1];
  const httpStatus = status !== undefined ? Number(status) : statusFromText(line);
  const retries = /Max attempts reached/.test(line) ? Number(m[1]) - 1 : Number(m[1]);
  return failure(httpStatus, undefined, line, retries);
}

function claudeNotice(ev: Json): ApiNotice | undefined {
  if (ev.type === 'system' && ev.subtype === 'api_retry') {
    const status = num(ev.error_status);
    return failure(status, str(ev.error), str(ev.error), num(ev.attempt), num(ev.max_retries));
  }
  if (ev.type === 'stream_event') return { kind: 'progress' };
  if (ev.type === 'assistant') {
    const m = rec(ev.message);
    // Claude Code's synthetic "API Error" message is not an answer from the provider.
    return m?.model === '<synthetic>' ? undefined : { kind: 'progress' };
  }
  return undefined;
}

function codexNotice(ev: Json): ApiNotice | undefined {
  if (ev.type === 'error') {
    const message = str(ev.message) ?? '';
    const m = /^Reconnecting\.\.\. (\d+)\/(\d+)/.exec(message);
    if (!m) return undefined;
    return failure(statusFromText(message), undefined, message, Number(m[1]), Number(m[2]));
  }
  if (ev.type === 'item.completed' || ev.type === 'turn.completed') {
    const item = rec(ev.item);
    return item?.type === 'error' ? undefined : { kind: 'progress' };
  }
  return undefined;
}

function opencodeNotice(ev: Json): ApiNotice | undefined {
  if (ev.type === 'error') {
    // Only an APIError is a failed provider call; others (UnknownError for an unknown model) are opencode's.
    const error = rec(ev.error);
    if (error?.name !== 'APIError') return undefined;
    const data = rec(error.data);
    return failure(num(data?.statusCode), undefined, str(data?.message));
  }
  return ev.type === 'step_finish' || ev.type === 'text' ? { kind: 'progress' } : undefined;
}

function failure(
  httpStatus: number | undefined,
  code: string | undefined,
  detail: string | undefined,
  attempt?: number,
  maxRetries?: number,
): ApiFailureNotice {
  // No HTTP status and no code the table knows: nothing answered (refused, DNS, reset), unless the
  // message says the provider did (Codex's "high demand" after an HTTP 500).
  const errorClass =
    httpStatus === undefined && (code === undefined || code === 'unknown')
      ? classifyError({ message: detail }, 'network')
      : classifyError({ ...(httpStatus !== undefined ? { status: httpStatus } : {}), code, message: detail });
  return {
    kind: 'failure',
    errorClass,
    ...(httpStatus !== undefined ? { httpStatus } : {}),
    ...(detail ? { detail: detail.slice(0, 200) } : {}),
    ...(attempt !== undefined ? { attempt } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  };
}

/**
 * The plain sentence for a streak of failed provider calls, e.g.
 * "API rejected the key (401) after 10 retries", "API unreachable (no response) after 3 retries".
 */
export function apiFailureCause(last: ApiFailureNotice, retries: number): string {
  const code = last.httpStatus !== undefined ? ` (${last.httpStatus})` : '';
  let what: string;
  if (last.errorClass === 'auth') what = `API rejected the key${code}`;
  else if (last.errorClass === 'quota') what = `API quota exhausted${code}`;
  else if (last.errorClass === 'rate_limit') what = `API rate limit hit${code}`;
  else if (last.errorClass === 'network' && last.httpStatus === undefined)
    what = 'API unreachable (no response)';
  else if (last.httpStatus !== undefined ? last.httpStatus >= 500 : last.errorClass === 'api_error')
    what = `API server error${code}`;
  else what = `API call failed${code}`;
  return retries > 0 ? `${what} after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : what;
}
