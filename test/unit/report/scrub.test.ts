import { describe, expect, it } from 'vitest';
import { createScrubber, REDACTED, SCAN_BEFORE_REGEX } from '../../../src/report/scrub.js';
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

  it('paths and secrets are found as they are written, whatever characters they hold', () => {
    // Looked for one by one at first, then in one expression (SCAN_BEFORE_REGEX): its special
    // characters are literal. Both ways are checked, with the same answers.
    const scrub = createScrubber({
      paths: [
        ['/tmp/a+b(c)[d]{2}^$|x', '<w>'],
        ['/tmp/a', '<t>'],
      ],
      secrets: ['k.*y|z\\n', 's?'],
    });
    // Each needle, read as an expression, would not match itself.
    const strict = createScrubber({ paths: [['/tmp/(x)', '<p>']], secrets: ['a+b'] });
    const check = () => {
      expect(strict.text('at /tmp/(x)/f: a+b')).toBe(`at <p>/f: ${REDACTED}`);
      expect(strict.line('{"p":"/tmp/(x)","k":"a+b"}')).toBe(`{"p":"<p>","k":"${REDACTED}"}`);
      expect(scrub.text('/tmp/a+b(c)[d]{2}^$|x/f /tmp/ab')).toBe('<w>/f <t>b');
      expect(scrub.text('/tmp/aab(c)d22x/f')).toBe('<t>ab(c)d22x/f');
      expect(scrub.text('k.*y|z\\n and s? but not kxxy, z or s')).toBe(
        `${REDACTED} and ${REDACTED} but not kxxy, z or s`,
      );
      expect(scrub.text('nothing here: kaay /tmp/b')).toBe('nothing here: kaay /tmp/b');
      expect(scrub.line('{"p":"/tmp/a+b(c)[d]{2}^$|x","k":"k.*y|z\\\\n"}')).toBe(
        `{"p":"<w>","k":"${REDACTED}"}`,
      );
      expect(scrub.line('{"p":"/tmp/b","k":"kay"}')).toBe('{"p":"/tmp/b","k":"kay"}');
    };
    check();
    // Enough text with nothing to replace for every matcher to switch to its expression.
    const filler = `/usr/lib ${'x'.repeat(1000)}`;
    for (let n = 0; n <= SCAN_BEFORE_REGEX; n += filler.length) {
      for (const sc of [scrub, strict]) {
        expect(sc.text(filler)).toBe(filler);
        expect(sc.line(filler)).toBe(filler);
      }
    }
    check();
    const none = createScrubber({ paths: [], secrets: [] });
    expect(none.text('/tmp/a')).toBe('/tmp/a');
    expect(none.line('{"a":1}')).toBe('{"a":1}');
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

  describe('value: copy on write', () => {
    const scrub = () => createScrubber({ paths: [['/tmp/job', '<job>']], secrets: ['hunter2'] });

    /** The definition: a deep copy of every array and object, strings and keys scrubbed. */
    function plainValue(v: unknown, text: (s: string) => string): unknown {
      if (typeof v === 'string') return text(v);
      if (Array.isArray(v)) return v.map((x) => plainValue(x, text));
      if (v && typeof v === 'object') {
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(v)) {
          const x = (v as Record<string, unknown>)[k];
          if (x !== undefined) out[text(k)] = plainValue(x, text);
        }
        return out;
      }
      return v;
    }

    /** Every array and object reachable from `v`. */
    function containers(v: unknown, out = new Set<object>()): Set<object> {
      if (v && typeof v === 'object' && !out.has(v)) {
        out.add(v);
        for (const x of Object.values(v)) containers(x, out);
      }
      return out;
    }

    it('gives the plain deep copy, and never changes its input', () => {
      const rand = seeded(11);
      const leaves = ['plain', '/tmp/job/a', 'hunter2!', '', 'é', 3, true, null, undefined];
      const keys = ['a', 'b', '/tmp/job', 'hunter2', 'kind'];
      const gen = (depth: number): unknown => {
        const r = rand();
        if (depth > 3 || r < 0.35) return leaves[Math.floor(rand() * leaves.length)];
        if (r < 0.65) return Array.from({ length: Math.floor(rand() * 5) }, () => gen(depth + 1));
        const o: Record<string, unknown> = {};
        for (let i = Math.floor(rand() * 4); i > 0; i--)
          o[keys[Math.floor(rand() * keys.length)]!] = gen(depth + 1);
        return o;
      };
      let shared = 0;
      for (let i = 0; i < 2000; i++) {
        const s = scrub();
        const v = gen(0);
        const before = JSON.stringify(v);
        const out = s.value(v);
        expect(out).toEqual(plainValue(v, s.text));
        expect(JSON.stringify(v)).toBe(before);
        // Whatever is shared with the input needed no change: scrubbing it again gives itself.
        const mine = containers(v);
        for (const c of containers(out))
          if (mine.has(c)) {
            shared++;
            expect(s.value(c)).toBe(c);
          }
      }
      expect(shared).toBeGreaterThan(500);
    });

    it('shares what needs no change and copies only the path to what does', () => {
      const s = scrub();
      const clean = { list: [{ a: 1 }, { b: 'x' }], note: 'fine' };
      expect(s.value(clean)).toBe(clean);
      const mixed = { keep: { deep: ['a', 'b'] }, change: { at: '/tmp/job/x', other: { n: 1 } } };
      const out = s.value(mixed);
      expect(out).not.toBe(mixed);
      expect(out.keep).toBe(mixed.keep);
      expect(out.change).not.toBe(mixed.change);
      expect(out.change.other).toBe(mixed.change.other);
      expect(out.change.at).toBe('<job>/x');
      expect(mixed.change.at).toBe('/tmp/job/x');
    });

    it('drops undefined values, keeps holes, and turns other objects into plain ones as before', () => {
      const s = scrub();
      const withUndefined = { a: 1, b: undefined };
      const out = s.value(withUndefined);
      expect(out).not.toBe(withUndefined);
      expect(Object.keys(out)).toEqual(['a']);
      // eslint-disable-next-line no-sparse-arrays
      const holes = [1, , '/tmp/job', , 2];
      const h = s.value(holes);
      expect(h.length).toBe(5);
      expect(1 in h).toBe(false);
      expect(3 in h).toBe(false);
      expect(h[2]).toBe('<job>');
      class Box {
        v = 'hunter2';
      }
      const boxed = s.value({ box: new Box(), when: new Date(0) });
      expect(Object.getPrototypeOf(boxed.box)).toBe(Object.prototype);
      expect(boxed).toEqual({ box: { v: REDACTED }, when: {} });
    });

    it('a long array is scrubbed once: the same result again, and again after it changed length', () => {
      const s = scrub();
      // A run's events: 64 or more elements are remembered (shorter arrays are cheap to walk again).
      const events = [{ t: '/tmp/job/b' }, ...Array.from({ length: 63 }, (_, i) => ({ t: `e${i}` }))];
      const first = s.value(events);
      expect(first[0]).toEqual({ t: '<job>/b' });
      expect(s.value({ events }).events).toBe(first);
      events.push({ t: '/tmp/job/c' });
      const again = s.value(events);
      expect(again).toHaveLength(65);
      expect(again[64]).toEqual({ t: '<job>/c' });
      const unchanged = [{ t: 'a' }];
      expect(s.value(unchanged)).toBe(unchanged);
      expect(s.value({ x: unchanged }).x).toBe(unchanged);
    });

    it('a short array is walked again each time, with the same result', () => {
      const s = scrub();
      const short = [{ t: 'a' }, { t: '/tmp/job/b' }];
      const first = s.value(short);
      expect(first).toEqual([{ t: 'a' }, { t: '<job>/b' }]);
      expect(s.value(short)).toEqual(first);
      short.push({ t: '/tmp/job/c' });
      expect(s.value(short)).toEqual([...first, { t: '<job>/c' }]);
    });

    it('keeps key order, leaves out undefined values and copies only what changed', () => {
      const s = scrub();
      const inner = { keep: 'same' };
      const o = { a: 1, gone: undefined, p: '/tmp/job/x', inner, z: 'end' };
      const out = s.value(o);
      expect(Object.keys(out)).toEqual(['a', 'p', 'inner', 'z']);
      expect(out).toEqual({ a: 1, p: '<job>/x', inner: { keep: 'same' }, z: 'end' });
      expect(out.inner).toBe(inner);
      expect(o.p).toBe('/tmp/job/x');
      // A key that is a path is scrubbed like a value; an object with no change is itself.
      expect(s.value({ '/tmp/job/k': 1 })).toEqual({ '<job>/k': 1 });
      const clean = { a: [1, 'b'], c: { d: null } };
      expect(s.value(clean)).toBe(clean);
    });

    it('scrubbers of one secrets array share keys without a slash, never a path of one of them', () => {
      // One store's job scrubbers: the same secrets, each job's own paths.
      const secrets = Object.freeze(['hunter2']);
      const a = createScrubber({ secrets, paths: [['/tmp/job-a', '<job>']] });
      const b = createScrubber({ secrets, paths: [['/tmp/job-b', '<job>']] });
      const keys = { '/tmp/job-a/x': 1, '/tmp/job-b/y': 2, 'hunter2-key': 3, 'proj-key': 4, kind: 5 };
      const scrubbed = (x: string, y: string) => ({
        [x]: 1,
        [y]: 2,
        [`${REDACTED}-key`]: 3,
        'proj-key': 4,
        kind: 5,
      });
      expect(a.value(keys)).toEqual(scrubbed('<job>/x', '/tmp/job-b/y'));
      expect(b.value(keys)).toEqual(scrubbed('/tmp/job-a/x', '<job>/y'));
      // A path without a slash may be in any key: that scrubber keeps its keys to itself.
      const relative = createScrubber({ secrets, paths: [['proj', '.']] });
      expect(relative.value({ 'proj-key': 4, 'hunter2-key': 3 })).toEqual({
        '.-key': 4,
        [`${REDACTED}-key`]: 3,
      });
      expect(a.value({ 'proj-key': 4 })).toEqual({ 'proj-key': 4 });
      // Other secrets, other keys.
      const other = createScrubber({ secrets: ['proj'], paths: [['/tmp/job-a', '<job>']] });
      expect(other.value({ 'proj-key': 4, 'hunter2-key': 3 })).toEqual({
        [`${REDACTED}-key`]: 4,
        'hunter2-key': 3,
      });
    });
  });
});
