/**
 * `axis sim serve`: serves a tape on 127.0.0.1, prints how to point each agent CLI at it, logs every
 * request to stderr, and stops cleanly on Ctrl-C / SIGTERM.
 */
import { AGENT_CLIS, type AgentCli, type ClientSetup } from '../../sim/clients.js';
import { startRecorder } from '../../sim/record.js';
import type { RecordExchange } from '../../sim/record-exchange.js';
import { maskedUrlText, parseUpstream } from '../../sim/record-http.js';
import { loadRecording } from '../../sim/recording.js';
import { Replayer } from '../../sim/replay.js';
import { startSimulator } from '../../sim/server.js';
import { loadTape } from '../../sim/tape.js';
import type { AnswerSource, SimEvent, SimRequestLog } from '../../sim/types.js';
import { AxisError } from '../../util/errors.js';

export interface SimServeOptions {
  tape: string;
  port?: string;
  json?: boolean;
}

/** Example invocations; the env and files above each one do the pointing. */
export const CLI_EXAMPLES: Record<AgentCli, string> = {
  claude: 'claude -p "<prompt>" --output-format stream-json --verbose --dangerously-skip-permissions',
  codex:
    'codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "<prompt>" </dev/null',
  gemini: 'gemini -p "<prompt>" --output-format stream-json --yolo -m gemini-2.5-flash </dev/null',
  qwen: 'qwen -p "<prompt>" --output-format stream-json --yolo --auth-type openai </dev/null',
  opencode: 'opencode run --format json "<prompt>" </dev/null',
};

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) {
    throw new AxisError(`--port: expected an integer from 0 to 65535, found "${value}"`, { exitCode: 2 });
  }
  return n;
}

/** Terminal-safe one line: control characters (including ANSI escapes) become spaces. */
function safe(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

export function describeAnswer(a: AnswerSource): string {
  const parts: string[] = [];
  if (a.kind === 'turn') parts.push(`turn ${a.turn}${a.turnId ? ` (${a.turnId})` : ''}`);
  else if (a.kind === 'judge') parts.push(`judge[${a.judge}]`);
  else if (a.kind === 'side') parts.push(`side call (${a.side})`);
  else if (a.kind === 'error' && a.turn !== undefined) parts.push(`error at turn ${a.turn}`);
  else parts.push(a.kind.replace('_', ' '));
  if (a.fault) parts.push(`fault: ${a.fault}`);
  return parts.join(', ');
}

export function formatRequest(r: SimRequestLog): string {
  const clock = r.time.slice(11, 23);
  const tools = r.tools.length ? ` [${r.tools.length} tools]` : '';
  const summary = r.summary ? ` ${safe(r.summary)}` : '';
  return `${clock} #${r.seq} ${r.method} ${safe(r.path)} → ${r.status} ${describeAnswer(r.answer)}${tools}${summary} (${r.durationMs} ms)\n`;
}

export function formatEvent(e: SimEvent): string {
  return `${e.time.slice(11, 23)} ! ${e.type}: ${safe(e.message)}\n`;
}

function describeSetup(cli: AgentCli, setup: ClientSetup): string {
  const lines = [`${cli}:`];
  for (const [k, v] of Object.entries(setup.env)) lines.push(`  export ${k}=${JSON.stringify(v)}`);
  for (const f of setup.files) {
    lines.push(`  ${f.path}:`);
    for (const l of f.content.trimEnd().split('\n')) lines.push(l ? `    ${l}` : '');
  }
  lines.push(`  run: ${CLI_EXAMPLES[cli]}`);
  return lines.join('\n');
}

export default async function serve(opts: SimServeOptions): Promise<number> {
  const port = parsePort(opts.port);
  const tape = await loadTape(opts.tape);
  const json = opts.json === true;
  let sim;
  try {
    sim = await startSimulator({
      tape,
      port,
      keepLog: false, // each request is printed; a server left running must not grow
      onRequest: (r) =>
        process.stderr.write(json ? `${JSON.stringify({ log: 'request', ...r })}\n` : formatRequest(r)),
      onEvent: (e) =>
        process.stderr.write(json ? `${JSON.stringify({ log: 'event', ...e })}\n` : formatEvent(e)),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES')
      throw new AxisError(`cannot listen on 127.0.0.1:${port}: ${code}`);
    throw err;
  }
  const clients = Object.fromEntries(AGENT_CLIS.map((cli) => [cli, sim.clientEnv(cli)])) as Record<
    AgentCli,
    ClientSetup
  >;
  // Listening for Ctrl-C / SIGTERM before the URL is printed: a supervisor that stops the simulator as
  // soon as it reads the URL must get a clean stop, not a kill.
  const stopped = untilSignal();
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ url: sim.url, tape: { name: tape.name ?? null, turns: tape.turns.length, judge: tape.judge?.length ?? 0 }, clients })}\n`,
    );
  } else {
    const name = tape.name ? ` "${tape.name}"` : '';
    const judge = tape.judge?.length ? `, ${tape.judge.length} judge entries` : '';
    process.stdout.write(
      [
        `axis sim: serving tape${name} (${tape.turns.length} turns${judge}) at ${sim.url}`,
        'Point an agent CLI at it with the settings below (files go in its HOME). Ctrl-C stops.',
        '',
        ...AGENT_CLIS.map((cli) => `${describeSetup(cli, clients[cli])}\n`),
      ].join('\n'),
    );
  }
  await stopped;
  await sim.close();
  if (!json) process.stderr.write('axis sim: stopped\n');
  return 0;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Resolves on the first SIGINT or SIGTERM; the handlers are on from the call. */
async function untilSignal(): Promise<void> {
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function listenError(err: unknown, port: number): never {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES')
    throw new AxisError(`cannot listen on 127.0.0.1:${port}: ${code}`);
  throw err;
}

export interface SimRecordOptions {
  upstream: string;
  out: string;
  port?: string;
  json?: boolean;
}

function describeRecorded(r: RecordExchange['recorded']): string {
  if (r.kind === 'turn') return `recorded turn ${r.turn}${r.retry ? ' (retry, replaces it)' : ''}`;
  if (r.kind === 'side') return `recorded side call ${r.side}`;
  return `not recorded (${r.reason})`;
}

export function formatExchange(x: RecordExchange): string {
  const tools = x.tools.length ? ` [${x.tools.length} tools]` : '';
  const summary = x.summary ? ` ${safe(x.summary)}` : '';
  return `${x.time.slice(11, 23)} #${x.seq} ${x.method} ${safe(x.path)} → ${x.status} ${describeRecorded(x.recorded)}${tools}${summary} (${x.durationMs} ms)\n`;
}

