import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startSimulator, type SimRequestLog, type Tape } from '../../../src/sim/index.js';
import { bodies, OFFERED, post, sseJson, withSim } from './helpers.js';

const twoTurns: Tape = {
  turns: [{ text: 'I will list.', tools: [{ shell: 'ls' }] }, { text: 'All done.' }],
};

describe('Anthropic Messages', () => {
  it('streams a tool turn, then the final text once the tool result comes back', async () => {
    await withSim(twoTurns, async (sim) => {
      const first = await post(sim, '/v1/messages?beta=true', bodies.anthropic({ stream: true }));
      expect(first.status).toBe(200);
      const events = sseJson(first.text);
      expect(events.map((e) => e.type)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      const toolStart = events[5] as { content_block: { id: string; name: string } };
      expect(toolStart.content_block.name).toBe('Bash');
      const json = events
        .filter((e) => (e.delta as { type?: string })?.type === 'input_json_delta')
        .map((e) => (e.delta as { partial_json: string }).partial_json)
        .join('');
      expect(JSON.parse(json)).toEqual({ command: 'ls' });
      expect(events[9]).toMatchObject({
        delta: { stop_reason: 'tool_use' },
        usage: { output_tokens: expect.any(Number) },
      });
      expect(
        (events[0] as { message: { usage: { input_tokens: number } } }).message.usage.input_tokens,
      ).toBeGreaterThan(0);

      const id = toolStart.content_block.id;
      const second = await post(
        sim,
        '/v1/messages',
        bodies.anthropic({
          stream: false,
          turns: [{ calls: [{ id, name: 'Bash' }], results: [{ id, output: 'a.txt' }] }],
        }),
      );
      expect(second.json()).toMatchObject({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'All done.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
      });
      expect(sim.requests.map((r) => r.answer)).toEqual([
        { kind: 'turn', turn: 0 },
        { kind: 'turn', turn: 1 },
      ]);
      expect(sim.requests[1]).toMatchObject({
        method: 'POST',
        path: '/v1/messages',
        provider: 'anthropic',
        model: 'claude-test',
        stream: false,
        tools: ['Bash'],
        summary: `tool_result ${id}: a.txt`,
        status: 200,
      });
    });
  });

  it('answers a retried request (same history) with the same turn', async () => {
    await withSim(twoTurns, async (sim) => {
      const a = (await post(sim, '/v1/messages', bodies.anthropic())).json();
      const b = (await post(sim, '/v1/messages', bodies.anthropic())).json();
      expect((a as { content: unknown[] }).content[0]).toEqual((b as { content: unknown[] }).content[0]);
      expect(sim.requests.map((r) => r.answer.turn)).toEqual([0, 0]);
    });
  });

  it('tolerates a base-path prefix and sends thinking as a signed thinking block', async () => {
    await withSim({ turns: [{ thinking: 'Let me think.', text: 'Answer.' }] }, async (sim) => {
      const res = await post(sim, '/some/prefix/v1/messages', bodies.anthropic());
      expect(res.json()).toMatchObject({
        content: [
          { type: 'thinking', thinking: 'Let me think.', signature: expect.any(String) },
          { type: 'text', text: 'Answer.' },
        ],
      });
    });
  });

  it('answers count_tokens and the HEAD preflight', async () => {
    await withSim(twoTurns, async (sim) => {
      expect((await post(sim, '/v1/messages/count_tokens', bodies.anthropic())).json()).toEqual({
        input_tokens: expect.any(Number),
      });
      const head = await fetch(`${sim.url}/`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(sim.requests.map((r) => r.answer.kind)).toEqual(['count_tokens', 'preflight']);
    });
  });
});

describe('OpenAI Responses (Codex)', () => {
  it('streams a function_call for exec_command, then text after the function_call_output', async () => {
    await withSim(twoTurns, async (sim) => {
      const tools = OFFERED.codex.map((t) => ({ type: 'function', name: t.name, parameters: t.schema }));
      const input = [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>' },
          ],
        },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] },
      ];
      const first = await post(sim, '/v1/responses', { model: 'gpt-test', stream: true, input, tools });
      const events = sseJson(first.text);
      expect(events[0]).toMatchObject({ type: 'response.created', sequence_number: 0 });
      const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
      expect(done).toEqual([
        expect.objectContaining({
          type: 'message',
          content: [{ type: 'output_text', text: 'I will list.', annotations: [] }],
        }),
        expect.objectContaining({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}' }),
      ]);
      const completed = events.at(-1) as { type: string; response: { usage: Record<string, unknown> } };
      expect(completed.type).toBe('response.completed');
      expect(completed.response.usage).toMatchObject({
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      });

      const call = done[1] as { call_id: string };
      const output = 'Chunk ID: 1\nProcess exited with code 0\nOutput:\na.txt\n';
      const second = await post(sim, '/v1/responses', {
        model: 'gpt-test',
        stream: true,
        tools,
        input: [...input, done[0], done[1], { type: 'function_call_output', call_id: call.call_id, output }],
      });
      const texts = sseJson(second.text)
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta);
      expect(texts.join('')).toBe('All done.');
    });
  });
});

