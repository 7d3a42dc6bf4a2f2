import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SIDE_CALL_TEXT, type Tape } from '../../../src/sim/index.js';
import { MAX_TAPE_DEPTH } from '../../../src/sim/tape.js';
import { bodies, OFFERED, post, sseJson, withSim } from './helpers.js';

const agentTape: Tape = {
  turns: [{ text: 'agent turn 0', tools: [{ shell: 'ls' }] }, { text: 'agent turn 1' }],
};

function chatText(json: unknown): string {
  return (json as { choices: { message: { content: string } }[] }).choices[0]?.message.content as string;
}

describe('side calls (answered without consuming tape turns)', () => {
  it("fills Gemini's router schema generically (upper-case types) and still serves turn 0 next", async () => {
    await withSim(agentTape, async (sim) => {
      const schema = {
        type: 'OBJECT',
        properties: {
          complexity_reasoning: { type: 'STRING', description: 'Brief explanation for the score.' },
          complexity_score: { type: 'INTEGER', description: 'Complexity score from 1-100.' },
          flags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a', 'b'] } },
        },
        required: ['complexity_reasoning', 'complexity_score'],
      };
      const res = await post(sim, '/v1beta/models/gemini-3.5-flash-lite:generateContent', {
        contents: [{ role: 'user', parts: [{ text: 'create out.txt' }] }],
        generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
      });
      const text = (res.json() as { candidates: { content: { parts: { text: string }[] } }[] }).candidates[0]
        ?.content.parts[0]?.text as string;
      const value = JSON.parse(text);
      const lower = JSON.parse(
        JSON.stringify(schema).replace(
          /"type":"([A-Z]+)"/g,
          (_m, t: string) => `"type":"${t.toLowerCase()}"`,
        ),
      );
      expect(new Ajv().validate(lower, value)).toBe(true);
      expect(value).toEqual({
        complexity_reasoning: 'simulated complexity_reasoning',
        complexity_score: 1,
        flags: ['a'],
      });

      const agent = await post(sim, '/v1beta/models/m:generateContent', {
        contents: [{ role: 'user', parts: [{ text: 'create out.txt' }] }],
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
      expect(JSON.stringify(agent.json())).toContain('agent turn 0');
      expect(sim.requests.map((r) => r.answer)).toEqual([
        { kind: 'side', side: 'json_schema' },
        { kind: 'turn', turn: 0 },
      ]);
    });
  });

  it("answers a next-speaker check with 'user' so the agent does not talk to itself", async () => {
    await withSim(agentTape, async (sim) => {
      const res = await post(
        sim,
        '/v1/chat/completions',
        bodies.chat({
          extra: {
            response_format: {
              type: 'json_schema',
              json_schema: {
                name: 'x',
                schema: {
                  type: 'object',
                  properties: {
                    reasoning: { type: 'string' },
                    next_speaker: { type: 'string', enum: ['model', 'user'] },
                  },
                },
              },
            },
          },
        }),
      );
      expect(JSON.parse(chatText(res.json()))).toEqual({
        reasoning: 'simulated reasoning',
        next_speaker: 'user',
      });
    });
  });

  it("answers opencode's tool-less title request with short text, streamed, without consuming a turn", async () => {
    await withSim(agentTape, async (sim) => {
      const title = await post(
        sim,
        '/v1/chat/completions',
        bodies.chat({
          stream: true,
          messages: [
            { role: 'system', content: 'You are a title generator.' },
            { role: 'user', content: 'create out.txt' },
          ],
        }),
      );
      const text = (sseJson(title.text) as { choices: { delta: { content?: string } }[] }[])
        .map((c) => c.choices[0]?.delta.content ?? '')
        .join('');
      expect(text).toBe(SIDE_CALL_TEXT);
      const agent = await post(sim, '/v1/chat/completions', bodies.chat({ tools: OFFERED.opencode }));
      expect(sim.requests.map((r) => r.answer)).toEqual([
        { kind: 'side', side: 'no_tools' },
        { kind: 'turn', turn: 0 },
      ]);
      expect(agent.status).toBe(200);
    });
  });
});

const judgePrompt = 'You are a strict grader. Score the transcript below from 0 to 100.';

describe('judge answers (Anthropic Messages and OpenAI Chat Completions)', () => {
  const anthropicJudge = (prompt: string) => ({
    model: 'judge',
    max_tokens: 200,
    messages: [{ role: 'user', content: prompt }],
  });
  const chatJudge = (prompt: string) =>
    bodies.chat({
      messages: [
        { role: 'system', content: 'grader' },
        { role: 'user', content: prompt },
      ],
    });
  const anthropicText = (json: unknown) => (json as { content: { text: string }[] }).content[0]?.text;

  it('matches by substring or /regex/ and serializes JSON answers; judge calls never consume agent turns', async () => {
    const tape: Tape = {
      ...agentTape,
      judge: [
        { match: 'strict grader', answer: { score: 85, reason: 'good' } },
        { match: '/rubric #(\\d+)/i', answer: 'plain text verdict' },
      ],
    };
    await withSim(tape, async (sim) => {
      expect(
        JSON.parse(
          anthropicText((await post(sim, '/v1/messages', anthropicJudge(judgePrompt))).json()) as string,
        ),
      ).toEqual({ score: 85, reason: 'good' });
      expect(
        chatText((await post(sim, '/v1/chat/completions', chatJudge('Apply RUBRIC #2 please'))).json()),
      ).toBe('plain text verdict');
      expect(
        chatText((await post(sim, '/v1/chat/completions', chatJudge('unrelated tool-less call'))).json()),
      ).toBe(SIDE_CALL_TEXT);
      await post(sim, '/v1/messages', bodies.anthropic());
      expect(sim.requests.map((r) => r.answer)).toEqual([
        { kind: 'judge', judge: 0 },
        { kind: 'judge', judge: 1 },
        { kind: 'side', side: 'no_tools' },
        { kind: 'turn', turn: 0 },
      ]);
    });
  });

  it('a judge answering garbage', async () => {
    await withSim({ turns: [], judge: [{ answer: 'definitely not JSON {' }] }, async (sim) => {
      const text = chatText((await post(sim, '/v1/chat/completions', chatJudge(judgePrompt))).json());
      expect(() => JSON.parse(text)).toThrow();
    });
  });

  it('429 then success (fault times), over both wire formats', async () => {
    const tape: Tape = { turns: [], judge: [{ fault: { status: 429, times: 1 }, answer: { score: 70 } }] };
    await withSim(tape, async (sim) => {
      const first = await post(sim, '/v1/messages', anthropicJudge(judgePrompt));
      expect(first.status).toBe(429);
      expect(first.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
      const second = await post(sim, '/v1/messages', anthropicJudge(judgePrompt));
      expect(JSON.parse(anthropicText(second.json()) as string)).toEqual({ score: 70 });
      expect(sim.requests.map((r) => r.answer)).toEqual([
        { kind: 'judge', judge: 0, fault: 'status 429' },
        { kind: 'judge', judge: 0 },
      ]);
    });
    await withSim(tape, async (sim) => {
      expect((await post(sim, '/v1/chat/completions', chatJudge(judgePrompt))).status).toBe(429);
      expect(
        JSON.parse(chatText((await post(sim, '/v1/chat/completions', chatJudge(judgePrompt))).json())),
      ).toEqual({ score: 70 });
    });
  });

  it(`an answer nested ${MAX_TAPE_DEPTH} levels deep is served as it is`, async () => {
    const deep = JSON.parse(`${'['.repeat(MAX_TAPE_DEPTH - 3)}1${']'.repeat(MAX_TAPE_DEPTH - 3)}`) as unknown;
    await withSim({ turns: [], judge: [{ answer: deep }] }, async (sim) => {
      const res = await post(sim, '/v1/chat/completions', chatJudge(judgePrompt));
      expect(res.status).toBe(200);
      expect(JSON.parse(chatText(res.json()))).toEqual(deep);
    });
  });

  it('500 forever', async () => {
    await withSim({ turns: [], judge: [{ fault: { status: 500 } }] }, async (sim) => {
      for (let i = 0; i < 4; i++)
        expect((await post(sim, '/v1/chat/completions', chatJudge(judgePrompt))).status).toBe(500);
      expect(sim.events.filter((e) => e.type === 'fault_injected')).toHaveLength(4);
    });
  });

  it('entries with times are used up in order; a forced tool gets the answer as its arguments', async () => {
    const tape: Tape = { turns: [], judge: [{ answer: { score: 1 }, times: 1 }, { answer: { score: 2 } }] };
    await withSim(tape, async (sim) => {
      const scores: unknown[] = [];
      for (let i = 0; i < 3; i++)
        scores.push(
          JSON.parse(chatText((await post(sim, '/v1/chat/completions', chatJudge(judgePrompt))).json())),
        );
      expect(scores).toEqual([{ score: 1 }, { score: 2 }, { score: 2 }]);

      const forced = {
        ...anthropicJudge(judgePrompt),
        tools: [
          {
            name: 'submit_score',
            input_schema: { type: 'object', properties: { score: { type: 'number' } } },
          },
        ],
        tool_choice: { type: 'tool', name: 'submit_score' },
      };
      expect((await post(sim, '/v1/messages', forced)).json()).toMatchObject({
        content: [{ type: 'tool_use', name: 'submit_score', input: { score: 2 } }],
        stop_reason: 'tool_use',
      });
    });
  });
});
