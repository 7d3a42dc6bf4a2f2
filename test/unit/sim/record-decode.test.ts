import { describe, expect, it } from 'vitest';
import { CODECS, encodeFrame } from '../../../src/sim/codecs/index.js';
import { decodeReply, parseSseEvents } from '../../../src/sim/record-decode.js';
import type { NeutralReply, NeutralRequest, ProviderId } from '../../../src/sim/types.js';

const reply: NeutralReply = {
  text: 'I will run the tests and then fix them.',
  thinking: 'The user wants green tests.',
  toolCalls: [
    { id: 'call_a', name: 'Bash', args: { command: 'npm test', nested: { deep: [1, 'two'] } } },
    { id: 'call_b', name: 'Write', args: { file_path: '/w/a.txt', content: 'é\n' } },
  ],
  usage: { input: 120, output: 34 },
};

const PROVIDERS: ProviderId[] = ['anthropic', 'openai-responses', 'openai-chat', 'gemini'];

function ctx(provider: ProviderId, body: Record<string, unknown> = {}) {
  const req = { provider, model: 'm-1' } as NeutralRequest;
  return { req, seq: 7, body };
}

describe('decodeReply: the inverse of each codec', () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: streamed frames and the JSON body both decode to the reply`, () => {
      const codec = CODECS[provider];
      const sse = codec.frames(reply, ctx(provider)).map(encodeFrame).join('');
      const json = JSON.stringify(codec.json(reply, ctx(provider)));
      // Gemini calls carry ids only when the model sent them; the simulator does.
      const expected = {
        text: reply.text,
        thinking: reply.thinking,
        toolCalls: reply.toolCalls,
        usage: reply.usage,
      };
      expect(decodeReply(provider, sse, true)).toEqual(expected);
      expect(decodeReply(provider, json, false)).toEqual(expected);
    });
  }

  it('openai-chat with include_usage: usage comes from the final chunk without choices', () => {
    const codec = CODECS['openai-chat'];
    const frames = codec.frames(reply, ctx('openai-chat', { stream_options: { include_usage: true } }));
    const decoded = decodeReply('openai-chat', frames.map(encodeFrame).join(''), true);
    expect(decoded.usage).toEqual({ input: 120, output: 34 });
    expect(decoded.toolCalls.map((c) => c.name)).toEqual(['Bash', 'Write']);
  });

  it('anthropic: cached input tokens count as input; CRLF line ends are read', () => {
    const sse = [
      'event: message_start',
      'data: {"type":"message_start","message":{"usage":{"input_tokens":5,"cache_read_input_tokens":100,"cache_creation_input_tokens":20,"output_tokens":1}}}',
      '',
      'event: content_block_start',
      'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
      '',
      'event: content_block_delta',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
      '',
      'event: message_delta',
      'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}',
      '',
      '',
    ].join('\r\n');
    expect(decodeReply('anthropic', sse, true)).toEqual({
      text: 'hi',
      thinking: '',
      toolCalls: [],
      usage: { input: 125, output: 9 },
    });
  });

  it('an error event or error body becomes `error`; garbage does not throw', () => {
    const sse =
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    expect(decodeReply('anthropic', sse, true).error).toBe('Overloaded');
    expect(decodeReply('openai-chat', '{"error":{"message":"bad key"}}', false).error).toBe('bad key');
    expect(decodeReply('gemini', '{"error":{"code":429,"message":"quota"}}', false).error).toBe('quota');
    expect(decodeReply('openai-responses', 'not json', false).error).toMatch(
      /cannot read the openai-responses answer/,
    );
  });

  it('parseSseEvents joins multi-line data and skips comments', () => {
    expect(parseSseEvents(': ping\n\nevent: x\ndata: a\ndata: b\n\ndata:[DONE]\n\n')).toEqual([
      { event: 'x', data: 'a\nb' },
      { data: '[DONE]' },
    ]);
  });
});
