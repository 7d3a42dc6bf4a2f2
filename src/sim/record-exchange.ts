/**
 * One exchange through the recorder: the agent's request forwarded upstream, the answer streamed back as
 * it arrives, then written into the recording when it is a readable model exchange, and logged either way.
 */
import {
  request as httpRequest,
  type Agent as HttpAgent,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import { clip, CODECS, matchRoute, type Route } from './codecs/index.js';
import type { RecordedAs, RecordingBuilder } from './record-builder.js';
import { decodeReply, type DecodedReply } from './record-decode.js';
import { decodeBody, logPath, passHeaders, secretsOf, targetUrl } from './record-http.js';
import { redact } from './recording.js';
import type { NeutralRequest, ProviderId } from './types.js';

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

/** What the exchanges of one recorder share. */
export interface RecorderContext {
  readonly upstream: URL;
  /** The upstream as named in messages: its URL without a trailing slash. */
  readonly upstreamText: string;
  readonly agent: HttpAgent | HttpsAgent;
  readonly builder: RecordingBuilder;
  /** Every secret seen so far: scrubbed from the log (and the tape). */
  readonly secrets: Set<string>;
  /** Queues a tape write after an exchange was recorded. */
  readonly save: () => void;
  readonly exchanges: RecordExchange[];
  readonly options: { onExchange?: (entry: RecordExchange) => void };
  /** Number of the latest exchange. */
  seq: number;
}

/** A request in flight and what its log line needs. */
interface Exchange {
  readonly recorder: RecorderContext;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly seq: number;
  readonly time: string;
  readonly started: number;
  readonly rawPath: string;
  readonly target: URL;
  readonly route: Route | null;
  /** Set by whichever ending comes first (done, agent gone, upstream error or cut); the rest do nothing. */
  settled: boolean;
}

/** The recorder's request handler: takes the agent's whole body, then forwards it. */
export function handleExchange(recorder: RecorderContext, req: IncomingMessage, res: ServerResponse): void {
  const ex = beginExchange(recorder, req, res);
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => forward(ex, Buffer.concat(parts)));
  req.on('error', () => undefined); // the agent went away before sending its body: nothing to forward
}

function beginExchange(recorder: RecorderContext, req: IncomingMessage, res: ServerResponse): Exchange {
  const started = performance.now();
  const time = new Date().toISOString();
  const seq = ++recorder.seq;
  const rawPath = req.url ?? '/';
  const target = targetUrl(recorder.upstream, rawPath);
  for (const s of secretsOf(req.headers, target)) recorder.secrets.add(s);
  const route: Route | null = req.method === 'POST' ? matchRoute(target.pathname) : null;
  return { recorder, req, res, seq, time, started, rawPath, target, route, settled: false };
}

/** The exchange's one log line, kept and passed on. */
function logExchange(
  ex: Exchange,
  status: number,
  recorded: RecordedAs,
  summary: string,
  neutral?: NeutralRequest,
): void {
  const entry: RecordExchange = {
    seq: ex.seq,
    time: ex.time,
    method: ex.req.method ?? '',
    path: redact(logPath(ex.rawPath), ex.recorder.secrets),
    provider: ex.route?.provider ?? null,
    ...(neutral ? { model: neutral.model, stream: neutral.stream } : {}),
    tools: neutral?.tools.map((t) => t.name) ?? [],
    status,
    recorded,
    summary: redact(summary, ex.recorder.secrets),
    durationMs: Math.round((performance.now() - ex.started) * 100) / 100,
  };
  ex.recorder.exchanges.push(entry);
  ex.recorder.options.onExchange?.(entry);
}

/** The log line of an exchange that went into no recording, and why. */
function logNotRecorded(
  ex: Exchange,
  status: number,
  reason: string,
  summary: string,
  neutral?: NeutralRequest,
): void {
  logExchange(ex, status, { kind: 'none', reason }, summary, neutral);
}

/** Sends the body upstream; whichever way the exchange ends first settles it. */
function forward(ex: Exchange, body: Buffer): void {
  const up = openUpstream(ex, body);
  ex.res.on('close', () => agentClosed(ex, up));
  up.on('error', (err: NodeJS.ErrnoException) => upstreamFailed(ex, err));
  up.on('response', (upRes) => relayAnswer(ex, body, upRes));
  up.end(body);
}

/** The upstream request, its body not sent yet. */
function openUpstream(ex: Exchange, body: Buffer): ClientRequest {
  const headers = passHeaders(ex.req.headers, ['host', 'content-length', 'accept-encoding', 'expect']);
  // Identity encoding keeps the stream readable for the tape; the bytes still pass through unchanged.
  headers['accept-encoding'] = 'identity';
  if (body.length || ex.req.method === 'POST') headers['content-length'] = String(body.length);
  const send = ex.target.protocol === 'https:' ? httpsRequest : httpRequest;
  return send(ex.target, { method: ex.req.method, headers, agent: ex.recorder.agent });
}

