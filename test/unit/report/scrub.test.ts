import { describe, expect, it } from 'vitest';
import { createScrubber, REDACTED } from '../../../src/report/scrub.js';
import { randomText, seeded } from '../../helpers/random.js';

/** The scrubber's plain definition: every path (longest first), then every secret, replaced everywhere. */
function plainText(s: string, paths: [string, string][], secrets: string[]): string {
  let out = s;
  for (const [from, to] of [...paths].sort((a, b) => b[0].length - a[0].length))
    out = out.split(from).join(to);
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    out = out.split(secret).join(REDACTED);
  return out;
}

describe('createScrubber', () => {
  const paths: [string, string][] = [
    ['/tmp/axis-ab12/work', '<workspace>'],
    ['/tmp/axis-ab12', '<job>'],
    ['/home/dev/project', '.'],
    ['/tmp', '<tmp>'],
  ];
  const secrets = ['sk-live-123', 'hunter2', 'ab12'];

  it('gives what the plain definition gives: paths longest first, then secrets', () => {
    const scrub = createScrubber({ paths, secrets });
    const pieces = [
      '/tmp',
      '/axis-ab12',
      '/work',
      '/home/dev/project',
      'sk-live-123',
      'hunter2',
      'ab',
      '12',
      '/',
      'x',
      ' ',
      'tmp',
      '"',
      '\\',
      'é',
      '\n',
    ];
    const rand = seeded(3);
    let changed = 0;
    for (let i = 0; i < 20_000; i++) {
      const s = randomText(rand, pieces, 8);
      const want = plainText(s, paths, secrets);
      expect(scrub.text(s), JSON.stringify(s)).toBe(want);
      if (want !== s) changed++;
    }
    expect(changed).toBeGreaterThan(5_000);
    expect(scrub.text('ab')).toBe('ab');
    expect(scrub.text('no slash, hunter2 here')).toBe(`no slash, ${REDACTED} here`);
  });

  it('paths that are not absolute are still replaced in text without a slash', () => {
    const scrub = createScrubber({
      paths: [
        ['C:\\proj', '.'],
        ['/tmp/x', '<tmp>'],
      ],
      secrets: ['hunter2'],
    });
    expect(scrub.text('at C:\\proj\\a, hunter2')).toBe(`at .\\a, ${REDACTED}`);
    expect(scrub.text('/tmp/x/y C:\\proj')).toBe('<tmp>/y .');
    expect(scrub.value({ k: ['C:\\proj', 'plain'] })).toEqual({ k: ['.', 'plain'] });
  });

  it('lines: JSON-escaped forms too, with or without a path', () => {
    const scrub = createScrubber({ paths: [['/tmp/a"b', '<w>']], secrets: ['p"w'] });
    expect(scrub.line(JSON.stringify({ cwd: '/tmp/a"b/x', key: 'p"w' }))).toBe(
      JSON.stringify({ cwd: '<w>/x', key: REDACTED }),
    );
    expect(scrub.line('{"k":"p\\\\"}')).toBe('{"k":"p\\\\"}');
  });

  it('replaces paths of any form, in values too', () => {
    const scrub = createScrubber({
      paths: [
        ['C:\\\\x', '<a>'],
        ['/y/z', '<b>'],
      ],
      secrets: [],
    });
    expect(scrub.text('C:\\\\x and /y/z')).toBe('<a> and <b>');
    expect(scrub.value({ p: ['/y/z/1', 'none'] })).toEqual({ p: ['<b>/1', 'none'] });
  });
});
