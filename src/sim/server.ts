/**
 * The simulator's HTTP server: 127.0.0.1 only. Routes each request to a provider codec, asks the
 * responder (the tape engine) for a decision, writes it back on the provider's wire format, applies
 * faults, and logs every request and event.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientSetup, type AgentCli, type ClientSetup } from './clients.js';
import {
  BadRequest,
  CODECS,
  encodeFrame,
  estimateTokens,
  matchRoute,
  SUPPORTED_PATHS,
  type ProviderCodec,
  type Route,
} from './codecs/index.js';
import { TapeEngine } from './engine.js';
import { mountOnGateway, type GatewayMount } from './gateway.js';
import { closeServer, listenLocal } from './listen.js';
import { loadTape, parseTape, type Tape } from './tape.js';
import type {
  AnswerSource,
  Decision,
  NeutralRequest,
  ProviderId,
  Responder,
  SimEvent,
  SimRequestLog,
} from './types.js';

export interface SimulatorOptions {
  /** A tape object, or the path of a tape file (.json, .ts, .js). */
  tape?: Tape | string;
  /** Answers requests instead of a tape engine (record/replay plugs in here). */
  responder?: Responder;
  /** Port on 127.0.0.1; default 0 (a free port). */
  port?: number;
  onRequest?: (entry: SimRequestLog) => void;
  /** Every request body as received (tests look for what an agent sent: a skill's text, an MCP tool). */
  onBody?: (seq: number, body: string) => void;
  onEvent?: (event: SimEvent) => void;
  /**
   * Keep every request and event in `requests` and `events` (default true). `axis sim serve` turns it
   * off: it prints each one as it happens, and a server left running for days must not grow with them.
   */
  keepLog?: boolean;
}

export interface SimulatorClientOptions {
  home?: string;
  apiKey?: string;
  model?: string;
  maxRetries?: number;
  isRoot?: boolean;
}

export interface Simulator {
  /** Base URL without a version segment, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Every request so far (empty with `keepLog: false`). */
  readonly requests: SimRequestLog[];
  readonly events: SimEvent[];
  /** Env vars and config files that point `cli` at this simulator. */
  clientEnv(cli: AgentCli, opts?: SimulatorClientOptions): ClientSetup;
  /**
   * This simulator's base URL for clients inside this process (AXIS's judges): the same server logic
   * through the process-wide gateway (`gateway.ts`), whose keep-alive connections outlive any one
   * simulator. Answers and request log are those of `url`.
   */
  localUrl(): Promise<string>;
  close(): Promise<void>;
}

export const SIM_API_KEY = 'axis-sim-key';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `text`, waits until it is flushed, then cuts the connection mid-response. */
function dropAfter(res: ServerResponse, text: string): void {
  res.write(text, () => {
    res.socket?.destroy();
  });
}

/** Cuts a JSON text in half: what a client sees as a malformed event. */
function breakJson(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function writeDecision(
  res: ServerResponse,
  codec: ProviderCodec,
  req: NeutralRequest,
  body: Record<string, unknown>,
  seq: number,
  d: Decision,
): number {
  if (d.kind === 'error') {
    writeJson(res, d.status, d.body ?? codec.error(d.status, d.message));
    return d.status;
  }
  const ctx = { req, seq, body };
  const fault = d.streamFault;
  if (!req.stream) {
    const text = JSON.stringify(codec.json(d.reply, ctx));
    if (!fault) {
      writeJson(res, 200, text);
    } else if ('malformed' in fault) {
      writeJson(res, 200, breakJson(text));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      dropAfter(res, breakJson(text));
    }
    return 200;
  }
  const frames = codec.frames(d.reply, ctx);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  if (fault && 'drop' in fault) {
    dropAfter(
      res,
      frames
        .slice(0, Math.max(1, Math.floor(frames.length / 2)))
        .map(encodeFrame)
        .join(''),
    );
    return 200;
  }
  if (fault) {
    const mid = Math.floor((frames.filter((f) => f.data !== '[DONE]').length - 1) / 2);
    const frame = frames[mid];
    if (frame) frames[mid] = { ...frame, data: breakJson(JSON.stringify(frame.data)) };
  }
  res.end(frames.map(encodeFrame).join(''));
  return 200;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const responder = options.responder || (await tapeEngine(options.tape));
  const sim = simulatorState(options, responder);
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    handle(sim, req, res).catch((err: unknown) => internalError(sim, res, err));
  };
  const { server, port, url } = await listenLocal(onRequest, options.port ?? 0);
  let mounted: Promise<GatewayMount> | undefined;

  return {
    url,
    port,
    requests: sim.requests,
    events: sim.events,
    clientEnv: (cli, opts = {}) => clientSetup(cli, { baseUrl: url, apiKey: SIM_API_KEY, ...opts }),
    localUrl: async () => (await (mounted ??= mountOnGateway(onRequest))).url,
    close: async () => {
      await mounted?.then((m) => m.unmount()).catch(() => {});
      await closeServer(server);
    },
  };
}

/** What the requests to one simulator share. */
interface SimulatorState {
  readonly options: SimulatorOptions;
  readonly responder: Responder;
  /** False with `keepLog: false`: requests and events are only passed on, not kept. */
  readonly keep: boolean;
  readonly requests: SimRequestLog[];
  readonly events: SimEvent[];
  readonly emit: (e: Omit<SimEvent, 'time'>) => void;
  /** Number of the latest request. */
  seq: number;
}

