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

/** Gemini CLI reports its retries on stderr only: "Attempt 2 failed with status 429. Retrying with backoff...". */
export function stderrNotice(format: NoticeFormat, chunk: string): ApiFailureNotice | undefined {
  if (format !== 'gemini') return undefined;
  const m = /Attempt (\d+) failed(?: with status (\d{3}))?/.exec(chunk);
  if (!m) return undefined;
  const httpStatus = m[2] !== undefined ? Number(m[2]) : undefined;
  return failure(httpStatus, undefined, chunk.trim().split('\n')[0], Number(m[1]));
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
    const data = rec(rec(ev.error)?.data);
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
  // No HTTP status and no code the table knows: nothing answered (refused, DNS, reset).
  const errorClass =
    httpStatus === undefined && (code === undefined || code === 'unknown')
      ? 'network'
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
  else if (last.httpStatus !== undefined && last.httpStatus >= 500) what = `API server error${code}`;
  else what = `API call failed${code}`;
  return retries > 0 ? `${what} after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : what;
}
