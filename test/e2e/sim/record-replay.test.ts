/**
 * Record and replay with real agent CLIs, offline: a simulator on a scripted tape stands in for the
 * real provider, the recorder sits in front of it, the CLI runs through the recorder; then the recorded
 * tape is replayed (no upstream at all) to the same CLI in a fresh workspace elsewhere.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentCli,
  RecordExchange,
  Recording,
  SimEvent,
  SimRequestLog,
  Tape,
} from '../../../src/sim/index.js';
import { defaultArgs, distBuilt, MODE, netnsAvailable } from './harness.js';
import { resultLine, streamJsonBlocks, type Line } from './tapes.js';
import { NO_RELAUNCH_ENV } from '../../helpers/fast-start.js';

const here = dirname(fileURLToPath(import.meta.url));
const RUNNER = join(here, 'record-replay-runner.mjs');
const T = 120_000;
const API_KEY = 'sk-axis-e2e-secret-key-0123456789';
const PROMPT = 'Write notes/todo.txt containing alpha, then list the workspace.';
const FINAL = 'Done: the note says alpha.';

/** Upstream script: a file write (absolute path for most CLIs), a shell command, final text. */
const TAPE: Tape = {
  name: 'record-replay e2e',
  turns: [
    {
      text: 'I will write the note.',
      tools: [{ write_file: { path: 'notes/todo.txt', content: 'alpha\n' } }],
    },
    { tools: [{ shell: 'ls && cat notes/todo.txt' }] },
    { text: FINAL },
  ],
};

interface Phase {
  mode: 'netns' | 'host';
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  lines: Line[];
  requests: SimRequestLog[];
  events: SimEvent[];
  exchanges?: RecordExchange[];
  recording?: Recording;
  workspace: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function runPhase(opts: {
  phase: 'record' | 'replay';
  cli: AgentCli;
  out: string;
  strict?: boolean;
  files?: Record<string, string>;
}): Promise<Phase> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `axis-rr-${opts.cli}-${opts.phase}-`)));
  dirs.push(dir);
  const workspace = join(dir, 'ws');
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  for (const d of [workspace, home, tmp]) mkdirSync(d);
  const timeoutMs = 60_000;
  const cfg = {
    ...opts,
    tape: TAPE,
    apiKey: API_KEY,
    args: defaultArgs(opts.cli, PROMPT),
    workspace,
    home,
    timeoutMs,
    maxRetries: opts.cli === 'claude' || opts.cli === 'codex' ? 1 : 0,
    env: { TMPDIR: tmp, ...NO_RELAUNCH_ENV },
    netns: netnsAvailable(),
  };
  const cfgPath = join(dir, 'run.json');
  writeFileSync(cfgPath, JSON.stringify(cfg));
  const [cmd, args] = cfg.netns
    ? ['unshare', ['-n', process.execPath, RUNNER, cfgPath]]
    : [process.execPath, [RUNNER, cfgPath]];
  const child = spawn(cmd, args as string[], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const guard = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }, timeoutMs + 20_000);
  await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(guard);
  let parsed: Omit<Phase, 'mode' | 'lines' | 'workspace'> & { setupError?: string };
  try {
    parsed = JSON.parse(out);
  } catch {
    throw new Error(`runner failed: ${err.slice(-2000) || out.slice(-2000)}`);
  }
  if (parsed.setupError) throw new Error(parsed.setupError);
  const lines = parsed.stdout
    .split('\n')
    .map((l) => {
      try {
        const v: unknown = JSON.parse(l);
        return v && typeof v === 'object' && !Array.isArray(v) ? (v as Line) : null;
      } catch {
        return null;
      }
    })
    .filter((v): v is Line => v !== null);
  return { ...parsed, mode: cfg.netns ? 'netns' : 'host', lines, workspace };
}