function agentClosed(ex: Exchange, up: ClientRequest): void {
  if (ex.res.writableFinished || ex.settled) return;
  ex.settled = true;
  up.destroy();
  logNotRecorded(ex, ex.res.statusCode, 'agent disconnected', 'the agent closed the connection');
}

/** A 502 in the provider's error format, or a cut connection once headers went out. */
function upstreamFailed(ex: Exchange, err: NodeJS.ErrnoException): void {
  if (ex.settled) return;
  ex.settled = true;
  const { res, route } = ex;
  const message = `[axis sim record] upstream ${ex.recorder.upstreamText} unreachable: ${err.code ?? err.message}`;
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
  logNotRecorded(ex, 502, 'upstream unreachable', message);
}

/** Upstream's status, headers and bytes to the agent as they arrive; the whole answer to the tape. */
function relayAnswer(ex: Exchange, reqBody: Buffer, upRes: IncomingMessage): void {
  const { res } = ex;
  const status = upRes.statusCode ?? 502;
  const headers = passHeaders(upRes.headers);
  if (upRes.statusMessage) res.writeHead(status, upRes.statusMessage, headers);
  else res.writeHead(status, headers);
  res.flushHeaders();
  const chunks = relayBody(upRes, res);
  upRes.on('error', () => undefined); // reported through 'close' below
  upRes.on('end', () => answerEnded(ex, reqBody, status, chunks, upRes.headers));
  upRes.on('close', () => answerCut(ex, status));
}

function answerEnded(
  ex: Exchange,
  reqBody: Buffer,
  status: number,
  chunks: Buffer[],
  headers: IncomingHttpHeaders,
): void {
  if (ex.settled) return;
  ex.settled = true;
  ex.res.end();
  finish(ex, reqBody, status, Buffer.concat(chunks), headers);
}

function answerCut(ex: Exchange, status: number): void {
  if (ex.settled) return;
  ex.settled = true;
  ex.res.destroy();
  logNotRecorded(ex, status, 'upstream closed mid-response', 'upstream closed mid-response');
}

/** Writes each chunk on as it comes (pausing upstream while the agent's side is full); returns them all. */
function relayBody(upRes: IncomingMessage, res: ServerResponse): Buffer[] {
  const chunks: Buffer[] = [];
  upRes.on('data', (c: Buffer) => {
    chunks.push(c);
    if (!res.write(c)) {
      upRes.pause();
      res.once('drain', () => upRes.resume());
    }
  });
  return chunks;
}

/** A complete answer: only a model request that can be read goes on to be recorded. */
function finish(
  ex: Exchange,
  reqBody: Buffer,
  status: number,
  resBody: Buffer,
  headers: IncomingHttpHeaders,
): void {
  const route = ex.route;
  if (!route || route.op === 'count_tokens') {
    const reason = route ? 'count_tokens' : 'not a model request';
    return logNotRecorded(ex, status, reason, reason);
  }
  let neutral: NeutralRequest;
  try {
    const text = reqBody.toString('utf8');
    neutral = CODECS[route.provider].parse(JSON.parse(text) as Record<string, unknown>, route, text.length);
  } catch (err) {
    return logNotRecorded(ex, status, 'unreadable request', (err as Error).message);
  }
  recordAnswer(ex, route, neutral, status, resBody, headers);
}

/** A successful answer that can be read goes into the recording, which is then saved. */
function recordAnswer(
  ex: Exchange,
  route: Route,
  neutral: NeutralRequest,
  status: number,
  resBody: Buffer,
  headers: IncomingHttpHeaders,
): void {
  if (status < 200 || status >= 300) {
    const detail = clip(resBody.toString('utf8'), 100);
    return logNotRecorded(ex, status, `HTTP ${status}`, `HTTP ${status}: ${detail}`, neutral);
  }
  let reply: DecodedReply;
  try {
    const sse = /text\/event-stream/i.test(String(headers['content-type'] ?? ''));
    reply = decodeReply(route.provider, decodeBody(resBody, headers['content-encoding']), sse);
  } catch (err) {
    return logNotRecorded(ex, status, 'unreadable answer', (err as Error).message, neutral);
  }
  if (reply.error) {
    return logNotRecorded(ex, status, 'error answer', reply.error, neutral);
  }
  const recorded = ex.recorder.builder.add(neutral, reply);
  ex.recorder.save();
  logExchange(ex, status, recorded, replySummary(reply), neutral);
}

function replySummary(r: DecodedReply): string {
  const parts: string[] = [];
  if (r.thinking) parts.push('(thinking)');
  if (r.text) parts.push(JSON.stringify(clip(r.text, 60)));
  if (r.toolCalls.length) parts.push(r.toolCalls.map((c) => c.name).join(', '));
  return parts.join(' + ') || '(empty answer)';
}
