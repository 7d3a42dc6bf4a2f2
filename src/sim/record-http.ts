/**
 * What the recorder passes on and where: hop-by-hop headers dropped, secrets found (forwarded, never
 * written), the upstream URL for an incoming path, and an answer's body decoded for the tape.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { AxisError } from '../util/errors.js';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const SECRET_HEADER = /authorization|api-key|apikey|token|secret|cookie|(^|-)key$/i;
/** A query parameter whose name says it holds a credential: auth_token, client_secret, apiKey, sig. */
function secretQueryName(name: string): boolean {
  const parts = name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).map((p) => p.toLowerCase());
  return parts.some((p) => /(?:key|token|secret|password|passwd|pwd|signature)$/.test(p) || p === 'sig');
}

/** Headers to pass on: hop-by-hop ones (and those `connection` names) dropped. */
export function passHeaders(
  headers: IncomingHttpHeaders,
  drop: string[] = [],
): Record<string, string | string[]> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase());
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP_BY_HOP.has(k) || named.includes(k) || drop.includes(k)) continue;
    out[k] = v;
  }
  return out;
}

/** Secret values in request headers and query: forwarded, but scrubbed from the tape and the log. */
export function secretsOf(headers: IncomingHttpHeaders, url: URL): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(k) || v === undefined) continue;
    for (const value of Array.isArray(v) ? v : [v]) {
      out.push(value);
      const m = /^\s*(?:bearer|basic|token)\s+(.+)$/i.exec(value);
      if (m?.[1]) out.push(m[1].trim());
    }
  }
  for (const [k, v] of url.searchParams) if (secretQueryName(k) && v) out.push(v);
  return out;
}

/** A URL part %-decoded; a broken escape (`%E0%A4%A`) is read as written, not thrown. */
function decoded(k: string): string {
  try {
    return decodeURIComponent(k);
  } catch {
    return k;
  }
}

/** The path as logged: secret query values replaced. */
export function logPath(raw: string): string {
  return raw.replace(/([?&])([^=&]+)=([^&]*)/g, (m, sep: string, k: string) =>
    secretQueryName(decoded(k)) ? `${sep}${k}=<redacted>` : m,
  );
}

/** The upstream as shown and written: its password and secret query values `<redacted>`. */
export function shownUpstream(url: URL): string {
  const user = url.username + (url.password ? ':<redacted>' : '');
  const auth = url.username || url.password ? `${user}@` : '';
  return `${url.protocol}//${auth}${url.host}${url.pathname}${logPath(url.search)}${url.hash}`.replace(
    /\/+$/,
    '',
  );
}

/** Secrets in the upstream URL itself: scrubbed wherever an answer echoes them. */
export function upstreamSecrets(url: URL): string[] {
  const out = secretsOf({}, url);
  if (url.password) out.push(url.password, decoded(url.password));
  return out;
}

/**
 * Upstream URL for an incoming path: base path + path, the base's version segment not repeated. The
 * upstream's user and password (sent as Basic auth unless the agent sends its own Authorization) and its
 * query parameters (a gateway's `?key=`, `api-version=`) go with every request; the request's own win.
 */
export function targetUrl(upstream: URL, incoming: string): URL {
  const base = upstream.pathname.replace(/\/+$/, '');
  let path = incoming.startsWith('/') ? incoming : `/${incoming}`;
  const seg = /\/(?:v1|v1beta|v1alpha)$/.exec(base)?.[0];
  if (seg && (path === seg || path.startsWith(`${seg}/`) || path.startsWith(`${seg}?`)))
    path = path.slice(seg.length);
  const target = new URL(`${upstream.origin}${base}${path}`);
  target.username = upstream.username;
  target.password = upstream.password;
  for (const [k, v] of upstream.searchParams)
    if (!target.searchParams.has(k)) target.searchParams.append(k, v);
  return target;
}

/** A URL as typed, which may not parse: a password (`user:pw@`) and secret query values `<redacted>`. */
export function maskedUrlText(value: string): string {
  return logPath(value.replace(/([^\s/:@]*):[^\s/@]+@/, '$1:<redacted>@'));
}

export function parseUpstream(value: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new AxisError(`upstream: expected an http:// or https:// URL, found "${maskedUrlText(value)}"`, {
      exitCode: 2,
    });
  }
  return url;
}

/** An answer's body as text, its content-encoding undone. */
export function decodeBody(body: Buffer, encoding: string | undefined): string {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(body).toString('utf8');
  if (enc === 'deflate') return inflateSync(body).toString('utf8');
  if (enc === 'br') return brotliDecompressSync(body).toString('utf8');
  if (enc && enc !== 'identity') throw new Error(`unsupported content-encoding "${enc}"`);
  return body.toString('utf8');
}
