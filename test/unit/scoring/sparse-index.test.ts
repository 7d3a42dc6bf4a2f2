import { describe, expect, it } from 'vitest';
import {
  buildSparseIndex,
  clean,
  formatBytes,
  formatDuration,
  inputSummary,
  redact,
  SECRET_HINT,
  SPACE_RUNS,
  sparseCounts,
  tenths,
} from '../../../src/scoring/sparse-index.js';
import { randomText, seeded } from '../../helpers/random.js';
import { call, classified, error, result, text, thinking } from './helpers.js';

describe('buildSparseIndex', () => {
  const events = [
    text('I will list the files first.', 0),
    call('a', 'Bash', { command: 'ls -la', description: 'List files' }, 100),
    result('a', 'x'.repeat(2000), { at: 112 }),
    call('b', 'WebFetch', { url: 'https://example.com' }, 200, 'received'),
    result('b', 'Not found', { at: 1700, httpStatus: 404, isError: true }),
    call('c', 'Bash', { command: 'curl -s https://api.example.com' }),
    result('c', '{}', { exitCode: 7 }),
    thinking('', 1800),
    call('d', 'frobnicate', { level: 3 }),
    error('API Error: 500\nretrying', { errorClass: 'api_error' }),
  ];

  it('writes a header with counts and one line per interaction', () => {
    const index = buildSparseIndex(classified(events), {
      scenarioKey: 'cms/create-post',
      agentName: 'claude-code',
    });
    expect(index.split('\n')).toEqual([
      '# Sparse Index: cms/create-post / claude-code',
      '# 7 interactions | env: 2 | svc: 3 | agent: 3 | errors: 3 | unclassified: 1',
      '#1    agent       reasoning "I will list the files first." -> ok 28B -',
      '#2    env         tool      Bash(command: ls -la, description: List files) -> ok 2.0KB 12ms',
      '#3    service     tool      WebFetch(url: https://example.com) -> error(HTTP 404) 38B ~1.5s',
      '#4    env,service tool      Bash(command: curl -s https://api.example.com) -> error(exit 7) 47B -',
      '#5    agent       reasoning (thinking) -> ok 0B 100ms',
      '#6    service?    tool      frobnicate(level: 3) -> no-result 11B -',
      '#7    agent       error     "API Error: 500 retrying" -> error(api_error) 23B -',
      '',
    ]);
  });

  it('counts multi-category interactions in each category', () => {
    expect(sparseCounts(classified(events))).toEqual({
      interactions: 7,
      environment: 2,
      service: 3,
      agent: 3,
      errors: 3,
      unclassified: 1,
    });
  });

  it('keeps secrets and control characters out of the lines', () => {
    const list = classified([
      call('a', 'Bash', { command: 'curl -H "Authorization: Bearer abcdef0123456789xyz" https://x' }),
      call('b', 'http_request', { url: 'https://x', api_key: 'sk-live-123456789abcdef' }),
      text('line1\n\tline2\u0007\u2028end'),
    ]);
    const index = buildSparseIndex(list, { scenarioKey: 'k', agentName: 'a' });
    expect(index).not.toContain('abcdef0123456789xyz');
    expect(index).not.toContain('sk-live');
    expect(index).toContain('Bearer [redacted]');
    expect(index).toContain('api_key: [redacted]');
    expect(index).toContain('"line1 line2 end"');
    expect(index.split('\n')).toHaveLength(2 + 3 + 1);
  });
});

describe('sparse index pieces', () => {
  it('summarises inputs from primitive fields and cuts at 60 characters', () => {
    expect(inputSummary({ file_path: '/a/b.ts', limit: 10, recursive: true, nested: { x: 1 } })).toBe(
      'file_path: /a/b.ts, limit: 10, recursive: true',
    );
    const long = inputSummary({ command: 'x'.repeat(500) });
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
    expect(inputSummary('raw string input')).toBe('raw string input');
    expect(inputSummary([1, 2, 3])).toBe('[3 items]');
    expect(inputSummary(undefined)).toBe('');
  });

  it('formats sizes and durations', () => {
    expect([
      formatBytes(0),
      formatBytes(1023),
      formatBytes(1024),
      formatBytes(1536),
      formatBytes(3 * 1024 * 1024),
    ]).toEqual(['0B', '1023B', '1.0KB', '1.5KB', '3.0MB']);
    expect(formatDuration(null, 'none')).toBe('-');
    expect(formatDuration(999, 'agent')).toBe('999ms');
    expect(formatDuration(1250, 'agent')).toBe('1.3s');
    expect(formatDuration(40, 'received')).toBe('~40ms');
  });

  it('masks common credential shapes', () => {
    expect(redact('token=abcd1234&x=1')).toBe('token=[redacted]&x=1');
    expect(redact('key ghp_0123456789abcdefghij here')).toBe('key [redacted] here');
    expect(redact('AKIAABCDEFGHIJKLMNOP')).toBe('[redacted]');
    expect(clean('  a \n\n b  ', 80)).toBe('a b');
  });
});

