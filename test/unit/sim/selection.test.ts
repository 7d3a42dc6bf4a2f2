import { describe, expect, it } from 'vitest';
import type { Tape } from '../../../src/sim/index.js';
import { bodies, OFFERED, post, rawPost, withSim } from './helpers.js';

const branching: Tape = {
  turns: [
    {
      id: 'run',
      tools: [{ shell: 'make test' }],
      next: [
        { if: { result_contains: 'PASS' }, goto: 'pass' },
        { if: { result_matches: '^warn: \\d+' }, goto: 'warn' },
        { if: { exit_nonzero: true }, goto: 'fail' },
        { if: { is_error: true }, goto: 'error' },
      ],
    },
    { id: 'default', text: 'default path' },
    { id: 'pass', text: 'passed' },
    { id: 'warn', text: 'warned' },
    { id: 'fail', text: 'failed with an exit code' },
    { id: 'error', text: 'the tool errored' },
  ],
};

/** Text of the Anthropic answer to a conversation whose first tool call returned `output`. */
async function after(output: string, isError = false): Promise<{ text: string; turn?: number }> {
  return withSim(branching, async (sim) => {
    const first = (await post(sim, '/v1/messages', bodies.anthropic())).json() as {
      content: { id: string }[];
    };
    const id = first.content[0]?.id as string;
    const res = await post(
      sim,
      '/v1/messages',
      bodies.anthropic({ turns: [{ calls: [{ id, name: 'Bash' }], results: [{ id, output, isError }] }] }),
    );
    const body = res.json() as { content: { text: string }[] };
    return { text: body.content[0]?.text as string, turn: sim.requests[1]?.answer.turn };
  });
}

