import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicJudge } from '../../../../src/scoring/judges/anthropic.js';
import { chatCompletionsUrl, createOpenAiJudge } from '../../../../src/scoring/judges/openai.js';
import { costOf } from '../../../../src/scoring/judges/prices.js';
import { anthropicReply, startServer, type TestServer } from './server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const retry = { maxRetries: 0, timeoutMs: 5_000 };
const req = { system: 'sys', messages: [{ role: 'user' as const, content: 'hello' }] };

describe('anthropic judge', () => {
  it('posts to /v1/messages with the key and version headers and reads text and usage', async () => {
    server = await startServer(() => anthropicReply('{"ok":1}', { input_tokens: 1000, output_tokens: 200 }));
    const judge = createAnthropicJudge({
      model: 'claude-sonnet-4-5',
      baseUrl: `${server.url}/v1/`,
      apiKey: 'sk-test',
      retry,
      cacheId: 'x',
    });
    const reply = await judge.complete(req);
    const seen = server.requests[0]!;
    expect(seen.path).toBe('/v1/messages');
    expect(seen.headers['x-api-key']).toBe('sk-test');
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      system: 'sys',
      temperature: 0,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(reply.text).toBe('{"ok":1}');
    expect(reply.usage).toEqual({ input: 1000, output: 200 });
    expect(reply.model).toBe('claude-sonnet-4-5-20250929');
    // $3 / $15 per million tokens.
    expect(reply.costUsd).toBeCloseTo(0.006, 10);
    expect(judge.label).toBe('anthropic claude-sonnet-4-5');
  });

  it('counts every prompt token once: cache writes and cache reads are input too', async () => {
    // The Messages API reports the four counts disjoint; a proxy that caches prompts sends all of them.
    const usage = {
      input_tokens: 100,
      cache_creation_input_tokens: 600,
      cache_read_input_tokens: 300,
      output_tokens: 200,
    };
    server = await startServer(() => anthropicReply('{"ok":1}', usage));
    const judge = createAnthropicJudge({
      model: 'claude-sonnet-4-5',
      baseUrl: server.url,
      apiKey: 'k',
      retry,
      cacheId: 'x',
    });
    const reply = await judge.complete(req);
    expect(reply.usage).toEqual({ input: 1000, output: 200 });
    expect(reply.costUsd).toBeCloseTo(0.006, 10);
  });

  it('uses a bearer token when there is no key, and no cost through the simulator', async () => {
    server = await startServer(() => anthropicReply('x'));
    const judge = createAnthropicJudge({
      model: 'm',
      baseUrl: server.url,
      authToken: 'tok-1',
      retry,
      via: 'simulator',
      cacheId: null,
    });
    const reply = await judge.complete(req);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok-1');
    expect(server.requests[0]!.headers['x-api-key']).toBeUndefined();
    expect(reply.costUsd).toBeUndefined();
    expect(judge.label).toBe('anthropic m (simulator)');
  });
});

describe('openai-compatible judge', () => {
  it('posts system + messages to <base>/chat/completions with a bearer key', async () => {
    server = await startServer(() => ({
      body: {
        model: 'gpt-4.1-2025-04-14',
        choices: [{ message: { role: 'assistant', content: '{"grades":[]}' } }],
        usage: { prompt_tokens: 500, completion_tokens: 50 },
      },
    }));
    const judge = createOpenAiJudge({
      model: 'gpt-4.1',
      baseUrl: `${server.url}/v1`,
      apiKey: 'sk-o',
      retry,
      cacheId: 'y',
    });
    const reply = await judge.complete(req);
    const seen = server.requests[0]!;
    expect(seen.path).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe('Bearer sk-o');
    expect(seen.body).toEqual({
      model: 'gpt-4.1',
      temperature: 0,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hello' },
      ],
    });
    expect(reply).toMatchObject({ text: '{"grades":[]}', usage: { input: 500, output: 50 }, attempts: 1 });
    expect(reply.costUsd).toBeCloseTo((500 * 2 + 50 * 8) / 1e6, 10);
  });

  it('works without a key (local servers) and leaves temperature out for reasoning models', async () => {
    server = await startServer(() => ({ body: { choices: [{ message: { content: 'hi' } }] } }));
    const judge = createOpenAiJudge({ model: 'o4-mini', baseUrl: `${server.url}/v1`, retry, cacheId: null });
    const reply = await judge.complete(req);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.body.temperature).toBeUndefined();
    expect(reply).toMatchObject({ text: 'hi', model: 'o4-mini', usage: { input: 0, output: 0 } });
    expect(reply.costUsd).toBeUndefined();
  });

  it('builds Azure URLs with api-version and uses the api-key header', async () => {
    expect(chatCompletionsUrl('https://r.openai.azure.com/openai/deployments/gpt4')).toEqual({
      url: 'https://r.openai.azure.com/openai/deployments/gpt4/chat/completions?api-version=2024-10-21',
      azure: true,
    });
    expect(
      chatCompletionsUrl('https://r.openai.azure.com/openai/deployments/d/?api-version=2025-01-01').url,
    ).toBe('https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2025-01-01');
    expect(chatCompletionsUrl('http://localhost:11434/v1')).toEqual({
      url: 'http://localhost:11434/v1/chat/completions',
      azure: false,
    });
  });
});

describe('price table', () => {
  it('matches model families by prefix and knows nothing else', () => {
    expect(costOf('claude-haiku-4-5-20251001', { input: 1_000_000, output: 1_000_000 })).toBe(6);
    expect(costOf('gpt-4.1-mini', { input: 1_000_000, output: 0 })).toBe(0.4);
    expect(costOf('gpt-4.1', { input: 0, output: 1_000_000 })).toBe(8);
    expect(costOf('llama3.1:8b', { input: 10, output: 10 })).toBeUndefined();
  });
});