/** `axis sim record`: a recording proxy in front of a real provider. */
export async function record(opts: SimRecordOptions): Promise<number> {
  const port = parsePort(opts.port);
  try {
    parseUpstream(opts.upstream);
  } catch {
    throw new AxisError(
      `--upstream: expected an http:// or https:// URL, found "${maskedUrlText(opts.upstream)}"`,
      {
        exitCode: 2,
      },
    );
  }
  const json = opts.json === true;
  const log = (line: string) => process.stderr.write(line);
  let recorder;
  try {
    recorder = await startRecorder({
      upstream: opts.upstream,
      out: opts.out,
      port,
      onExchange: (x) => log(json ? `${JSON.stringify({ log: 'exchange', ...x })}\n` : formatExchange(x)),
      onWarning: (message) =>
        log(json ? `${JSON.stringify({ log: 'warning', message })}\n` : `! ${message}\n`),
    });
  } catch (err) {
    listenError(err, port);
  }
  const apiKey = '<your API key>';
  const clients = Object.fromEntries(
    AGENT_CLIS.map((cli) => [cli, recorder.clientEnv(cli, { apiKey })]),
  ) as Record<AgentCli, ClientSetup>;
  // Before the URL is printed (see serve): a SIGTERM right after it still writes the tape.
  const stopped = untilSignal();
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ url: recorder.url, upstream: recorder.upstream, out: opts.out, clients })}\n`,
    );
  } else {
    process.stdout.write(
      [
        `axis sim: recording ${recorder.upstream} into ${opts.out}, listening at ${recorder.url}`,
        'Point an agent CLI at it with the settings below (files go in its HOME), using your real API key:',
        'it is forwarded upstream and never written to the tape or the log. Ctrl-C stops and writes the tape.',
        '',
        ...AGENT_CLIS.map((cli) => `${describeSetup(cli, clients[cli])}\n`),
      ].join('\n'),
    );
  }
  await stopped;
  const rec = await recorder.stop();
  const summary = { turns: rec.turns.length, side: rec.side.length, out: opts.out };
  log(
    json
      ? `${JSON.stringify({ log: 'stopped', ...summary })}\n`
      : `axis sim: wrote ${opts.out} (${plural(summary.turns, 'turn')}, ${plural(summary.side, 'side call')})\n`,
  );
  return 0;
}

export interface SimReplayOptions {
  tape: string;
  port?: string;
  strict?: boolean;
  json?: boolean;
}

/** `axis sim replay`: serves a recorded tape and reports divergences as they happen. */
export async function replay(opts: SimReplayOptions): Promise<number> {
  const port = parsePort(opts.port);
  const recording = await loadRecording(opts.tape);
  const json = opts.json === true;
  const strict = opts.strict === true;
  let sim;
  try {
    sim = await startSimulator({
      responder: new Replayer(recording, { strict }),
      port,
      onRequest: (r) =>
        process.stderr.write(json ? `${JSON.stringify({ log: 'request', ...r })}\n` : formatRequest(r)),
      onEvent: (e) =>
        process.stderr.write(json ? `${JSON.stringify({ log: 'event', ...e })}\n` : formatEvent(e)),
    });
  } catch (err) {
    listenError(err, port);
  }
  const clients = Object.fromEntries(AGENT_CLIS.map((cli) => [cli, sim.clientEnv(cli)])) as Record<
    AgentCli,
    ClientSetup
  >;
  const info = {
    name: recording.name ?? null,
    turns: recording.turns.length,
    side: recording.side.length,
    complete: recording.complete,
  };
  const stopped = untilSignal(); // before the URL is printed (see serve)
  if (json) {
    process.stdout.write(`${JSON.stringify({ url: sim.url, tape: info, strict, clients })}\n`);
  } else {
    const name = recording.name ? ` "${safe(recording.name)}"` : '';
    const notes = [
      plural(info.turns, 'turn'),
      ...(info.side ? [plural(info.side, 'side call')] : []),
      ...(info.complete ? [] : ['incomplete recording']),
      ...(strict ? ['strict'] : []),
    ];
    process.stdout.write(
      [
        `axis sim: replaying${name} (${notes.join(', ')}) at ${sim.url}`,
        'Point an agent CLI at it with the settings below (files go in its HOME). Divergences are logged as',
        `they happen${strict ? ' and fail the request' : '; the recorded turn is served anyway'}. Ctrl-C stops.`,
        '',
        ...AGENT_CLIS.map((cli) => `${describeSetup(cli, clients[cli])}\n`),
      ].join('\n'),
    );
  }
  await stopped;
  await sim.close();
  const count = sim.events.filter((e) => e.type === 'divergence').length;
  process.stderr.write(
    json
      ? `${JSON.stringify({ log: 'stopped', divergences: count })}\n`
      : `axis sim: stopped (${plural(count, 'divergence')})\n`,
  );
  return 0;
}
