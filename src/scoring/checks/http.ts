/**
 * `http` checks: one request after the run; the status must match and, if given, the body contain a text.
 * Made with node:http(s), not fetch(): fetch refuses the Fetch standard's "bad ports" (6000, 10080, …),
 * which local services under test may well listen on.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CheckVerdict } from './types.js';

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 20;
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
    ({ status, body } = await follow(opts.url, opts.method, signal));
  } catch (err) {
    const reason = timeout.aborted
      ? `no answer within ${Number((timeoutMs / 1000).toFixed(1))} s`
      : opts.signal?.aborted
        ? `stopped: ${abortText(opts.signal.reason)}`
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

/** Redirects are followed as fetch() follows them: 303 (and 301/302 after a POST) turn into a GET. */
async function follow(
  url: string,
  method: string,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  let at = new URL(url);
  for (let hops = 0; ; hops++) {
    const res = await send(at, method, signal);
    const location = res.headers.location;
    if (
      res.statusCode! < 300 ||
      res.statusCode! > 308 ||
      [304, 305, 306].includes(res.statusCode!) ||
      !location
    )
      return { status: res.statusCode!, body: method === 'HEAD' ? '' : await readBody(res) };
    res.resume();
    if (hops === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    at = new URL(location, at);
    if (at.protocol !== 'http:' && at.protocol !== 'https:')
      throw new Error(`redirected to ${at.protocol} URL`);
    const code = res.statusCode!;
    if ((code === 303 && method !== 'HEAD') || ((code === 301 || code === 302) && method === 'POST'))
      method = 'GET';
  }
}

function send(url: URL, method: string, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, signal, headers: { 'accept-encoding': 'identity' } }, resolve);
    req.once('error', reject);
    req.end();
  });
}

/** The body's first MAX_BODY_BYTES, as text. */
async function readBody(res: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    parts.push(chunk);
    bytes += chunk.length;
    if (bytes >= MAX_BODY_BYTES) break; // leaving the loop destroys the stream
  }
  return Buffer.concat(parts).subarray(0, MAX_BODY_BYTES).toString('utf8');
}

function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

function networkReason(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return e.code ?? e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

function abortText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' && reason ? reason : 'cancelled';
}
