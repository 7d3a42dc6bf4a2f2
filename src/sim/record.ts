/**
 * The recorder: a proxy on 127.0.0.1 that forwards every request to a real provider, streams the answer
 * back unchanged (status, headers, bytes, as they arrive), and writes each model exchange into a
 * recording in neutral terms. API keys are forwarded upstream but never written anywhere.
 */
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { clientSetup, type AgentCli, type ClientSetup } from './clients.js';
import { clip, CODECS, matchRoute, type Route } from './codecs/index.js';
import { decodeReply, type DecodedReply } from './record-decode.js';
import { stableJson, toNeutralTool } from './record-tools.js';
import {
  emptyRecording,
  redact,
  serializeRecording,
  writeAtomic,
  type RecordedSide,
  type RecordedTurn,
  type Recording,
} from './recording.js';
import { keepIdleConnections, type SimulatorClientOptions } from './server.js';
import type { HistoryTurn, NeutralRequest, NeutralToolCall, ProviderId } from './types.js';
import { AxisError } from '../util/errors.js';

/** Where an exchange went in the recording. */
export type RecordedAs =
  | { kind: 'turn'; turn: number; retry?: boolean }
  | { kind: 'side'; side: number }
  | { kind: 'none'; reason: string };

/** One line of the recorder's log (never holds headers; secrets in the path are redacted). */
export interface RecordExchange {
  seq: number;
  time: string;
  method: string;
  path: string;
  provider: ProviderId | null;
  model?: string;
  stream?: boolean;
  tools: string[];
  /** Status sent to the agent: upstream's own, or 502 when the upstream could not be reached. */
  status: number;
  recorded: RecordedAs;
  /** What the model answered, one line (`"I will…" + Bash`), or the upstream problem. */
  summary: string;
  durationMs: number;
}

export interface RecorderOptions {
  /** Provider root, e.g. `https://api.anthropic.com`. A trailing `/v1` (or `/v1beta`) is not doubled. */
  upstream: string;
  /** Tape file: written at start, after every exchange, and on stop (each time atomically). */
  out?: string;
  /** Port on 127.0.0.1; default 0 (a free port). */
  port?: number;
  /** Name stored in the recording. */
  name?: string;
  onExchange?: (entry: RecordExchange) => void;
  /** A tape write that failed mid-recording (the final one throws from `stop()` instead). */
  onWarning?: (message: string) => void;
}

export interface Recorder {
  /** Base URL without a version segment, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  readonly upstream: string;
  readonly exchanges: RecordExchange[];
  /** The recording so far. */
  recording(): Recording;
  /** Env and files that point `cli` at the recorder; `apiKey` is the real key, forwarded upstream. */
  clientEnv(cli: AgentCli, opts: SimulatorClientOptions & { apiKey: string }): ClientSetup;
  /** Stops listening (open connections included), writes the tape as complete, returns it. */
  stop(): Promise<Recording>;
}

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
const SECRET_QUERY = /^(key|api[-_]?key|token|access[-_]token|secret|sig|signature)$/i;

/** Headers to pass on: hop-by-hop ones (and those `connection` names) dropped. */
function passHeaders(headers: IncomingHttpHeaders, drop: string[] = []): Record<string, string | string[]> {
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
  for (const [k, v] of url.searchParams) if (SECRET_QUERY.test(k) && v) out.push(v);
  return out;
}

/** The path as logged: secret query values replaced. */
function logPath(raw: string): string {
  return raw.replace(/([?&])([^=&]+)=([^&]*)/g, (m, sep: string, k: string) =>
    SECRET_QUERY.test(decodeURIComponent(k)) ? `${sep}${k}=<redacted>` : m,
  );
}

/** Upstream URL for an incoming path: base path + path, the base's version segment not repeated. */
export function targetUrl(upstream: URL, incoming: string): URL {
  const base = upstream.pathname.replace(/\/+$/, '');
  let path = incoming.startsWith('/') ? incoming : `/${incoming}`;
  const seg = /\/(?:v1|v1beta|v1alpha)$/.exec(base)?.[0];
  if (seg && (path === seg || path.startsWith(`${seg}/`) || path.startsWith(`${seg}?`)))
    path = path.slice(seg.length);
  return new URL(`${upstream.origin}${base}${path}`);
}

export function parseUpstream(value: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new AxisError(`upstream: expected an http:// or https:// URL, found "${value}"`, { exitCode: 2 });
  }
  return url;
}

function decodeBody(body: Buffer, encoding: string | undefined): string {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(body).toString('utf8');
  if (enc === 'deflate') return inflateSync(body).toString('utf8');
  if (enc === 'br') return brotliDecompressSync(body).toString('utf8');
  if (enc && enc !== 'identity') throw new Error(`unsupported content-encoding "${enc}"`);
  return body.toString('utf8');
}