/** A request's log line: what was answered and how, over the defaults. */
type CallLog = Partial<SimRequestLog> & { answer: AnswerSource; status: number };

/** A request being answered: its number, its path, and its log line to write once answered. */
interface SimCall {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly seq: number;
  readonly pathname: string;
  readonly log: (entry: CallLog) => void;
}

async function tapeEngine(source: Tape | string | undefined): Promise<Responder> {
  const tape = typeof source === 'string' ? await loadTape(source) : parseTape(source ?? { turns: [] });
  return new TapeEngine(tape);
}

function simulatorState(options: SimulatorOptions, responder: Responder): SimulatorState {
  const requests: SimRequestLog[] = [];
  const events: SimEvent[] = [];
  const keep = options.keepLog !== false;
  const emit = (e: Omit<SimEvent, 'time'>) => {
    const event: SimEvent = { time: new Date().toISOString(), ...e };
    if (keep) events.push(event);
    options.onEvent?.(event);
  };
  return { options, responder, keep, requests, events, emit, seq: 0 };
}

/** One request: read whole, routed to its provider's codec, answered here or by the responder. */
async function handle(sim: SimulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const call = beginCall(sim, req, res);
  const raw = await readBody(req);
  sim.options.onBody?.(call.seq, raw);
  if (req.method === 'HEAD') {
    res.writeHead(200).end();
    return call.log({ answer: { kind: 'preflight' }, status: 200 });
  }
  const route: Route | null = req.method === 'POST' ? matchRoute(call.pathname) : null;
  if (!route) return notSimulated(sim, call);
  const parsed = parseRequest(sim, call, route, raw);
  if (parsed) await answer(sim, call, route, parsed.body, parsed.neutral);
}

function beginCall(sim: SimulatorState, req: IncomingMessage, res: ServerResponse): SimCall {
  const started = performance.now();
  const time = new Date().toISOString();
  const seq = ++sim.seq;
  const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const log = (entry: CallLog) => {
    const full: SimRequestLog = {
      seq,
      time,
      method: req.method ?? '',
      path: req.url ?? '',
      provider: null,
      tools: [],
      summary: '',
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      ...entry,
    };
    if (sim.keep) sim.requests.push(full);
    sim.options.onRequest?.(full);
  };
  return { req, res, seq, pathname, log };
}

function notSimulated(sim: SimulatorState, { req, res, seq, pathname, log }: SimCall): void {
  const message = `${req.method} ${pathname} is not simulated; supported paths are ${SUPPORTED_PATHS.join(', ')} (under any prefix)`;
  sim.emit({ type: 'not_found', message, request: seq });
  writeJson(res, 404, { error: { type: 'not_found', message } });
  log({ answer: { kind: 'not_found' }, status: 404, summary: 'not a simulated path' });
}

/**
 * The request's body and neutral form for the responder; undefined when it is answered here instead
 * (a token count, or a bad request).
 */
function parseRequest(
  sim: SimulatorState,
  { res, seq, log }: SimCall,
  route: Route,
  raw: string,
): { body: Record<string, unknown>; neutral: NeutralRequest } | undefined {
  const codec = CODECS[route.provider];
  const provider: ProviderId = route.provider;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new BadRequest('expected a JSON object body');
    const body = parsed as Record<string, unknown>;
    if (route.op === 'count_tokens') {
      const tokens = estimateTokens(raw.length);
      writeJson(res, 200, provider === 'gemini' ? { totalTokens: tokens } : { input_tokens: tokens });
      log({ provider, answer: { kind: 'count_tokens' }, status: 200 });
      return undefined;
    }
    return { body, neutral: codec.parse(body, route, raw.length) };
  } catch (err) {
    const message = `[axis sim] bad request: ${(err as Error).message}`;
    sim.emit({ type: 'bad_request', message, request: seq });
    writeJson(res, 400, codec.error(400, message));
    log({ provider, answer: { kind: 'error' }, status: 400, summary: message });
    return undefined;
  }
}

/** The responder's decision, after its delay, written on the provider's wire format. */
async function answer(
  sim: SimulatorState,
  { res, seq, log }: SimCall,
  route: Route,
  body: Record<string, unknown>,
  neutral: NeutralRequest,
): Promise<void> {
  const codec = CODECS[route.provider];
  const provider: ProviderId = route.provider;
  const decision = sim.responder.decide(neutral, { seq, emit: sim.emit });
  if (decision.delayMs) await sleep(decision.delayMs);
  const status = writeDecision(res, codec, neutral, body, seq, decision);
  log({
    provider,
    model: neutral.model,
    stream: neutral.stream,
    tools: neutral.tools.map((t) => t.name),
    summary: decision.kind === 'error' ? decision.message : neutral.summary,
    answer: decision.source,
    status,
  });
}

/** A request whose handling threw: a 500 when nothing was sent yet, else a cut connection. */
function internalError(sim: SimulatorState, res: ServerResponse, err: unknown): void {
  const message = `[axis sim] internal error: ${(err as Error).message}`;
  sim.emit({ type: 'bad_request', message });
  if (!res.headersSent) writeJson(res, 500, { error: { type: 'simulator_error', message } });
  else res.destroy();
}
