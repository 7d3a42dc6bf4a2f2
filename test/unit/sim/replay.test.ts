import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  divergences,
  loadRecording,
  normalizeResult,
  startReplay,
  type Recording,
  type Simulator,
} from '../../../src/sim/index.js';
import { ConfigError } from '../../../src/util/errors.js';
import { bodies, OFFERED, post } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sims: Simulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

describe('normalizeResult: the documented comparison rule', () => {
  it('masks Codex chunk ids and wall times, Gemini PGIDs, and collapses whitespace', () => {
    const a = 'Chunk ID: 95afe1\nWall time: 0.0000 seconds\nProcess exited with code 0\nOutput:\nout.txt\n';
    const b = 'Chunk ID: 0c41d7\nWall time: 0.0132 seconds\nProcess exited with code 0\nOutput:\n  out.txt';
    expect(normalizeResult(a)).toBe(normalizeResult(b));
    expect(normalizeResult(a)).toBe(
      'Chunk ID: <id> Wall time: <duration> Process exited with code 0 Output: out.txt',
    );
    expect(normalizeResult('Output: x\nProcess Group PGID: 9364')).toBe(
      normalizeResult('Output: x\nProcess Group PGID: 12'),
    );
  });

  it('masks working directories, temp paths, timestamps, UUIDs, epochs and ANSI colours', () => {
    const rec = normalizeResult(
      '/tmp/axis-1/ws/out.txt written at 2026-01-02T03:04:05.678Z by \u001b[32mrun\u001b[0m 1d2c3b4a-0000-4000-8000-123456789abc (1767322800) tmp=/var/tmp/x.sock',
      ['/tmp/axis-1/ws'],
    );
    const now = normalizeResult(
      '/home/u/ws/out.txt   written at 2027-12-31 23:59:59 by run ffffffff-1111-4111-8111-abcdefabcdef (1767322999123) tmp=/var/tmp/y.sock',
      ['/home/u/ws'],
    );
    expect(rec).toBe(now);
    expect(rec).toBe('<cwd>/out.txt written at <time> by run <id> (<time>) tmp=<tmp>');
  });

  it('keeps real differences', () => {
    expect(normalizeResult('out.txt')).not.toBe(normalizeResult('extra.txt out.txt'));
    expect(normalizeResult('Exit code 1')).not.toBe(normalizeResult('Exit code 2'));
  });
});

const CLAUDE = OFFERED.claude;
const tools = CLAUDE.filter((t) => ['Bash', 'Write', 'Read'].includes(t.name));
const REC_CWD = '/rec/ws';
const CWD = '/play/ws';
const recording = (): Recording => ({
  format: 'axis-sim-recording',
  version: 1,
  complete: true,
  cwd: REC_CWD,
  turns: [
    {
      text: 'I will list the files.',
      tools: [{ shell: 'ls' }],
      offered: ['Bash', 'Read', 'Write'],
      results: [{ output: 'out.txt', is_error: false }],
      usage: { input: 100, output: 20 },
    },
    {
      tools: [
        { write_file: { path: 'a.txt', content: 'x' } },
        { raw: { name: 'Bash', args: { command: `cat ${REC_CWD}/a.txt`, description: 'Show it' } } },
      ],
      offered: ['Bash', 'Read', 'Write'],
      results: [
        { output: `File created successfully at: ${REC_CWD}/a.txt`, is_error: false },
        { output: 'x', is_error: false },
      ],
    },
    { text: 'Done.', offered: ['Bash', 'Read', 'Write'], usage: { input: 300, output: 2 } },
  ],
  side: [
    { kind: 'no_tools', prompt: 'Give this a title', text: 'A fine title', usage: { input: 5, output: 3 } },
  ],
});

type Turn = {
  calls: { id: string; name: string }[];
  results: { id: string; output: string; isError?: boolean }[];
};
const system = `You are an agent.\nPrimary working directory: ${CWD}\n`;
const req = (turns: Turn[], offered = tools) => bodies.anthropic({ tools: offered, turns, system });

async function replay(strict = false): Promise<Simulator> {
  const sim = await startReplay({ tape: recording(), strict });
  sims.push(sim);
  return sim;
}

type Block = { type: string; id?: string; name?: string; text?: string; input?: Record<string, unknown> };
const content = (r: { json: () => unknown }) => (r.json() as { content: Block[] }).content;
const uses = (r: { json: () => unknown }) => content(r).filter((b) => b.type === 'tool_use');

