import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommandAdapter } from '../../../src/adapters/command.js';
import { getAdapter } from '../../../src/adapters/registry.js';
import { agentEntry, FIXTURES, ROOT, runAdapter, toolCalls, toolResults } from './helpers.js';

const configDir = FIXTURES;
const adapter = createCommandAdapter({ configDir });
const ndjson = (extra = {}) =>
  agentEntry('command', {
    name: 'toy',
    command: './command-agent/ndjson-agent.sh',
    output: 'ndjson',
    prompt_via: 'stdin',
    ...extra,
  });
const text = (extra = {}) =>
  agentEntry('command', {
    name: 'text-toy',
    command: './command-agent/text-agent.sh',
    output: 'text',
    prompt_via: 'stdin',
    ...extra,
  });

describe('command adapter, ndjson output', () => {
  for (const via of ['stdin', 'arg'] as const) {
    it(`succeeds with the prompt via ${via}`, async () => {
      const agent = ndjson(via === 'arg' ? { prompt_via: 'arg', args: ['--arg'] } : {});
      const out = await runAdapter(adapter, { agent, prompt: 'make out.txt', keep: true });
      try {
        const t = out.transcript;
        expect(t.error).toBeUndefined();
        expect(t.exitCode).toBe(0);
        expect(readFileSync(join(out.ws.work, 'out.txt'), 'utf8')).toBe('hi\n');
        expect(toolCalls(t)).toMatchObject([
          { id: 'c1', name: 'shell', input: { command: 'echo hi > out.txt' } },
        ]);
        expect(toolResults(t)).toMatchObject([{ callId: 'c1', isError: false, exitCode: 0 }]);
        expect(t.events.some((e) => e.kind === 'text' && e.text === 'prompt file matches')).toBe(true);
        expect(t.usage).toEqual({ input: 100, output: 20, cacheReadInput: 5 });
        expect(t.result).toBe('Done: out.txt written.');
        expect(t.agent).toBe('toy');
        expect(out.usage.at(-1)).toEqual({ input: 100, output: 20, cacheReadInput: 5 });
        expect(out.rawLines.length).toBeGreaterThan(4);
      } finally {
        await out.cleanup();
      }
    });
  }

  it('shows a failing tool with its exit code', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: ndjson(), prompt: 'FAIL_TOOL please' });
    expect(t.error).toBeUndefined();
    const failed = toolResults(t).find((r) => r.callId === 'c2');
    expect(failed).toMatchObject({ isError: true });
    expect(failed?.exitCode).toBeGreaterThan(0);
  });

  it('reports an API error from the stream with its class', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: ndjson(), prompt: 'API_ERROR' });
    expect(t.error).toMatchObject({ class: 'auth', httpStatus: 401 });
    expect(t.exitCode).toBe(1);
  });

  it('reports a crash with the exit code and stderr', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: ndjson(), prompt: 'CRASH now' });
    expect(t.error?.class).toBe('crash');
    expect(t.error?.message).toContain('exited with code 3');
    expect(t.error?.message).toContain('the model exploded');
    expect(t.result).toBeNull();
  });

  it('times out a hanging agent and ends its process group', async () => {
    const out = await runAdapter(adapter, { agent: ndjson(), prompt: 'HANG', timeoutMs: 700 });
    expect(out.transcript.error?.class).toBe('timeout');
    expect(out.transcript.result).toBeNull();
    expect(out.leftovers).toEqual([]);
  });

  it('reports an abort as cancelled, or with the class the abort reason carries', async () => {
    const ac = new AbortController();
    setTimeout(
      () =>
        ac.abort(Object.assign(new Error('Scenario token limit reached'), { errorClass: 'limit_exceeded' })),
      300,
    );
    const out = await runAdapter(adapter, { agent: ndjson(), prompt: 'HANG', signal: ac.signal });
    expect(out.transcript.error).toMatchObject({
      class: 'limit_exceeded',
      message: 'Scenario token limit reached',
    });
    expect(out.leftovers).toEqual([]);

    const plain = new AbortController();
    setTimeout(() => plain.abort(), 300);
    const out2 = await runAdapter(adapter, { agent: ndjson(), prompt: 'HANG', signal: plain.signal });
    expect(out2.transcript.error?.class).toBe('cancelled');
  });

  it('names a missing command as a crash', async () => {
    const { transcript: t } = await runAdapter(adapter, { agent: ndjson({ command: './nope/agent.sh' }) });
    expect(t.error?.class).toBe('crash');
    expect(t.error?.message).toContain('./nope/agent.sh');
    const bare = await runAdapter(adapter, { agent: ndjson({ command: 'axis-no-such-agent' }) });
    expect(bare.transcript.error?.message).toContain('"axis-no-such-agent" was not found on PATH');
  });
});