const callSig = (c: NeutralToolCall) => `${c.name}\u0000${stableJson(c.args)}`;

function replySummary(r: DecodedReply): string {
  const parts: string[] = [];
  if (r.thinking) parts.push('(thinking)');
  if (r.text) parts.push(JSON.stringify(clip(r.text, 60)));
  if (r.toolCalls.length) parts.push(r.toolCalls.map((c) => c.name).join(', '));
  return parts.join(' + ') || '(empty answer)';
}

/**
 * Builds a recording from parsed exchanges. Like the tape engine, it places a turn by the history the
 * agent sends: the number of recorded turns in it is the index of the turn being answered.
 */
export class RecordingBuilder {
  readonly rec: Recording;
  private readonly ids = new Set<string>();
  private readonly sigs = new Set<string>();
  private readonly texts = new Set<string>();

  constructor(fields: Partial<Recording> = {}) {
    this.rec = emptyRecording(fields);
  }

  private isRecorded(t: HistoryTurn): boolean {
    if (t.toolCalls.some((c) => this.ids.has(c.id) || this.sigs.has(callSig(c)))) return true;
    const text = t.text.trim();
    return text === '' ? t.toolCalls.length === 0 : this.texts.has(text);
  }

  add(req: NeutralRequest, reply: DecodedReply): RecordedAs {
    const rec = this.rec;
    rec.provider ??= req.provider;
    if (rec.model === undefined && req.model) rec.model = req.model;
    if (rec.cwd === undefined && req.cwd) rec.cwd = req.cwd;
    const body = {
      ...(reply.text !== '' || (!reply.toolCalls.length && !reply.thinking) ? { text: reply.text } : {}),
      ...(reply.thinking ? { thinking: reply.thinking } : {}),
      ...(reply.toolCalls.length
        ? { tools: reply.toolCalls.map((c) => toNeutralTool(c, req.tools, req.cwd)) }
        : {}),
      ...(reply.usage ? { usage: reply.usage } : {}),
    };
    if (req.tools.length === 0 || req.jsonSchema) {
      const side: RecordedSide = {
        kind: req.jsonSchema ? 'json_schema' : 'no_tools',
        prompt: req.lastUserText.slice(0, 300),
        ...body,
      };
      rec.side.push(side);
      return { kind: 'side', side: rec.side.length - 1 };
    }
    const served = req.history.filter((t) => this.isRecorded(t));
    served.forEach((h, i) => {
      const turn = rec.turns[i];
      if (turn?.tools?.length && h.results.length)
        turn.results = h.results.map((r) => ({ output: r.output, is_error: r.isError }));
    });
    const k = served.length;
    if (k < rec.turns.length - 1) {
      return {
        kind: 'none',
        reason: `its history matches only ${k} of the ${rec.turns.length} recorded turns (another conversation)`,
      };
    }
    const turn: RecordedTurn = { ...body, offered: req.tools.map((t) => t.name) };
    for (const c of reply.toolCalls) {
      if (c.id) this.ids.add(c.id);
      this.sigs.add(callSig(c));
    }
    if (reply.text.trim()) this.texts.add(reply.text.trim());
    const retry = k < rec.turns.length;
    rec.turns[k] = turn;
    return retry ? { kind: 'turn', turn: k, retry: true } : { kind: 'turn', turn: k };
  }
}

