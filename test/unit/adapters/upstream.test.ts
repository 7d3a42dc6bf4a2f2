import { describe, expect, it } from 'vitest';
import { moduleOutput } from '../../../src/adapters/upstream.js';

const frame = { agent: 'echo', prompt: 'hi', startedAt: 1000, endedAt: 3000 };

describe('module adapter output', () => {
  it('maps upstream { transcript, result, metadata } entries onto events, usage and cost', () => {
    const t = moduleOutput(
      {
        transcript: [
          {
            type: 'assistant',
            timestamp: '2026-01-01T00:00:00.000Z',
            content: { message: { content: [{ type: 'text', text: 'ok' }] } },
          },
          {
            type: 'tool_use',
            timestamp: 'x',
            content: { tool_name: 'Bash', tool_id: 'a', parameters: { command: 'ls' } },
          },
          { type: 'tool_result', content: { tool_id: 'a', output: 'boom', status: 'error' } },
          { type: 'error', content: { error: 'rate limited' } },
          'junk',
        ],
        result: 'done',
        metadata: {
          durationMs: 5,
          exitCode: 3,
          tokenUsage: { input: 7, output: 2 },
          totalCostUsd: 0.5,
          sessionId: 's',
        },
      },
      frame,
      'echo',
    );
    expect(t.events.map((e) => e.kind)).toEqual(['user', 'text', 'tool_call', 'tool_result', 'error']);
    expect(t.events[1]).toMatchObject({
      text: 'ok',
      ts: Date.parse('2026-01-01T00:00:00.000Z'),
      tsSource: 'agent',
    });
    expect(t.events[2]).toMatchObject({ id: 'a', name: 'Bash', input: { command: 'ls' } });
    expect(t.events[3]).toMatchObject({ callId: 'a', isError: true, output: 'boom' });
    expect(t).toMatchObject({ result: 'done', exitCode: 0, durationMs: 5, costUsd: 0.5, sessionId: 's' });
    expect(t.usage).toEqual({ input: 7, output: 2, cacheReadInput: 0 });
    expect(t.error).toBeUndefined();
  });

  it('an upstream metadata.error fails the run; without a result a non-zero exit stays', () => {
    const failed = moduleOutput(
      { transcript: [], result: null, metadata: { exitCode: 2, error: 'bad key' } },
      frame,
      'x',
    );
    expect(failed.error).toEqual({ class: 'crash', message: 'bad key' });
    expect(
      moduleOutput({ transcript: [], result: null, metadata: { exitCode: 2 } }, frame, 'x').exitCode,
    ).toBe(2);
  });

  it('anything else is a crash naming the adapter and the shapes it may return', () => {
    const t = moduleOutput({ output: 'x' }, frame, 'vendor');
    expect(t.error?.class).toBe('crash');
    expect(t.error?.message).toBe(
      'adapter "vendor" returned an object with "output"; expected a Transcript ({ events, result, usage, ... }) or the upstream shape { transcript, result, metadata }',
    );
    expect(moduleOutput(undefined, frame, 'v').error?.message).toContain('returned nothing');
  });
});