describe('the fast forms agree with the plain ones', () => {
  it('tenths is toFixed(1) of the quotient, for every KB size and sampled MB sizes', () => {
    let bad = 0;
    for (let n = 1024; n < 1024 * 1024; n++) if (tenths(n, 1024) !== (n / 1024).toFixed(1)) bad++;
    expect(bad).toBe(0);
    const rand = seeded(11);
    const mb = 1024 * 1024;
    const sizes = [mb, mb + mb / 20, 5 * mb + 52_428, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER, 1536.5];
    for (let i = 0; i < 10_000; i++) sizes.push(Math.floor(rand() * 2 ** 34));
    for (const n of sizes) expect(tenths(n, mb), String(n)).toBe((n / mb).toFixed(1));
    expect(formatBytes(1536)).toBe('1.5KB');
    expect(formatBytes(3 * mb)).toBe('3.0MB');
  });

  it('SPACE_RUNS collapses exactly what the plain run class collapses', () => {
    // eslint-disable-next-line no-control-regex
    const PLAIN_RUNS = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
    const chars = [
      'a',
      'b',
      ' ',
      ' ',
      '\t',
      '\n',
      '\r',
      '\u0000',
      '\u0007',
      '\u007f',
      '\u0085',
      '\u009f',
      '\u00a0',
      '\u2028',
      '\u2029',
      '\u3000',
      '\ufeff',
      '\u200b',
      'é',
      '-',
    ];
    const rand = seeded(5);
    for (let i = 0; i < 30_000; i++) {
      const s = randomText(rand, chars, 12);
      expect(s.replace(SPACE_RUNS, ' '), JSON.stringify(s)).toBe(s.replace(PLAIN_RUNS, ' '));
    }
    expect(clean(' a  b\u00a0c\u2028 d ', 80)).toBe('a b c d');
  });
});

describe('the secret pre-check', () => {
  // The plain form of SECRET_HINT; the source keeps a factored one that V8 scans faster.
  const PLAIN_HINT =
    /bearer|basic|token|secret|passw|api[_-]?key|akia|(?:sk|pk|rk|gh[opsu]|pat|glpat|xox[abpr])[-_]/i;
  const words = ['bearer', 'basic', 'token', 'secret', 'passw', 'api_key', 'api-key', 'apikey', 'akia'];
  const prefixes = [
    'sk',
    'pk',
    'rk',
    'gho',
    'ghp',
    'ghs',
    'ghu',
    'pat',
    'glpat',
    'xoxa',
    'xoxb',
    'xoxp',
    'xoxr',
  ];
  const near = ['beare', 'basi', 'toke', 'secre', 'pass', 'api_ke', 'aki', 'ghx_', 'xoxc_', 'glpa_', 's k_'];

  it('agrees with the plain alternation on every alternative, in any case, and on near misses', () => {
    const samples = [
      ...words,
      ...prefixes.flatMap((p) => [`${p}-`, `${p}_`, p]),
      ...near,
      '',
      'nothing to see here',
    ];
    // Every sample, upper-cased and mixed-cased, alone and inside other text.
    const variants = samples.flatMap((s) => {
      const mixed = [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
      return [s, s.toUpperCase(), mixed].flatMap((v) => [v, `xx ${v} yy`, `a${v}`]);
    });
    let hits = 0;
    for (const v of variants) {
      expect(SECRET_HINT.test(v), JSON.stringify(v)).toBe(PLAIN_HINT.test(v));
      if (PLAIN_HINT.test(v)) hits++;
    }
    expect(hits).toBeGreaterThan(100);
  });

  it('agrees on random text made of the alternatives’ letters', () => {
    const letters = 'abceghiklnoprstuwxyAKP_- ';
    const rand = seeded(7);
    let hits = 0;
    for (let n = 0; n < 20_000; n++) {
      const s = randomText(rand, [...letters], 12, 2);
      expect(SECRET_HINT.test(s), s).toBe(PLAIN_HINT.test(s));
      if (PLAIN_HINT.test(s)) hits++;
    }
    expect(hits).toBeGreaterThan(50);
  });
});