/** Plays the whole recorded conversation, sending `first` as the result of turn 0. */
async function play(sim: Simulator, first = 'out.txt') {
  const r0 = await post(sim, '/v1/messages', req([]));
  const [ls] = uses(r0);
  const t0: Turn = {
    calls: [{ id: ls?.id as string, name: 'Bash' }],
    results: [{ id: ls?.id as string, output: first }],
  };
  const r1 = await post(sim, '/v1/messages', req([t0]));
  const [w, c] = uses(r1);
  const t1: Turn = {
    calls: [w, c].map((b) => ({ id: b?.id as string, name: b?.name as string })),
    results: [
      { id: w?.id as string, output: `File created successfully at: ${CWD}/a.txt` },
      { id: c?.id as string, output: 'x' },
    ],
  };
  const r2 = await post(sim, '/v1/messages', req([t0, t1]));
  return { r0, r1, r2, t0, t1 };
}

describe('Replayer', () => {
  it('serves the recorded turns in order, rebased onto the new working directory, with recorded usage', async () => {
    const sim = await replay();
    const { r0, r1, r2 } = await play(sim, 'out.txt\n');
    expect(r0.status).toBe(200);
    expect(content(r0)[0]).toEqual({ type: 'text', text: 'I will list the files.' });
    expect(uses(r0)[0]).toMatchObject({ name: 'Bash', input: { command: 'ls' } });
    expect((r0.json() as { usage: unknown }).usage).toMatchObject({ input_tokens: 100, output_tokens: 20 });
    expect(uses(r1)).toMatchObject([
      { name: 'Write', input: { file_path: `${CWD}/a.txt`, content: 'x' } },
      { name: 'Bash', input: { command: `cat ${CWD}/a.txt`, description: 'Show it' } },
    ]);
    expect(content(r2)).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(sim.requests.map((q) => q.answer)).toEqual([
      { kind: 'turn', turn: 0 },
      { kind: 'turn', turn: 1 },
      { kind: 'turn', turn: 2 },
    ]);
    expect(sim.events).toEqual([]);
  });

  it('a different tool result is a divergence event (once); the recorded turn is still served', async () => {
    const sim = await replay();
    const { r1, r2, t0 } = await play(sim, 'extra.txt\nout.txt');
    expect(r1.status).toBe(200);
    expect(r2.status).toBe(200);
    await post(sim, '/v1/messages', req([t0])); // a retry: no second event
    expect(divergences(sim.events)).toEqual([
      {
        turn: 0,
        kind: 'tool_result',
        expected: 'out.txt',
        actual: 'extra.txt\nout.txt',
        request: 2,
        message:
          'turn 0: tool result differs from the recording: expected "out.txt", got "extra.txt out.txt"',
        data: { kind: 'tool_result', call: 0, expected: 'out.txt', actual: 'extra.txt\nout.txt' },
      },
    ]);
    expect(sim.events[0]).toMatchObject({ type: 'divergence', turn: 0, request: 2 });
  });

  it('strict: the diverged request fails with HTTP 400 in the provider shape', async () => {
    const sim = await replay(true);
    const r0 = await post(sim, '/v1/messages', req([]));
    const id = uses(r0)[0]?.id as string;
    const t0: Turn = { calls: [{ id, name: 'Bash' }], results: [{ id, output: 'out.txt', isError: true }] };
    const r1 = await post(sim, '/v1/messages', req([t0]));
    expect(r1.status).toBe(400);
    expect(r1.json()).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining(
          'replay diverged (strict): turn 0: tool result differs from the recording: is_error false became true',
        ),
      },
    });
    expect(divergences(sim.events)[0]).toMatchObject({
      kind: 'tool_result',
      data: { expected_error: false, actual_error: true },
    });
    expect(sim.requests[1]?.answer).toEqual({ kind: 'error', turn: 1 });
  });

  it('asking for more turns than recorded is a divergence and an HTTP 400', async () => {
    const sim = await replay();
    const { t0, t1 } = await play(sim);
    // The agent carries on after the final text (a new user message after "Done.").
    const body = req([t0, t1]);
    body.messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
    body.messages.push({ role: 'user', content: 'And now?' });
    const r3 = await post(sim, '/v1/messages', body);
    expect(r3.status).toBe(400);
    expect(divergences(sim.events)).toMatchObject([{ turn: 3, kind: 'extra_turn', expected: 3, actual: 4 }]);
    expect((r3.json() as { error: { message: string } }).error.message).toContain(
      'turn 3: the agent asked for another turn, but the recording holds only 3',
    );
  });

  it('a different tool set is a divergence naming the missing and new tools', async () => {
    const sim = await replay();
    const offered = [
      ...CLAUDE.filter((t) => t.name === 'Bash'),
      { name: 'Extra', schema: { type: 'object' } },
    ];
    const r0 = await post(sim, '/v1/messages', req([], offered));
    expect(r0.status).toBe(200);
    expect(divergences(sim.events)).toMatchObject([
      {
        turn: 0,
        kind: 'tool_set',
        expected: ['Bash', 'Read', 'Write'],
        actual: ['Bash', 'Extra'],
        data: { missing: ['Read', 'Write'], added: ['Extra'] },
      },
    ]);
  });

  it('answers side calls from the recording, and reports one it does not hold', async () => {
    const sim = await replay();
    const toolless = (user: string) => ({ ...bodies.anthropic({ user }), tools: [] });
    const a = await post(sim, '/v1/messages', toolless('Give this a title'));
    expect(content(a)).toEqual([{ type: 'text', text: 'A fine title' }]);
    const b = await post(sim, '/v1/messages', toolless('Something else'));
    expect(content(b)).toEqual([{ type: 'text', text: 'A fine title' }]);
    const structured = await post(
      sim,
      '/v1/chat/completions',
      bodies.chat({
        extra: {
          response_format: {
            type: 'json_schema',
            json_schema: { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
          },
        },
      }),
    );
    expect(structured.status).toBe(200);
    expect(divergences(sim.events)).toMatchObject([{ turn: -1, kind: 'side_call', expected: null }]);
    expect(sim.requests.map((q) => q.answer)).toEqual([
      { kind: 'side', side: 'no_tools' },
      { kind: 'side', side: 'no_tools' },
      { kind: 'side', side: 'json_schema' },
    ]);
  });

  it('a recorded tool the agent no longer offers fails loudly', async () => {
    const sim = await replay();
    const r0 = await post(
      sim,
      '/v1/messages',
      req(
        [],
        CLAUDE.filter((t) => t.name === 'Read'),
      ),
    );
    expect(r0.status).toBe(400);
    expect(sim.events.map((e) => e.type)).toEqual(['divergence', 'tool_not_offered']);
  });
});

