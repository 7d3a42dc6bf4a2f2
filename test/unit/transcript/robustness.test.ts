import { describe, expect, it } from 'vitest';
import { parseCodexRollout } from '../../../src/transcript/codex-rollout.js';
import { parseGeminiJson } from '../../../src/transcript/gemini.js';
import { isStreamFormat, parserFor, STREAM_FORMATS } from '../../../src/transcript/registry.js';
import { MAX_EVENT_DEPTH, parseLine } from '../../../src/transcript/util.js';
import { bracketsOver } from '../../../src/util/depth.js';
import { sample, synthetic } from './helpers.js';

const SOURCES: Record<string, string[]> = {
  claude: ['claude-stream.ndjson', 'claude-stream-partial.ndjson', 'claude-stream-http500.ndjson'],
  qwen: ['qwen-stream.ndjson', 'qwen-stream-http500.ndjson'],
  codex: ['codex-exec.ndjson', 'codex-exec-http500.ndjson'],
  gemini: ['gemini-stream.ndjson'],
  opencode: ['opencode-run.ndjson', 'opencode-run-http500.ndjson'],
};
const SYNTHETIC: Record<string, string[]> = {
  claude: ['claude-parallel-thinking.ndjson'],
  codex: ['codex-items.ndjson'],
  gemini: ['gemini-exit-codes.ndjson'],
  opencode: ['opencode-tool-error.ndjson'],
  acp: ['acp-session.ndjson'],
  ndjson: ['axis-ndjson-example.ndjson'],
  text: ['axis-ndjson-example.ndjson'],
};

function linesFor(format: string): string[] {
  const real = (SOURCES[format] ?? []).map(sample);
  const fake = (SYNTHETIC[format] ?? []).map(synthetic);
  return [...real, ...fake].flatMap((t) => t.split('\n')).filter((l) => l.trim() !== '');
}

/** Copies of `value` with one field at a time replaced by a value of the wrong type. */
function* typeConfused(value: unknown, depth = 0): Generator<unknown> {
  const wrong: unknown[] = [null, 42, 'x', [], {}, true];
  if (depth > 4 || typeof value !== 'object' || value === null) return;
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    for (const w of wrong) {
      const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
      copy[key] = w;
      yield copy;
    }
    for (const inner of typeConfused(child, depth + 1)) {
      const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
      copy[key] = inner;
      yield copy;
    }
  }
}

const GARBAGE = [
  'not json at all',
  '{"type":',
  '{"type":"assistant","message":',
  '[1,2,3]',
  '42',
  'null',
  '"a string"',
  '{}',
  '{"type":null}',
  '\u0000\u0001\u0002',
  '{"type":"result","usage":"lots"}',
  '\uFEFF{"type":"text"}',
];

describe.each(STREAM_FORMATS.map((f) => [f]))('%s parser robustness', (format) => {
  it('never throws on garbage and keeps malformed lines as unparsed', () => {
    const parser = parserFor(format);
    for (const line of GARBAGE) parser.push(line, 1);
    const out = parser.finish();
    expect(Array.isArray(out.events)).toBe(true);
    if (format !== 'text') {
      const unparsed = out.events.filter((e) => e.kind === 'system' && e.subtype === 'unparsed');
      expect(unparsed.length).toBeGreaterThan(0);
      expect(unparsed[0]).toMatchObject({ data: { reason: expect.any(String), line: expect.any(String) } });
    }
  });

  it('never throws on truncated or type-confused versions of real lines', () => {
    const parser = parserFor(format);
    let pushed = 0;
    for (const line of linesFor(format)) {
      for (const cut of [1, Math.floor(line.length / 3), Math.floor(line.length / 2), line.length - 1]) {
        parser.push(line.slice(0, cut));
        pushed++;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(line);
      } catch {
        continue;
      }
      for (const variant of typeConfused(doc)) {
        parser.push(JSON.stringify(variant));
        parser.usage();
        pushed++;
      }
    }
    expect(pushed).toBeGreaterThan(10);
    const out = parser.finish();
    expect(out.usage.input).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(out.usage.output)).toBe(true);
  });

  it('a very long line is handled, and an unparsed copy is truncated', () => {
    const parser = parserFor(format);
    const big = 'x'.repeat(3_000_000);
    parser.push(`{"type":"text","text":"${big}"`, 1); // unterminated
    parser.push(`garbage ${big}`, 1);
    const out = parser.finish();
    const copies = out.events.filter((e) => e.kind === 'system' && e.subtype === 'unparsed');
    for (const c of copies) {
      const line = (c.kind === 'system' && c.data?.line) as string;
      expect(line.length).toBeLessThanOrEqual(2001);
      expect(c.kind === 'system' && c.data?.length).toBeGreaterThan(3_000_000);
    }
  });
});