export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const upstream = parseUpstream(options.upstream);
  const upstreamText = upstream.href.replace(/\/+$/, '');
  const builder = new RecordingBuilder({
    name: options.name ?? `recorded from ${upstreamText}`,
    upstream: upstreamText,
    recorded_at: new Date().toISOString(),
  });
  const secrets = new Set<string>();
  const exchanges: RecordExchange[] = [];
  let seq = 0;
  let writing: Promise<void> = Promise.resolve();
  // Own connection pools, closed on stop: no upstream socket outlives the recorder.
  const agent =
    upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const serialize = () => redact(serializeRecording(builder.rec), secrets);
  const save = () => {
    const out = options.out;
    if (!out) return;
    const text = serialize();
    writing = writing.then(() =>
      writeAtomic(out, text).catch((err: unknown) =>
        options.onWarning?.(`cannot write ${out}: ${(err as Error).message}`),
      ),
    );
  };
  if (options.out) {
    try {
      await writeAtomic(options.out, serialize());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new AxisError(`cannot write tape ${options.out}: ${code}`);
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const time = new Date().toISOString();
    const mySeq = ++seq;
    const rawPath = req.url ?? '/';
    const target = targetUrl(upstream, rawPath);
    for (const s of secretsOf(req.headers, target)) secrets.add(s);
    const route: Route | null = req.method === 'POST' ? matchRoute(target.pathname) : null;
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => forward(Buffer.concat(parts)));
    req.on('error', () => undefined); // the agent went away before sending its body: nothing to forward

    const log = (status: number, recorded: RecordedAs, summary: string, neutral?: NeutralRequest) => {
      const entry: RecordExchange = {
        seq: mySeq,
        time,
        method: req.method ?? '',
        path: redact(logPath(rawPath), secrets),
        provider: route?.provider ?? null,
        ...(neutral ? { model: neutral.model, stream: neutral.stream } : {}),
        tools: neutral?.tools.map((t) => t.name) ?? [],
        status,
        recorded,
        summary: redact(summary, secrets),
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      };
      exchanges.push(entry);
      options.onExchange?.(entry);
    };

    function forward(body: Buffer): void {
      const headers = passHeaders(req.headers, ['host', 'content-length', 'accept-encoding', 'expect']);
      // Identity encoding keeps the stream readable for the tape; the bytes still pass through unchanged.
      headers['accept-encoding'] = 'identity';
      if (body.length || req.method === 'POST') headers['content-length'] = String(body.length);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const up = send(target, { method: req.method, headers, agent });
      let settled = false;
      res.on('close', () => {
        if (res.writableFinished || settled) return;
        settled = true;
        up.destroy();
        log(
          res.statusCode,
          { kind: 'none', reason: 'agent disconnected' },
          'the agent closed the connection',
        );
      });
      up.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) return;
        settled = true;
        const message = `[axis sim record] upstream ${upstreamText} unreachable: ${err.code ?? err.message}`;
        if (!res.headersSent) {
          const text = JSON.stringify(
            route ? CODECS[route.provider].error(502, message) : { error: { type: 'bad_gateway', message } },
          );
          res.writeHead(502, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(text),
          });
          res.end(text);
        } else res.destroy();
        log(502, { kind: 'none', reason: 'upstream unreachable' }, message);
      });
      up.on('response', (upRes) => {
        const status = upRes.statusCode ?? 502;
        const headers = passHeaders(upRes.headers);
        if (upRes.statusMessage) res.writeHead(status, upRes.statusMessage, headers);
        else res.writeHead(status, headers);
        res.flushHeaders();
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => {
          chunks.push(c);
          if (!res.write(c)) {
            upRes.pause();
            res.once('drain', () => upRes.resume());
          }
        });
        upRes.on('error', () => undefined); // reported through 'close' below
        upRes.on('end', () => {
          if (settled) return;
          settled = true;
          res.end();
          finish(body, status, Buffer.concat(chunks), upRes.headers);
        });
        upRes.on('close', () => {
          if (settled) return;
          settled = true;
          res.destroy();
          log(
            status,
            { kind: 'none', reason: 'upstream closed mid-response' },
            'upstream closed mid-response',
          );
        });
      });
      up.end(body);
    }

    function finish(reqBody: Buffer, status: number, resBody: Buffer, headers: IncomingHttpHeaders): void {
      if (!route || route.op === 'count_tokens') {
        const reason = route ? 'count_tokens' : 'not a model request';
        return log(status, { kind: 'none', reason }, reason);
      }
      let neutral: NeutralRequest;
      try {
        const text = reqBody.toString('utf8');
        neutral = CODECS[route.provider].parse(
          JSON.parse(text) as Record<string, unknown>,
          route,
          text.length,
        );
      } catch (err) {
        return log(status, { kind: 'none', reason: 'unreadable request' }, (err as Error).message);
      }
      if (status < 200 || status >= 300) {
        const detail = clip(resBody.toString('utf8'), 100);
        return log(status, { kind: 'none', reason: `HTTP ${status}` }, `HTTP ${status}: ${detail}`, neutral);
      }
      let reply: DecodedReply;
      try {
        const sse = /text\/event-stream/i.test(String(headers['content-type'] ?? ''));
        reply = decodeReply(route.provider, decodeBody(resBody, headers['content-encoding']), sse);
      } catch (err) {
        return log(status, { kind: 'none', reason: 'unreadable answer' }, (err as Error).message, neutral);
      }
      if (reply.error) {
        return log(status, { kind: 'none', reason: 'error answer' }, reply.error, neutral);
      }
      const recorded = builder.add(neutral, reply);
      save();
      log(status, recorded, replySummary(reply), neutral);
    }
  }

  const server = createServer(handle);
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let stopped: Promise<Recording> | undefined;

  return {
    url,
    port,
    upstream: upstreamText,
    exchanges,
    recording: () => builder.rec,
    clientEnv: (cli, opts) => clientSetup(cli, { baseUrl: url, ...opts }),
    stop: () =>
      (stopped ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        agent.destroy();
        await writing;
        builder.rec.complete = true;
        if (options.out) {
          try {
            await writeAtomic(options.out, serialize());
          } catch (err) {
            throw new AxisError(`cannot write tape ${options.out}: ${(err as Error).message}`);
          }
        }
        return JSON.parse(serialize()) as Recording;
      })()),
  };
}
