/**
 * The recorder: a proxy on 127.0.0.1 that forwards every request to a real provider, streams the answer
 * back unchanged (status, headers, bytes, as they arrive), and writes each model exchange into a
 * recording in neutral terms. API keys are forwarded upstream but never written anywhere.
 */
import { Agent as HttpAgent, type Server } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { clientSetup, type AgentCli, type ClientSetup } from './clients.js';
import { closeServer, listenLocal } from './listen.js';
import { RecordingBuilder } from './record-builder.js';
import { handleExchange, type RecorderContext, type RecordExchange } from './record-exchange.js';
import { parseUpstream, shownUpstream, upstreamSecrets } from './record-http.js';
import { redact, serializeRecording, writeAtomic, type Recording } from './recording.js';
import type { SimulatorClientOptions } from './server.js';
import { AxisError } from '../util/errors.js';

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

export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const upstream = parseUpstream(options.upstream);
  // Never the URL as given: a gateway's password or key in it would reach the tape and the terminal.
  const upstreamText = shownUpstream(upstream);
  const tape = new TapeFile(options, upstreamText);
  for (const s of upstreamSecrets(upstream)) tape.secrets.add(s);
  const exchanges: RecordExchange[] = [];
  // Own connection pools, closed on stop: no upstream socket outlives the recorder.
  const agent =
    upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  if (options.out) await tape.create(options.out);
  const recorder: RecorderContext = {
    upstream,
    upstreamText,
    agent,
    builder: tape.builder,
    secrets: tape.secrets,
    save: () => tape.save(),
    exchanges,
    options,
    seq: 0,
  };
  const { server, port, url } = await listenLocal(
    (req, res) => handleExchange(recorder, req, res),
    options.port ?? 0,
  );
  let stopped: Promise<Recording> | undefined;

  return {
    url,
    port,
    upstream: upstreamText,
    exchanges,
    recording: () => tape.builder.rec,
    clientEnv: (cli, opts) => clientSetup(cli, { baseUrl: url, ...opts }),
    stop: () => (stopped ??= stopRecorder(server, agent, tape)),
  };
}

async function stopRecorder(
  server: Server,
  agent: HttpAgent | HttpsAgent,
  tape: TapeFile,
): Promise<Recording> {
  await closeServer(server);
  agent.destroy();
  return tape.complete();
}

/** The recording and its tape file: each write is the whole tape, secrets scrubbed, in order. */
class TapeFile {
  readonly builder: RecordingBuilder;
  /** Every secret seen so far: forwarded upstream, never written. */
  readonly secrets = new Set<string>();
  private readonly options: RecorderOptions;
  private writing: Promise<void> = Promise.resolve();

  constructor(options: RecorderOptions, upstreamText: string) {
    this.options = options;
    this.builder = new RecordingBuilder({
      name: options.name ?? `recorded from ${upstreamText}`,
      upstream: upstreamText,
      recorded_at: new Date().toISOString(),
    });
  }

  /** Writes the tape before the first exchange; failing stops the recorder from starting. */
  async create(out: string): Promise<void> {
    try {
      await writeAtomic(out, this.serialize());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      // Before the recorder starts: a bad --out path is bad input (exit 2), nothing recorded is lost.
      throw new AxisError(`cannot write tape ${out}: ${code}`, { exitCode: 2 });
    }
  }

  /** Queues a write after the ones before it; failing only warns. */
  save(): void {
    const out = this.options.out;
    if (!out) return;
    const text = this.serialize();
    this.writing = this.writing.then(() =>
      writeAtomic(out, text).catch((err: unknown) =>
        this.options.onWarning?.(`cannot write ${out}: ${(err as Error).message}`),
      ),
    );
  }

  /** Waits for the queued writes, writes the tape as complete, and returns it as written. */
  async complete(): Promise<Recording> {
    await this.writing;
    this.builder.rec.complete = true;
    if (this.options.out) {
      try {
        await writeAtomic(this.options.out, this.serialize());
      } catch (err) {
        throw new AxisError(`cannot write tape ${this.options.out}: ${(err as Error).message}`);
      }
    }
    return JSON.parse(this.serialize()) as Recording;
  }

  private serialize(): string {
    return redact(serializeRecording(this.builder.rec), this.secrets);
  }
}