function explain(r: Phase): string {
  return [
    `mode=${r.mode} exit=${r.exitCode} signal=${r.signal} timedOut=${r.timedOut}`,
    'requests:',
    ...r.requests.map(
      (q) => `${q.seq} ${q.path} → ${q.status} ${JSON.stringify(q.answer)} ${q.summary.slice(0, 80)}`,
    ),
    ...(r.exchanges ?? []).map(
      (x) => `exchange ${x.seq} ${x.path} → ${x.status} ${JSON.stringify(x.recorded)}`,
    ),
    'events:',
    ...r.events.map((e) => `${e.type}: ${e.message}`),
    'stdout (tail):',
    r.stdout.slice(-3000),
    'stderr (tail):',
    r.stderr.slice(-1500),
  ].join('\n');
}

const text = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : Array.isArray(v)
      ? v.map((p) => (typeof p === 'string' ? p : String((p as { text?: unknown }).text ?? ''))).join('\n')
      : '';

/** What the CLI did, as it printed it: tool calls, tool results, final text (workspace path as <ws>). */
function transcript(cli: AgentCli, r: Phase): { calls: unknown[]; results: string[]; final: string } {
  let t: { calls: unknown[]; results: string[]; final: string };
  if (cli === 'claude' || cli === 'qwen') {
    t = {
      calls: streamJsonBlocks(r.lines, 'assistant', 'tool_use').map((b) => ({
        name: b.name,
        input: b.input,
      })),
      results: streamJsonBlocks(r.lines, 'user', 'tool_result').map((b) => text(b.content)),
      final: String(resultLine(r.lines)?.result ?? ''),
    };
  } else if (cli === 'codex') {
    const items = r.lines
      .filter((l) => l.type === 'item.completed')
      .map((l) => l.item as Record<string, unknown>);
    const cmds = items.filter((i) => i.type === 'command_execution');
    t = {
      calls: cmds.map((i) => i.command),
      results: cmds.map((i) => `${String(i.aggregated_output)} (exit ${String(i.exit_code)})`),
      final: String(items.filter((i) => i.type === 'agent_message').at(-1)?.text ?? ''),
    };
  } else {
    t = {
      calls: r.lines
        .filter((l) => l.type === 'tool_use')
        .map((l) => ({ name: l.tool_name, input: l.parameters })),
      results: r.lines
        .filter((l) => l.type === 'tool_result')
        .map((l) => `${String(l.status)}: ${text(l.output)}`),
      final: r.lines
        .filter((l) => l.type === 'message' && l.role === 'assistant')
        .map((l) => String(l.content))
        .join(''),
    };
  }
  return JSON.parse(JSON.stringify(t).split(r.workspace).join('<ws>'));
}

const CLIS: AgentCli[] = ['claude', 'codex', 'qwen', 'gemini'];

