/** `http` checks: one request after the run; the status must match and, if given, the body contain a text. */
import type { CheckVerdict } from './types.js';

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
const MAX_BODY_CHARS = 1024 * 1024;
const EXCERPT_CHARS = 200;

export interface HttpCheckOptions {
  url: string;
  method: string;
  status: number;
  contains?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function httpCheck(opts: HttpCheckOptions): Promise<CheckVerdict> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const what = `${opts.method} ${opts.url}`;
  let status: number;
  let body: string;
  try {
    const res = await fetch(opts.url, { method: opts.method, signal, redirect: 'follow' });
    status = res.status;
    body = opts.method === 'HEAD' ? '' : (await res.text()).slice(0, MAX_BODY_CHARS);
  } catch (err) {
    const reason = timeout.aborted
      ? `no answer within ${Number((timeoutMs / 1000).toFixed(1))} s`
      : networkReason(err);
    return { passed: false, evidence: `${what} failed: ${reason}` };
  }
  const statusOk = status === opts.status;
  const parts = [`${what} answered ${status} (expected ${opts.status})`];
  let bodyOk = true;
  if (opts.contains !== undefined) {
    bodyOk = body.includes(opts.contains);
    parts.push(`body ${bodyOk ? 'contains' : 'does not contain'} ${JSON.stringify(opts.contains)}`);
  }
  if (!bodyOk || !statusOk) parts.push(`body: ${JSON.stringify(excerpt(body))}`);
  return { passed: statusOk && bodyOk, evidence: parts.join('; ') };
}

function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

function networkReason(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
