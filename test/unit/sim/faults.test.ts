import { describe, expect, it } from 'vitest';
import type { Tape } from '../../../src/sim/index.js';
import { bodies, OFFERED, parseSse, post, rawPost, sseJson, withSim } from './helpers.js';

const turn = { text: 'Listing now.', tools: [{ shell: 'ls' }] };

describe('faults (Anthropic codec, plain HTTP)', () => {
  it('status fault with times: that many errors in the provider shape, then normal service', async () => {
    await withSim({ turns: [{ ...turn, fault: { status: 429, times: 2 } }] }, async (sim) => {
      const a = await post(sim, '/v1/messages', bodies.anthropic());
      const b = await post(sim, '/v1/messages', bodies.anthropic());
      const c = await post(sim, '/v1/messages', bodies.anthropic());
      expect([a.status, b.status, c.status]).toEqual([429, 429, 200]);
      expect(a.json()).toEqual({
        type: 'error',
        error: { type: 'rate_limit_error', message: '[axis sim] injected fault: HTTP 429' },
      });
      expect(c.json()).toMatchObject({ stop_reason: 'tool_use' });
      expect(sim.requests.map((r) => r.answer)).toEqual([
        { kind: 'turn', turn: 0, fault: 'status 429' },
        { kind: 'turn', turn: 0, fault: 'status 429' },
        { kind: 'turn', turn: 0 },
      ]);
      expect(sim.events.map((e) => [e.type, e.message])).toEqual([
        ['fault_injected', 'turn 0: status 429'],
        ['fault_injected', 'turn 0: status 429'],
      ]);
    });
  });

  it('status fault without times fails forever; a custom body replaces the error shape', async () => {
    await withSim({ turns: [{ ...turn, fault: { status: 500, body: { oops: true } } }] }, async (sim) => {
      for (let i = 0; i < 3; i++) {
        const res = await post(sim, '/v1/messages', bodies.anthropic({ stream: true }));
        expect(res.status).toBe(500);
        expect(res.json()).toEqual({ oops: true });
      }
    });
    await withSim({ turns: [{ ...turn, fault: { status: 503, body: 'upstream melted' } }] }, async (sim) => {
      const res = await post(sim, '/v1/messages', bodies.anthropic());
      expect([res.status, res.text]).toEqual([503, 'upstream melted']);
    });
    await withSim({ turns: [{ ...turn, fault: { status: 401 } }] }, async (sim) => {
      expect((await post(sim, '/v1/messages', bodies.anthropic())).json()).toMatchObject({
        error: { type: 'authentication_error' },
      });
    });
  });

  it('delay_ms holds the response back at least that long', async () => {
    await withSim({ turns: [{ ...turn, delay_ms: 120 }] }, async (sim) => {
      const res = await post(sim, '/v1/messages', bodies.anthropic());
      expect(res.status).toBe(200);
      expect(sim.requests[0]?.durationMs).toBeGreaterThanOrEqual(119);
    });
  });

  it('drop mid-stream: part of the SSE arrives, then the connection breaks; the next try is served whole', async () => {
    await withSim({ turns: [{ ...turn, fault: { drop: 'mid-stream', times: 1 } }] }, async (sim) => {
      const url = `${sim.url}/v1/messages`;
      const cut = await rawPost(url, bodies.anthropic({ stream: true }));
      expect(cut.status).toBe(200);
      expect(cut.broken).toBe(true);
      expect(cut.text).toContain('event: message_start');
      expect(cut.text).not.toContain('message_stop');
      const whole = await rawPost(url, bodies.anthropic({ stream: true }));
      expect(whole.broken).toBe(false);
      expect(sseJson(whole.text).at(-1)).toEqual({ type: 'message_stop' });
      expect(sim.requests.map((r) => r.answer.fault)).toEqual(['drop mid-stream', undefined]);
      expect(sim.events.map((e) => e.message)).toEqual(['turn 0: drop mid-stream']);
    });
  });

  it('drop also cuts a non-streamed JSON body', async () => {
    await withSim({ turns: [{ ...turn, fault: { drop: 'mid-stream' } }] }, async (sim) => {
      const cut = await rawPost(`${sim.url}/v1/messages`, bodies.anthropic());
      expect(cut.broken).toBe(true);
      expect(() => JSON.parse(cut.text)).toThrow();
    });
  });

  it('malformed: exactly one stream event carries invalid JSON, the stream still completes', async () => {
    await withSim({ turns: [{ ...turn, fault: { malformed: true, times: 1 } }] }, async (sim) => {
      const res = await post(sim, '/v1/messages', bodies.anthropic({ stream: true }));
      const frames = parseSse(res.text);
      const bad = frames.filter((f) => {
        try {
          JSON.parse(f.data);
          return false;
        } catch {
          return true;
        }
      });
      expect(bad).toHaveLength(1);
      expect(frames.at(-1)?.event).toBe('message_stop');
      const again = await post(sim, '/v1/messages', bodies.anthropic({ stream: true }));
      expect(() => sseJson(again.text)).not.toThrow();
      const plain = await post(sim, '/v1/messages', bodies.anthropic());
      expect(plain.json()).toMatchObject({ type: 'message' });
    });
  });

  it('malformed non-streamed: the body is not valid JSON', async () => {
    await withSim({ turns: [{ ...turn, fault: { malformed: true } }] }, async (sim) => {
      const res = await post(sim, '/v1/messages', bodies.anthropic());
      expect(res.status).toBe(200);
      expect(() => res.json()).toThrow();
    });
  });
});

describe('faults on the other wire formats', () => {
  const tape: Tape = { turns: [{ ...turn, fault: { status: 500, times: 1 } }] };

  it('uses each provider error shape', async () => {
    await withSim(tape, async (sim) => {
      expect(
        (await post(sim, '/v1/chat/completions', bodies.chat({ tools: OFFERED.opencode }))).json(),
      ).toEqual({
        error: {
          message: '[axis sim] injected fault: HTTP 500',
          type: 'server_error',
          param: null,
          code: null,
        },
      });
    });
    await withSim(tape, async (sim) => {
      const res = await post(sim, '/v1beta/models/m:streamGenerateContent?alt=sse', {
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'run_shell_command',
                parameters: { type: 'OBJECT', properties: { command: { type: 'STRING' } } },
              },
            ],
          },
        ],
      });
      expect(res.json()).toEqual({
        error: { code: 500, message: '[axis sim] injected fault: HTTP 500', status: 'INTERNAL' },
      });
    });
    await withSim(tape, async (sim) => {
      const res = await post(sim, '/v1/responses', {
        model: 'm',
        input: 'x',
        tools: [{ type: 'function', name: 'exec_command', parameters: {} }],
      });
      expect(res.json()).toMatchObject({ error: { type: 'server_error' } });
    });
  });

  it('drops a Chat Completions stream mid-way', async () => {
    await withSim({ turns: [{ ...turn, fault: { drop: 'mid-stream' } }] }, async (sim) => {
      const cut = await rawPost(
        `${sim.url}/v1/chat/completions`,
        bodies.chat({ tools: OFFERED.qwen, stream: true }),
      );
      expect(cut.broken).toBe(true);
      expect(cut.text).not.toContain('[DONE]');
    });
  });
});