for (const cli of CLIS) {
  describe(`record and replay: ${cli} (${MODE()})`, () => {
    const out = join(realpathSync(tmpdir()), `axis-rr-tape-${cli}-${process.pid}.json`);
    let recorded: Phase | undefined;
    beforeAll(() => {
      if (!distBuilt()) throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` first');
      console.info(`[sim e2e] record/replay ${cli} runs in mode: ${MODE()}`);
    });
    afterAll(() => rmSync(out, { force: true }));

    it(
      'records a real run through the proxy: the CLI works as usual, the tape holds neutral turns and no key',
      async () => {
        const r = await runPhase({ phase: 'record', cli, out });
        const why = explain(r);
        expect(r.exitCode, why).toBe(0);
        expect(readFileSync(join(r.workspace, 'notes/todo.txt'), 'utf8'), why).toBe('alpha\n');
        expect(transcript(cli, r).final.endsWith(FINAL), why).toBe(true);
        expect(transcript(cli, r).calls, why).toHaveLength(2);
        expect(transcript(cli, r).results, why).toHaveLength(2);
        const tape = readFileSync(out, 'utf8');
        expect(tape, why).not.toContain(API_KEY);
        const rec = JSON.parse(tape) as Recording;
        expect(rec, why).toMatchObject({ format: 'axis-sim-recording', complete: true, cwd: r.workspace });
        expect(rec.turns, why).toHaveLength(3);
        // Calls the simulator made come back as the neutral tools of the script (Codex: as shell commands).
        const shellOnly = cli === 'codex';
        expect(rec.turns[0]?.tools?.[0], why).toEqual(
          shellOnly ? { shell: expect.stringContaining("> 'notes/todo.txt'") } : TAPE.turns[0]?.tools?.[0],
        );
        expect(rec.turns[1]?.tools, why).toEqual(TAPE.turns[1]?.tools);
        expect(rec.turns[1]?.results?.[0]?.output, why).toMatch(/notes[\s\S]*alpha/);
        // Qwen runs the command through pipes (no process group), not a pseudo-terminal that can drop
        // the last output under load.
        if (cli === 'qwen') {
          expect(rec.turns[1]?.results?.[0]?.output, why).toContain('Process Group PGID: (none)');
        }
        expect(rec.turns[2], why).toMatchObject({ text: FINAL });
        expect(rec.turns[2]?.results, why).toBeUndefined();
        expect(
          r.exchanges?.filter((x) => x.recorded.kind === 'turn').map((x) => x.recorded),
          why,
        ).toEqual([0, 1, 2].map((turn) => ({ kind: 'turn', turn })));
        recorded = r;
      },
      T,
    );

    it(
      'replays the tape with no upstream: same tool calls, results and final text; the file is written',
      async () => {
        expect(recorded, 'the recording step failed').toBeDefined();
        const r = await runPhase({ phase: 'replay', cli, out });
        const why = explain(r);
        expect(r.exitCode, why).toBe(0);
        expect(r.workspace).not.toBe(recorded?.workspace);
        expect(readFileSync(join(r.workspace, 'notes/todo.txt'), 'utf8'), why).toBe('alpha\n');
        expect(transcript(cli, r), why).toEqual(transcript(cli, recorded as Phase));
        expect(r.events, why).toEqual([]);
        expect(
          r.requests.filter((q) => q.answer.kind === 'turn').map((q) => q.answer.turn),
          why,
        ).toEqual([0, 1, 2]);
      },
      T,
    );

    it(
      'a workspace where the command prints something else yields a divergence event; replay carries on',
      async () => {
        expect(recorded, 'the recording step failed').toBeDefined();
        const r = await runPhase({ phase: 'replay', cli, out, files: { 'extra.txt': 'surprise\n' } });
        const why = explain(r);
        const div = r.events.filter((e) => e.type === 'divergence');
        expect(div, why).toHaveLength(1);
        expect(div[0], why).toMatchObject({
          turn: 1,
          data: {
            kind: 'tool_result',
            expected: expect.not.stringContaining('extra.txt'),
            actual: expect.stringContaining('extra.txt'),
          },
        });
        expect(r.exitCode, why).toBe(0);
        expect(transcript(cli, r).final.endsWith(FINAL), why).toBe(true);
      },
      T,
    );

    // Strict mode is exercised once, with Claude Code, whose result line carries the API status.
    const strictIt = cli === 'claude' ? it : undefined;
    strictIt?.(
      'strict: the diverged request fails and the CLI reports the API error',
      async () => {
        expect(recorded, 'the recording step failed').toBeDefined();
        const r = await runPhase({ phase: 'replay', cli, out, strict: true, files: { 'extra.txt': 'x\n' } });
        const why = explain(r);
        expect(r.exitCode, why).toBe(1);
        expect(resultLine(r.lines), why).toMatchObject({
          is_error: true,
          api_error_status: 400,
          result: expect.stringContaining('replay diverged (strict): turn 1: tool result differs'),
        });
        expect(existsSync(join(r.workspace, 'notes/todo.txt')), why).toBe(true);
      },
      T,
    );
  });
}