describe('loadRecording', () => {
  const write = (name: string, data: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
    return file;
  };

  it('loads what the recorder writes', async () => {
    const file = write('ok.json', recording());
    expect(await loadRecording(file)).toEqual(recording());
  });

  it('names the file and path of every problem', async () => {
    const bad = {
      ...recording(),
      turns: [{ tools: [{ shel: 'ls' }], results: [{ output: 1, is_error: false }] }],
    };
    const file = write('bad.json', bad);
    const err = await loadRecording(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain(`${file}: turns[0].results[0].output: expected string, found number`);
    bad.turns[0]!.results[0]!.output = 'x' as unknown as number;
    const err2 = await loadRecording(write('bad2.json', bad)).catch((e: unknown) => e);
    expect((err2 as Error).message).toContain(
      'turns[0].tools[0]: expected an object with exactly one of shell',
    );
  });

  it('reads JSON as configs are read: a BOM is skipped, a syntax error names its line and column', async () => {
    expect(await loadRecording(write('bom.json', `\ufeff${JSON.stringify(recording())}`))).toEqual(
      recording(),
    );
    await expect(loadRecording(write('comma.json', '{"turns": [],\n}'))).rejects.toThrow(
      /comma\.json: invalid JSON at line 2, column 1: trailing comma before "}"/,
    );
  });

  it('a hand-written tape or a broken file is a clear error', async () => {
    await expect(loadRecording(write('tape.json', { turns: [] }))).rejects.toThrow(
      'format: expected "axis-sim-recording", found null (a hand-written tape? serve it with `axis sim serve`)',
    );
    await expect(loadRecording(write('broken.json', '{'))).rejects.toThrow('invalid JSON');
    await expect(loadRecording(join(dir, 'missing.json'))).rejects.toThrow('cannot read recording: ENOENT');
  });
});
