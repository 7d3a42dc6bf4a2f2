/**
 * One token total (docs/transcript.md#tokens): AXIS's `input` already holds the tokens written to a cache
 * (`cacheWriteInput` is the part of it), so the total is input + output + cache reads. Counting
 * `cacheWriteInput` again put Claude Code's cache writes twice into the job line, the token limits, the
 * summary, `axis reports`, JUnit and report.html.
 */
import { describe, expect, it } from 'vitest';
import { totalTokens } from '../../../src/report/job-result.js';
import { tokens } from '../../../src/report/format.js';
import { createAxisNdjsonParser } from '../../../src/transcript/axis-ndjson.js';
import { usageOf } from '../../../src/transcript/claude-result.js';
import { parse } from './helpers.js';

// One Claude API call: 10 fresh input tokens, 300 written to the cache, 2,000 read from it, 40 out.
const claudeCall = {
  input_tokens: 10,
  cache_creation_input_tokens: 300,
  cache_read_input_tokens: 2_000,
  output_tokens: 40,
};

describe('the token total', () => {
  it('counts a Claude call once per token', () => {
    const u = usageOf(claudeCall);
    expect(u).toEqual({ input: 310, output: 40, cacheReadInput: 2_000, cacheWriteInput: 300 });
    expect(totalTokens(u)).toBe(2_350);
    expect(tokens(u)).toBe(2_350);
  });

  it('counts a Claude stream-json run once per token', () => {
    const p = parse(
      'claude',
      [
        JSON.stringify({ type: 'system', subtype: 'init', session_id: 's', model: 'm', tools: [] }),
        JSON.stringify({
          type: 'result',
          subtype: 'success',
          is_error: false,
          result: 'done',
          usage: claudeCall,
        }),
      ].join('\n'),
    );
    expect(totalTokens(p.usage)).toBe(2_350);
  });

  it('reads AXIS NDJSON usage as four disjoint counts, cache writes added to input', () => {
    const parser = createAxisNdjsonParser();
    parser.push('{"type":"usage","input":10,"output":40,"cache_read":2000,"cache_write":300}');
    const u = parser.usage();
    expect(u).toEqual({ input: 310, output: 40, cacheReadInput: 2_000, cacheWriteInput: 300 });
    expect(totalTokens(u)).toBe(2_350);
  });
});