describe('turn selection with next', () => {
  it('follows the first rule whose condition holds, else the following turn', async () => {
    expect(await after('ok')).toEqual({ text: 'default path', turn: 1 });
    expect(await after('tests: PASS')).toEqual({ text: 'passed', turn: 2 });
    expect(await after('warn: 3 deprecated calls')).toEqual({ text: 'warned', turn: 3 });
    expect(await after('Exit code 2\nmake: *** [test] Error 2', true)).toEqual({
      text: 'failed with an exit code',
      turn: 4,
    });
    expect(await after('Error: permission denied', true)).toEqual({ text: 'the tool errored', turn: 5 });
  });

  it('reads exit codes the way each CLI reports them', async () => {
    const outputs = {
      codex: 'Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 3\nOutput:\nboom\n',
      qwen: 'Command: make\nOutput: boom\nExit Code: 3\nSignal: 0',
    };
    for (const [cli, output] of Object.entries(outputs)) {
      await withSim(branching, async (sim) => {
        const tools = cli === 'codex' ? OFFERED.codex : OFFERED.qwen;
        const first = (await post(sim, '/v1/chat/completions', bodies.chat({ tools }))).json() as {
          choices: {
            message: { tool_calls: { id: string; function: { name: string; arguments: string } }[] };
          }[];
        };
        const call = first.choices[0]?.message.tool_calls[0];
        const messages = [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: call?.id, type: 'function', function: call?.function }],
          },
          { role: 'tool', tool_call_id: call?.id, content: output },
        ];
        const res = (await post(sim, '/v1/chat/completions', bodies.chat({ tools, messages }))).json() as {
          choices: { message: { content: string } }[];
        };
        expect(res.choices[0]?.message.content, cli).toBe('failed with an exit code');
      });
    }
    await withSim(branching, async (sim) => {
      const decl = {
        functionDeclarations: [
          {
            name: 'run_shell_command',
            parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' } } },
          },
        ],
      };
      const contents = [
        { role: 'user', parts: [{ text: 'go' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'call_sim_1', name: 'run_shell_command', args: { command: 'make test' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call_sim_1',
                name: 'run_shell_command',
                response: { output: 'Output: boom\nExit Code: 3' },
              },
            },
          ],
        },
      ];
      const res = (
        await post(sim, '/v1beta/models/m:generateContent', { contents, tools: [decl] })
      ).json() as {
        candidates: { content: { parts: { text: string }[] } }[];
      };
      expect(res.candidates[0]?.content.parts.map((p) => p.text).join('')).toBe('failed with an exit code');
    });
  });

  it('goto by index can loop; a turn index past the end exhausts the tape loudly', async () => {
    const tape: Tape = {
      turns: [
        { tools: [{ shell: 'poll' }], next: [{ if: { result_contains: 'pending' }, goto: 0 }] },
        { text: 'ready' },
      ],
    };
    await withSim(tape, async (sim) => {
      const call = (n: number) => ({
        calls: [{ id: `toolu_sim_${n}`, name: 'Bash' }],
        results: [{ id: `toolu_sim_${n}`, output: n < 3 ? 'pending' : 'done' }],
      });
      const answers: unknown[] = [];
      for (const turns of [[], [call(1)], [call(1), call(2)], [call(1), call(2), call(3)]]) {
        const res = (await post(sim, '/v1/messages', bodies.anthropic({ turns }))).json() as {
          content: { type: string; text?: string }[];
        };
        answers.push(res.content[0]?.type === 'text' ? res.content[0].text : 'tool');
      }
      expect(answers).toEqual(['tool', 'tool', 'tool', 'ready']);

      // The agent carries on after the last turn: nothing left to say.
      const messages = [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_sim_9', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_sim_9', content: 'done' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ready' }] },
        { role: 'user', content: 'and now?' },
      ];
      const res = await post(sim, '/v1/messages', { ...bodies.anthropic(), messages });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining('tape exhausted: all 2 turns are served'),
        },
      });
      expect(sim.events.at(-1)).toMatchObject({ type: 'tape_exhausted', turn: 2 });
      expect(sim.requests.at(-1)?.answer).toEqual({ kind: 'error', turn: 2 });
    });
  });

  it('fails a turn loudly with HTTP 400 when it needs a tool the agent did not offer', async () => {
    await withSim(
      { turns: [{ id: 'w', tools: [{ write_file: { path: 'a.txt', content: 'x' } }] }] },
      async (sim) => {
        const res = await post(sim, '/v1/messages', bodies.anthropic());
        expect(res.status).toBe(400);
        const message = (res.json() as { error: { message: string } }).error.message;
        expect(message).toBe(
          '[axis sim] turn 0 (w): tape tool write_file a.txt needs one of Write, write_file, write, mcp__acp__Write, but the agent offered Bash',
        );
        expect(sim.events).toEqual([
          expect.objectContaining({
            type: 'tool_not_offered',
            turn: 0,
            data: {
              tool: 'write_file a.txt',
              wanted: ['Write', 'write_file', 'write', 'mcp__acp__Write'],
              offered: ['Bash'],
            },
          }),
        ]);
      },
    );
  });

  it('does not count a turn whose response was dropped, even when the agent kept the partial call', async () => {
    await withSim(
      {
        turns: [
          { text: 'Working on it now.', tools: [{ shell: 'ls' }], fault: { drop: 'mid-stream', times: 1 } },
          { text: 'done' },
        ],
      },
      async (sim) => {
        await rawPost(`${sim.url}/v1/messages`, bodies.anthropic({ stream: true }));
        // toolu_sim_1 was minted for the dropped response; an agent that kept it must still get turn 0.
        const kept = bodies.anthropic({
          turns: [
            {
              calls: [{ id: 'toolu_sim_1', name: 'Bash' }],
              results: [{ id: 'toolu_sim_1', output: 'interrupted' }],
            },
          ],
        });
        await post(sim, '/v1/messages', kept);
        expect(sim.requests.map((r) => r.answer.turn)).toEqual([0, 0]);
      },
    );
  });

  it('resolves relative paths against the cwd the agent states in its prompt', async () => {
    await withSim(
      { turns: [{ tools: [{ write_file: { path: 'notes/a.md', content: '# hi' } }] }] },
      async (sim) => {
        const system = 'Environment\n - Primary working directory: /home/u/project\n';
        const res = (
          await post(sim, '/v1/messages', bodies.anthropic({ tools: OFFERED.claude, system }))
        ).json() as { content: { input: unknown }[] };
        expect(res.content[0]?.input).toEqual({ file_path: '/home/u/project/notes/a.md', content: '# hi' });
      },
    );
    await withSim({ turns: [{ tools: [{ write_file: { path: 'a.md', content: '' } }] }] }, async (sim) => {
      await post(sim, '/v1/messages', bodies.anthropic({ tools: OFFERED.claude }));
      expect(sim.events.map((e) => e.type)).toEqual(['path_unresolved']);
    });
  });
});