describe('OpenAI Chat Completions (Qwen, opencode)', () => {
  it('streams tool_calls deltas with usage and [DONE]; ignores model turns the agent injected itself', async () => {
    await withSim(twoTurns, async (sim) => {
      // Qwen Code opens every conversation with an assistant message of its own.
      const messages = [
        { role: 'system', content: 'sys' },
        { role: 'user', content: [{ type: 'text', text: "I'm currently working in the directory: /w\n" }] },
        { role: 'assistant', content: 'Got it. Thanks for the context!' },
        { role: 'user', content: [{ type: 'text', text: 'list files' }] },
      ];
      const res = await post(
        sim,
        '/v1/chat/completions',
        bodies.chat({
          tools: OFFERED.qwen,
          messages,
          stream: true,
          extra: { stream_options: { include_usage: true } },
        }),
      );
      expect(res.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      const chunks = sseJson(res.text) as {
        choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
        usage?: unknown;
      }[];
      const calls = chunks.flatMap(
        (c) =>
          (c.choices[0]?.delta.tool_calls as {
            id?: string;
            function: { name?: string; arguments: string };
          }[]) ?? [],
      );
      expect(calls[0]).toMatchObject({
        id: expect.stringMatching(/^call_sim_\d+$/),
        function: { name: 'run_shell_command' },
      });
      expect(JSON.parse(calls.map((c) => c.function.arguments).join(''))).toEqual({ command: 'ls' });
      expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls']);
      expect(chunks.at(-1)).toMatchObject({
        choices: [],
        usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
      });
      expect(sim.requests[0]?.answer).toEqual({ kind: 'turn', turn: 0 });

      const id = calls[0]?.id as string;
      const next = [
        ...messages,
        {
          role: 'assistant',
          content: 'I will list.',
          tool_calls: [
            { id, type: 'function', function: { name: 'run_shell_command', arguments: '{"command":"ls"}' } },
          ],
        },
        { role: 'tool', tool_call_id: id, content: [{ type: 'text', text: 'Output: a.txt\nExit Code: 0' }] },
      ];
      const done = await post(
        sim,
        '/v1/chat/completions',
        bodies.chat({ tools: OFFERED.qwen, messages: next }),
      );
      expect(done.json()).toMatchObject({
        object: 'chat.completion',
        choices: [{ message: { role: 'assistant', content: 'All done.' }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: expect.any(Number),
          completion_tokens: expect.any(Number),
          total_tokens: expect.any(Number),
        },
      });
    });
  });

  it('puts usage on the finish chunk when include_usage is not requested, and streams reasoning_content', async () => {
    await withSim({ turns: [{ thinking: 'hmm', text: 'ok' }] }, async (sim) => {
      const res = await post(
        sim,
        '/v1/chat/completions',
        bodies.chat({ tools: OFFERED.opencode, stream: true }),
      );
      const chunks = sseJson(res.text) as {
        choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
        usage?: unknown;
      }[];
      expect(chunks.map((c) => c.choices[0]?.delta.reasoning_content).join('')).toBe('hmm');
      const finish = chunks.find((c) => c.choices[0]?.finish_reason === 'stop');
      expect(finish?.usage).toMatchObject({ total_tokens: expect.any(Number) });
    });
  });
});

describe('Gemini', () => {
  const geminiBody = (contents: unknown[]) => ({
    contents,
    systemInstruction: { parts: [{ text: 'sys' }] },
    tools: [
      { functionDeclarations: OFFERED.gemini.map((t) => ({ name: t.name, parametersJsonSchema: t.schema })) },
    ],
  });

  it('streams a functionCall (data-only SSE), then text after the functionResponse', async () => {
    await withSim(twoTurns, async (sim) => {
      const user = { role: 'user', parts: [{ text: 'list files' }] };
      const res = await post(
        sim,
        '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
        geminiBody([user]),
      );
      expect(res.text).not.toContain('event:');
      const chunks = sseJson(res.text) as {
        candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[];
        usageMetadata?: unknown;
      }[];
      const parts = chunks.flatMap((c) => c.candidates[0]?.content.parts ?? []);
      expect(parts.map((p) => p.text ?? '').join('')).toBe('I will list.');
      const call = parts.find((p) => p.functionCall)?.functionCall as {
        id: string;
        name: string;
        args: unknown;
      };
      expect(call).toMatchObject({ name: 'run_shell_command', args: { command: 'ls' } });
      expect(chunks.at(-1)).toMatchObject({
        candidates: [{ finishReason: 'STOP' }],
        usageMetadata: { totalTokenCount: expect.any(Number) },
      });
      expect(sim.requests[0]).toMatchObject({ provider: 'gemini', model: 'gemini-2.5-flash', stream: true });

      const model = { role: 'model', parts: [{ text: 'I will list.' }, { functionCall: call }] };
      const result = {
        role: 'user',
        parts: [
          { functionResponse: { id: call.id, name: call.name, response: { output: 'Output: a.txt' } } },
        ],
      };
      const done = await post(
        sim,
        '/v1beta/models/gemini-2.5-flash:generateContent',
        geminiBody([user, model, result]),
      );
      expect(done.json()).toMatchObject({
        candidates: [{ content: { role: 'model', parts: [{ text: 'All done.' }] }, finishReason: 'STOP' }],
      });
      expect((await post(sim, '/v1beta/models/x:countTokens', { contents: [user] })).json()).toEqual({
        totalTokens: expect.any(Number),
      });
    });
  });
});

describe('routing, logging and lifecycle', () => {
  it('answers unknown paths with a 404 naming the supported paths, logged with an event', async () => {
    const seen: SimRequestLog[] = [];
    const sim = await startSimulator({ tape: twoTurns, onRequest: (r) => seen.push(r) });
    try {
      const res = await post(sim, '/v1/embeddings', {});
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({
        error: {
          type: 'not_found',
          message: expect.stringContaining('supported paths are POST /v1/messages'),
        },
      });
      const get = await fetch(`${sim.url}/v1/messages`);
      expect(get.status).toBe(404);
      expect(seen.map((r) => [r.method, r.answer.kind, r.status])).toEqual([
        ['POST', 'not_found', 404],
        ['GET', 'not_found', 404],
      ]);
      expect(sim.events.map((e) => e.type)).toEqual(['not_found', 'not_found']);
    } finally {
      await sim.close();
    }
  });

  it('rejects a body that is not JSON with a provider-shaped 400 and a bad_request event', async () => {
    await withSim(twoTurns, async (sim) => {
      const res = await fetch(`${sim.url}/v1/messages`, { method: 'POST', body: '{nope' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('bad request') },
      });
      const missing = await post(sim, '/v1/chat/completions', { model: 'x' });
      expect(missing.json()).toMatchObject({
        error: { message: '[axis sim] bad request: messages: expected an array' },
      });
      expect(sim.events.map((e) => e.type)).toEqual(['bad_request', 'bad_request']);
    });
  });

  it('listens on 127.0.0.1 only and close() also ends keep-alive connections', async () => {
    const sim = await startSimulator({ tape: twoTurns });
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const agent = new Agent({ keepAlive: true });
    const socketClosed = new Promise<void>((resolve, reject) => {
      const req = request(`${sim.url}/`, { method: 'HEAD', agent }, (res) => {
        res.resume();
        res.on('end', () => {
          // The response is done; the socket stays open for reuse until the server ends it.
          req.socket?.once('close', () => resolve());
          void sim.close();
        });
      });
      req.on('error', reject);
      req.end();
    });
    await socketClosed;
    agent.destroy();
    // Without closeAllConnections the idle socket would linger for the 5 s keep-alive timeout.
  }, 2500);

  it('honours an explicit port', async () => {
    const probe = await startSimulator({ tape: twoTurns });
    const port = probe.port;
    await probe.close();
    const sim = await startSimulator({ tape: twoTurns, port });
    expect(sim.url).toBe(`http://127.0.0.1:${port}`);
    await sim.close();
  });
});

describe('keepLog: false (axis sim serve)', () => {
  it('keeps no request or event, and still reports each one as it happens', async () => {
    const seen: SimRequestLog[] = [];
    const events: string[] = [];
    const sim = await startSimulator({
      tape: twoTurns,
      keepLog: false,
      onRequest: (r) => seen.push(r),
      onEvent: (e) => events.push(e.type),
    });
    try {
      expect((await post(sim, '/v1/messages', bodies.anthropic({ stream: false }))).status).toBe(200);
      expect((await post(sim, '/v1/nowhere', {})).status).toBe(404);
      expect(seen.map((r) => r.status)).toEqual([200, 404]);
      expect(events).toContain('not_found');
      expect(sim.requests).toEqual([]);
      expect(sim.events).toEqual([]);
    } finally {
      await sim.close();
    }
    // The default keeps both.
    await withSim(twoTurns, async (kept) => {
      await post(kept, '/v1/nowhere', {});
      expect(kept.requests).toHaveLength(1);
      expect(kept.events.map((e) => e.type)).toEqual(['not_found']);
    });
  });
});
