import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTape, loadTape, parseTape } from '../../../src/sim/index.js';
import { MAX_TAPE_DEPTH } from '../../../src/sim/tape.js';
import { ConfigError } from '../../../src/util/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-tape-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** The issues a bad tape raises, as `path: message` strings. */
function issues(data: unknown): string[] {
  try {
    parseTape(data, 'tape.json');
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(2);
    return (err as ConfigError).issues.map((i) => `${i.file}: ${i.path}: ${i.message}`);
  }
  throw new Error('expected the tape to be rejected');
}

describe('tape loading', () => {
  it('points a recording at `axis sim replay` instead of listing unknown keys', () => {
    const err = (() => {
      try {
        parseTape({ format: 'axis-sim-recording', version: 1, turns: [], side: [] }, 'rec.json');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues).toEqual([
      {
        file: 'rec.json',
        path: 'format',
        message:
          'this is a recording made by `axis sim record`, not a scripted tape: serve it with `axis sim replay --tape <file>`',
      },
    ]);
  });

  it('loads a JSON tape with every neutral tool', async () => {
    const p = file(
      'ok.json',
      JSON.stringify({
        name: 'all tools',
        turns: [
          {
            id: 'start',
            text: 'working',
            thinking: 'plan',
            tools: [
              { shell: 'ls' },
              { write_file: { path: 'a.txt', content: 'x' } },
              { read_file: { path: 'a.txt' } },
              { edit_file: { path: 'a.txt', old: 'x', new: 'y' } },
              { fetch: { url: 'http://127.0.0.1/' } },
              { mcp: { server: 'docs', tool: 'search', args: { q: 'x' } } },
              { raw: { name: 'Glob', args: { pattern: '*' } } },
            ],
            next: [
              { if: { exit_nonzero: true }, goto: 'start' },
              { if: { result_matches: 'a+' }, goto: 1 },
            ],
            delay_ms: 5,
          },
          { text: 'done', fault: { status: 429, times: 1, body: { error: 'slow down' } } },
        ],
        judge: [{ match: '/score/i', answer: { score: 80 } }, { fault: { status: 500 } }],
      }),
    );
    const tape = await loadTape(p);
    expect(tape.name).toBe('all tools');
    expect(tape.turns).toHaveLength(2);
    expect(tape.turns[0]?.tools).toHaveLength(7);
    expect(tape.judge).toHaveLength(2);
  });

  it('loads a TypeScript tape through jiti (default export via defineTape)', async () => {
    const p = file(
      'tape.ts',
      `const n: number = 2;\nexport default { name: 'ts tape', turns: [{ text: 'turn ' + n }] };\n`,
    );
    const tape = await loadTape(p);
    expect(tape).toEqual({ name: 'ts tape', turns: [{ text: 'turn 2' }] });
    expect(defineTape(tape)).toBe(tape);
  });

  it('names the file when it is missing, not JSON, or of an unknown kind', async () => {
    await expect(loadTape(join(dir, 'missing.json'))).rejects.toThrow(
      /missing\.json: cannot read tape: ENOENT/,
    );
    await expect(loadTape(join(dir, 'missing.ts'))).rejects.toThrow(/missing\.ts: cannot read tape: ENOENT/);
    await expect(loadTape(file('broken.json', '{"turns": ['))).rejects.toThrow(/broken\.json: invalid JSON/);
    await expect(loadTape(file('tape.yaml', 'turns: []'))).rejects.toThrow(
      /tape\.yaml: expected a \.json, \.ts or \.js tape, found "\.yaml"/,
    );
    await expect(loadTape(file('bad.ts', 'export default {{{'))).rejects.toThrow(/bad\.ts: cannot load tape/);
    await expect(loadTape(file('none.ts', 'export const other = 1;'))).rejects.toThrow(
      /none\.ts: expected a default export/,
    );
  });

  it('reads JSON as configs are read: a BOM is skipped, a syntax error names its line and column', async () => {
    expect(await loadTape(file('bom.json', '\ufeff{"turns": [{"text": "hi"}]}'))).toEqual({
      turns: [{ text: 'hi' }],
    });
    await expect(loadTape(file('comma.json', '{"turns": [],\n}'))).rejects.toThrow(
      /comma\.json: invalid JSON at line 2, column 1: trailing comma before "}"/,
    );
    await expect(loadTape(file('empty.json', ''))).rejects.toThrow(
      /empty\.json: invalid JSON at line 1, column 1: the file is empty/,
    );
  });

  it(`refuses a tape nested deeper than ${MAX_TAPE_DEPTH} levels, naming where`, () => {
    const deep = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as unknown;
    expect(issues({ judge: [{ answer: deep(100_000) }] })).toEqual([
      `tape.json: judge[0].answer[0][0][0][0][0]…: nested deeper than ${MAX_TAPE_DEPTH} levels`,
    ]);
    expect(
      issues({ turns: [{ tools: [{ raw: { name: 'x', args: { a: deep(MAX_TAPE_DEPTH) } } }] }] }),
    ).toEqual([`tape.json: turns[0].tools[0].raw.args.a[0]…: nested deeper than ${MAX_TAPE_DEPTH} levels`]);
  });

  it(`a .json tape file nested deeper than ${MAX_TAPE_DEPTH} levels is refused when loaded`, async () => {
    const levels = MAX_TAPE_DEPTH + 1;
    const deepJson = `{"judge":[{"answer":${'['.repeat(levels)}${']'.repeat(levels)}}]}`;
    await expect(loadTape(file('deep.json', deepJson))).rejects.toThrow(
      `deep.json: judge[0].answer[0][0][0][0][0]…: nested deeper than ${MAX_TAPE_DEPTH} levels`,
    );
    const shallow = { turns: [{ text: '['.repeat(5_000) }] };
    expect(await loadTape(file('shallow.json', JSON.stringify(shallow)))).toEqual(shallow);
  });

  it('reports shape errors with the JSON path, expected and found', () => {
    expect(issues({ turns: [{ tools: [{ shel: 'ls' }] }] })).toEqual([
      'tape.json: turns[0].tools[0]: expected an object with exactly one of shell, write_file, read_file, edit_file, fetch, mcp, raw, found unknown tool "shel"',
    ]);
    expect(issues({ turns: [{ tools: [{ shell: 'ls', read_file: { path: 'a' } }] }] })[0]).toMatch(
      /turns\[0\]\.tools\[0\]: expected an object with exactly one of .*found keys \["shell","read_file"\]/,
    );
    expect(issues({ turns: [{ tools: [{ write_file: { path: 'a', content: 3 } }] }] })).toEqual([
      'tape.json: turns[0].tools[0].write_file.content: expected string, found number',
    ]);
    expect(issues({ turns: [{ text: 'x', fault: { status: 200 } }] })).toEqual([
      'tape.json: turns[0].fault.status: Too small: expected number to be >=400',
    ]);
    const fault =
      'expected a fault: {"status": 400-599}, {"drop": "mid-stream"} or {"malformed": true}, each with an optional "times" (an integer ≥ 1), found';
    expect(issues({ turns: [{ text: 'x', fault: { status: 500, times: 1.5 } }] })).toEqual([
      `tape.json: turns[0].fault: ${fault} {"status":500,"times":1.5}`,
    ]);
    expect(issues({ judge: [{ fault: { drop: 'early' } }] })).toEqual([
      `tape.json: judge[0].fault: ${fault} {"drop":"early"}`,
    ]);
    expect(issues({ turns: [{ fault: 'x'.repeat(100) }] })).toEqual([
      `tape.json: turns[0].fault: ${fault} "${'x'.repeat(59)}…`,
    ]);
    expect(issues({ turns: [{ text: 'x', colour: 'red' }] })[0]).toMatch(
      /turns\[0\]: Unrecognized key: "colour"/,
    );
    expect(issues({ turns: 'nope' })).toEqual(['tape.json: turns: expected array, found string']);
    expect(issues({ turns: [{ text: 'x', next: [{ if: {}, goto: 0 }] }] })[0]).toMatch(
      /turns\[0\]\.next\[0\]\.if: expected at least one of result_contains/,
    );
  });

  it('reports cross-field errors: goto targets, duplicate ids, empty turns, regexes, judge answers', () => {
    expect(
      issues({
        turns: [
          {
            id: 'a',
            text: 'x',
            next: [{ goto: 'zzz' }, { goto: 5 }, { if: { result_matches: '(' }, goto: 0 }],
          },
          { id: 'a', text: 'y' },
          {},
        ],
        judge: [{ match: '/(/', answer: 1 }, { match: 'x' }, { fault: { status: 429, times: 1 } }],
      }),
    ).toEqual([
      'tape.json: turns[1].id: duplicate id "a" (also turns[0])',
      'tape.json: turns[0].next[0].goto: expected a turn id (known: "a"), found "zzz"',
      'tape.json: turns[0].next[1].goto: expected a turn index below 3, found 5',
      expect.stringMatching(
        /^tape\.json: turns\[0\]\.next\[2\]\.if\.result_matches: invalid regular expression/,
      ),
      'tape.json: turns[2]: expected at least one of text, thinking, tools or fault',
      expect.stringMatching(/^tape\.json: judge\[0\]\.match: invalid regular expression/),
      'tape.json: judge[1].answer: expected an answer (only a fault without `times` may omit it)',
      'tape.json: judge[2].answer: expected an answer (only a fault without `times` may omit it)',
    ]);
  });

  it('accepts a judge-only tape and a fault-only turn', () => {
    expect(parseTape({ judge: [{ fault: { status: 500 } }] })).toEqual({
      turns: [],
      judge: [{ fault: { status: 500 } }],
    });
    expect(parseTape({ turns: [{ fault: { drop: 'mid-stream' } }] }).turns).toHaveLength(1);
  });
});