describe('long valid lines', () => {
  it('a 5 MB tool output survives intact', () => {
    const output = 'y'.repeat(5_000_000);
    const parser = parserFor('claude');
    parser.push(
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't', content: output, is_error: false }],
        },
      }),
    );
    const [ev] = parser.finish().events;
    expect(ev?.kind === 'tool_result' && ev.output.length).toBe(5_000_000);
  });
});

describe('deeply nested lines', () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it(`parseLine keeps a line nested ${MAX_EVENT_DEPTH} levels and refuses one level more`, () => {
    expect(parseLine(nested(MAX_EVENT_DEPTH)).kind).toBe('json');
    expect(parseLine(nested(MAX_EVENT_DEPTH + 1))).toEqual({
      kind: 'bad',
      reason: `nested deeper than ${MAX_EVENT_DEPTH} levels`,
    });
    expect(parseLine(`{"x":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`).kind).toBe('bad');
  });

  it('a shallow line whose text holds many brackets is parsed (the bracket count only decides whether to walk)', () => {
    const text = `{[${'{['.repeat(5_000)}`;
    expect(bracketsOver(`{"text":${JSON.stringify(text)}}`, MAX_EVENT_DEPTH)).toBe(true);
    expect(parseLine(`{"text":${JSON.stringify(text)},"list":[[1],[2],{"a":[3]}]}`).kind).toBe('json');
  });

  it('bracketsOver counts { and [ together, outside strings and in them', () => {
    for (const max of [0, 1, 5, MAX_EVENT_DEPTH]) {
      for (const n of [max, max + 1]) {
        const half = Math.floor(n / 2);
        const text = `${'{'.repeat(half)}"x"${'['.repeat(n - half)}"}]"`;
        expect(bracketsOver(text, max)).toBe(n > max);
      }
    }
    expect(bracketsOver('no brackets at all', 0)).toBe(false);
  });

  it.each(STREAM_FORMATS.filter((f) => f !== 'text'))(
    '%s keeps a line 100000 levels deep as unparsed',
    (format) => {
      const parser = parserFor(format);
      parser.push(`{"type":"tool_call","name":"x","input":${nested(100_000)}}`, 1);
      const events = parser.finish().events.filter((e) => e.kind === 'system' && e.subtype === 'unparsed');
      expect(events.map((e) => e.kind === 'system' && e.data?.reason)).toEqual([
        `nested deeper than ${MAX_EVENT_DEPTH} levels`,
      ]);
    },
  );
});

describe('whole-file helpers never throw', () => {
  it('parseCodexRollout and parseGeminiJson on garbage', () => {
    expect(
      parseCodexRollout(
        'garbage\n{"type":"response_item","payload":7}\n{"type":"event_msg","payload":{"type":"token_count","info":[]}}',
      ).events,
    ).toEqual([
      {
        kind: 'system',
        subtype: 'unparsed',
        data: { reason: 'not a JSON object', line: 'garbage', length: 7 },
      },
    ]);
    expect(parseGeminiJson('{"stats":{"models":[1,2]},"response":3}').result).toBeNull();
  });
});

describe('registry', () => {
  it('gives a fresh parser per format and accepts agent names', () => {
    expect(parserFor('claude')).not.toBe(parserFor('claude'));
    for (const alias of ['claude-code', 'qwen-code', 'gemini-cli', 'axis-ndjson']) {
      expect(typeof parserFor(alias).push).toBe('function');
    }
    expect(isStreamFormat('codex')).toBe(true);
    expect(isStreamFormat('claude-code')).toBe(false);
  });

  it('rejects an unknown kind with the list of known ones', () => {
    expect(() => parserFor('goose')).toThrow(
      'No transcript parser for "goose" (expected one of: claude, qwen, codex, gemini, opencode, acp, ndjson, text)',
    );
  });
});