describe('command adapter, text output', () => {
  for (const via of ['stdin', 'arg'] as const) {
    it(`takes stdout as the answer with the prompt via ${via}`, async () => {
      const agent = text(via === 'arg' ? { prompt_via: 'arg', args: ['--arg'] } : {});
      const out = await runAdapter(adapter, { agent, prompt: 'hello there', keep: true });
      try {
        expect(out.transcript.error).toBeUndefined();
        expect(out.transcript.result).toBe('I wrote out.txt\nwith 11 characters.');
        expect(readFileSync(join(out.ws.work, 'out.txt'), 'utf8')).toBe('hello there\n');
      } finally {
        await out.cleanup();
      }
    });
  }

  it('reports a crash and a timeout', async () => {
    const crash = await runAdapter(adapter, { agent: text(), prompt: 'CRASH' });
    expect(crash.transcript.error).toMatchObject({ class: 'crash' });
    expect(crash.transcript.error?.message).toContain('segfault in agent');
    const hang = await runAdapter(adapter, { agent: text(), prompt: 'HANG', timeoutMs: 700 });
    expect(hang.transcript.error?.class).toBe('timeout');
    expect(hang.leftovers).toEqual([]);
  });

  it('delivers prompts that are empty or the word "ignore"', async () => {
    const word = await runAdapter(adapter, { agent: text(), prompt: 'ignore' });
    expect(word.transcript.result).toBe('I wrote out.txt\nwith 6 characters.');
    const empty = await runAdapter(adapter, { agent: text(), prompt: '' });
    expect(empty.transcript.result).toBe('I wrote out.txt\nwith 0 characters.');
  });

  it('passes a prompt larger than the argv limit through stdin', async () => {
    const big = 'x'.repeat(300 * 1024);
    const out = await runAdapter(adapter, { agent: text(), prompt: big });
    expect(out.transcript.error).toBeUndefined();
    expect(out.transcript.result).toContain(`with ${big.length} characters.`);
    const viaArg = await runAdapter(adapter, {
      agent: text({ prompt_via: 'arg', args: ['--arg'] }),
      prompt: big,
    });
    expect(viaArg.transcript.error?.class).toBe('crash');
    expect(viaArg.transcript.error?.message).toMatch(/E2BIG|too long/);
  });
});

describe('module adapter (.ts through jiti)', () => {
  const source = {
    configDir: FIXTURES,
    config: { adapters: { toy: join(FIXTURES, 'module-adapter/shell-adapter.ts') } },
  };

  it('runs through getAdapter with the same outcomes as the command adapter', async () => {
    const toy = await getAdapter('toy', source);
    expect(toy.name).toBe('toy');
    const ok = await runAdapter(toy, { agent: agentEntry('toy'), prompt: 'make it', keep: true });
    try {
      expect(ok.transcript.error).toBeUndefined();
      expect(existsSync(join(ok.ws.work, 'out.txt'))).toBe(true);
      expect(toolCalls(ok.transcript)).toHaveLength(1);
      expect(ok.transcript.usage.input).toBe(100);
    } finally {
      await ok.cleanup();
    }
    const viaModel = await runAdapter(toy, {
      agent: agentEntry('toy', { model: 'm1' }),
      prompt: 'FAIL_TOOL',
    });
    expect(toolResults(viaModel.transcript).some((r) => r.isError && (r.exitCode ?? 0) > 0)).toBe(true);
    const crash = await runAdapter(toy, { agent: agentEntry('toy'), prompt: 'CRASH' });
    expect(crash.transcript.error?.class).toBe('crash');
    const hang = await runAdapter(toy, { agent: agentEntry('toy'), prompt: 'HANG', timeoutMs: 700 });
    expect(hang.transcript.error?.class).toBe('timeout');
    expect(hang.leftovers).toEqual([]);
  });
});

describe('built-in adapters with `command`', () => {
  it('run the given executable (relative to the config dir) instead of the CLI on PATH', async () => {
    const claude = await getAdapter('claude-code', { configDir, config: { adapters: {} } });
    const out = await runAdapter(claude, {
      agent: agentEntry('claude-code', { command: './command-agent/ndjson-agent.sh' }),
      prompt: 'make out.txt',
      keep: true,
    });
    try {
      expect(readFileSync(join(out.ws.work, 'out.txt'), 'utf8')).toBe('hi\n');
      expect(out.transcript.exitCode).toBe(0);
    } finally {
      await out.cleanup();
    }
  });
});

describe('the example agent in docs/adapters.md', () => {
  it('is the tested fixture, and its events come through as documented', async () => {
    const script = readFileSync(join(FIXTURES, 'command-agent/my-agent.sh'), 'utf8');
    expect(readFileSync(join(ROOT, 'docs/adapters.md'), 'utf8')).toContain(script);
    const out = await runAdapter(adapter, {
      agent: ndjson({ command: './command-agent/my-agent.sh' }),
      prompt: 'say "hi"\tand\nmore \\ text',
      keep: true,
    });
    try {
      const t = out.transcript;
      expect(t.error).toBeUndefined();
      expect(t.events.find((e) => e.kind === 'text')).toMatchObject({
        text: 'Working on: say "hi"\tand\nmore \\ text',
      });
      expect(toolResults(t)).toMatchObject([
        { callId: 'c1', isError: false, exitCode: 0 },
        { callId: 'c2', isError: true, exitCode: 2 },
      ]);
      expect(t.usage).toMatchObject({ input: 1200, output: 80 });
      expect(t.result).toBe('notes.md written; ls missing failed as expected.');
      expect(readFileSync(join(out.ws.work, 'notes.md'), 'utf8')).toBe('todo\n');
    } finally {
      await out.cleanup();
    }
  });
});
