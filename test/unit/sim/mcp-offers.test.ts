/**
 * MCP tools as the pinned CLIs really offer them (captured requests in fixtures/mcp-offers.json):
 * Codex puts each server in a namespace tool, Qwen Code lists MCP tools as deferred behind tool_search.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deferredTools, mapTool, type Tape } from '../../../src/sim/index.js';
import { decodeReply } from '../../../src/sim/record-decode.js';
import { bodies, OFFERED, post, sseJson, withSim } from './helpers.js';

const CAPTURED = JSON.parse(readFileSync(new URL('./fixtures/mcp-offers.json', import.meta.url), 'utf8')) as {
  codexNamespaceTool: Record<string, unknown>;
  qwenToolSearch: { function: { name: string; parameters: Record<string, unknown> } };
  qwenDeferredSection: string;
};

const mcpTape: Tape = {
  name: 'mcp',
  turns: [
    { tools: [{ mcp: { server: 'web', tool: 'echo', args: { text: 'ping' } } }] },
    { text: 'MCP answered.' },
  ],
};

describe('Codex: MCP tools inside a namespace tool', () => {
  const tools = [
    ...OFFERED.codex.map((t) => ({ type: 'function', name: t.name, parameters: t.schema })),
    CAPTURED.codexNamespaceTool,
  ];
  const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] };

  it('offers mcp__web__echo, calls it as {name: echo, namespace: mcp__web}, and reads the call back from history', async () => {
    await withSim(mcpTape, async (sim) => {
      const first = await post(sim, '/v1/responses', { model: 'm', stream: true, input: [user], tools });
      expect(first.status).toBe(200);
      expect(sim.requests[0]?.tools).toContain('mcp__web__echo');
      const call = sseJson(first.text)
        .filter((e) => e.type === 'response.output_item.done')
        .map((e) => e.item as Record<string, unknown>)
        .find((i) => i.type === 'function_call');
      expect(call).toMatchObject({ name: 'echo', namespace: 'mcp__web', arguments: '{"text":"ping"}' });

      const output = { type: 'function_call_output', call_id: call?.call_id, output: 'echo: ping' };
      const second = await post(sim, '/v1/responses', {
        model: 'm',
        stream: false,
        input: [user, call, output],
        tools,
      });
      // The namespaced call in the history counts as the served turn 0: turn 1's text comes next.
      expect(JSON.stringify(second.json())).toContain('MCP answered.');
      expect(sim.requests[1]?.answer).toMatchObject({ kind: 'turn', turn: 1 });
    });
  });

  it('recording a real provider: a namespaced call is decoded as mcp__<server>__<tool>', () => {
    const body = JSON.stringify({
      output: [
        {
          type: 'function_call',
          name: 'echo',
          namespace: 'mcp__web',
          call_id: 'c1',
          arguments: '{"text":"x"}',
        },
      ],
    });
    expect(decodeReply('openai-responses', body, false).toolCalls).toEqual([
      { id: 'c1', name: 'mcp__web__echo', args: { text: 'x' } },
    ]);
  });

  it('a namespace without the server fails loudly, naming the wanted tool', async () => {
    const other = { ...CAPTURED.codexNamespaceTool, name: 'mcp__other' };
    await withSim(mcpTape, async (sim) => {
      const res = await post(sim, '/v1/responses', { model: 'm', input: [user], tools: [other] });
      expect(res.status).toBe(400);
      expect(res.text).toContain('needs one of mcp__web__echo');
      expect(res.text).toContain('mcp__other__echo');
    });
  });
});

describe('Qwen Code: deferred MCP tools are loaded with tool_search first', () => {
  const system = `You are Qwen Code.\n\n${CAPTURED.qwenDeferredSection}\n\n---\nmore`;
  const toolSearch = { name: 'tool_search', schema: CAPTURED.qwenToolSearch.function.parameters };
  const echo = {
    name: 'mcp__web__echo',
    schema: { type: 'object', properties: { text: { type: 'string' } } },
  };
  const base = OFFERED.qwen.filter((t) => t.name !== 'tool_search');

  it('reads the deferred tool names from the system prompt', () => {
    expect(deferredTools(system)).toEqual(['ask_user_question', 'exit_plan_mode', 'mcp__web__echo']);
    expect(deferredTools('no such section')).toEqual([]);
  });

  it('maps to tool_search select:<name> only when the tool is deferred and tool_search is offered', () => {
    const tool = { mcp: { server: 'web', tool: 'echo' } };
    expect(mapTool(tool, [toolSearch], undefined, deferredTools(system))).toEqual({
      ok: true,
      name: 'tool_search',
      args: { query: 'select:mcp__web__echo' },
      loads: 'mcp__web__echo',
    });
    expect(mapTool(tool, base, undefined, deferredTools(system))).toMatchObject({ ok: false });
    expect(mapTool(tool, [toolSearch], undefined, ['mcp__docs__echo'])).toMatchObject({ ok: false });
  });

  function chat(tools: typeof base, messages: unknown[]) {
    return bodies.chat({ tools, messages: [{ role: 'system', content: system }, ...messages] });
  }
  const user = { role: 'user', content: 'go' };
  const callsOf = (r: { json: () => unknown }) =>
    (
      r.json() as {
        choices: {
          message: { tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
        }[];
      }
    ).choices[0]?.message.tool_calls ?? [];

  it('turn 0 becomes tool_search, then the MCP call once loaded, then turn 1; the tape advances once', async () => {
    await withSim(mcpTape, async (sim) => {
      const first = await post(sim, '/v1/chat/completions', chat([toolSearch, ...base], [user]));
      const [load] = callsOf(first);
      expect(load).toMatchObject({
        id: expect.stringMatching(/^call_sim_load_\d+$/),
        function: { name: 'tool_search', arguments: '{"query":"select:mcp__web__echo"}' },
      });
      const loaded = [
        user,
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: load?.id, type: 'function', function: load?.function }],
        },
        { role: 'tool', tool_call_id: load?.id, content: 'Loaded 1 tool(s)' },
      ];
      const second = await post(sim, '/v1/chat/completions', chat([echo, toolSearch, ...base], loaded));
      const [call] = callsOf(second);
      expect(call).toMatchObject({
        id: expect.stringMatching(/^call_sim_\d+$/),
        function: { name: 'mcp__web__echo', arguments: '{"text":"ping"}' },
      });
      const called = [
        ...loaded,
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: call?.id, type: 'function', function: call?.function }],
        },
        { role: 'tool', tool_call_id: call?.id, content: 'echo: ping' },
      ];
      const third = await post(sim, '/v1/chat/completions', chat([echo, toolSearch, ...base], called));
      expect(JSON.stringify(third.json())).toContain('MCP answered.');
      expect(sim.requests.map((r) => r.answer.turn)).toEqual([0, 0, 1]);
    });
  });

  it('a tool still not offered after tool_search loaded it fails the turn loudly instead of looping', async () => {
    await withSim(mcpTape, async (sim) => {
      const first = await post(sim, '/v1/chat/completions', chat([toolSearch, ...base], [user]));
      const [load] = callsOf(first);
      const second = await post(
        sim,
        '/v1/chat/completions',
        chat(
          [toolSearch, ...base],
          [
            user,
            {
              role: 'assistant',
              content: '',
              tool_calls: [{ id: load?.id, type: 'function', function: load?.function }],
            },
            { role: 'tool', tool_call_id: load?.id, content: 'No tools matched' },
          ],
        ),
      );
      expect(second.status).toBe(400);
      expect(second.text).toContain(
        'tool_search was called to load mcp__web__echo, but the agent still does not offer it',
      );
      expect(sim.events.map((e) => e.type)).toEqual(['tool_not_offered']);
    });
  });
});
