import { describe, expect, test } from 'vitest';
import { checkoutDir, parseSource } from '../../../src/config/sources.js';

describe('scenario sources', () => {
  test.each([
    [
      'https://github.com/acme/tests',
      { kind: 'git', url: 'https://github.com/acme/tests', host: 'github.com', owner: 'acme', repo: 'tests' },
    ],
    [
      'https://github.com/acme/tests.git#v1.2',
      {
        kind: 'git',
        url: 'https://github.com/acme/tests.git',
        ref: 'v1.2',
        host: 'github.com',
        owner: 'acme',
        repo: 'tests',
      },
    ],
    [
      'git@github.com:acme/tests.git',
      { kind: 'git', url: 'git@github.com:acme/tests.git', host: 'github.com', owner: 'acme', repo: 'tests' },
    ],
    [
      'ssh://git@gitlab.example.com:2222/group/sub/repo.git#main',
      {
        kind: 'git',
        url: 'ssh://git@gitlab.example.com:2222/group/sub/repo.git',
        ref: 'main',
        host: 'gitlab.example.com',
        owner: 'group/sub',
        repo: 'repo',
      },
    ],
    ['./scenarios', { kind: 'path', path: './scenarios' }],
    ['scenarios/cms/post.json', { kind: 'path', path: 'scenarios/cms/post.json' }],
    ['./suites/**/*.json', { kind: 'glob', pattern: './suites/**/*.json' }],
    ['hello-{a,b}.json', { kind: 'glob', pattern: 'hello-{a,b}.json' }],
  ])('%s', (spec, expected) => {
    expect(parseSource(spec)).toEqual(expected);
  });

  test('malformed remote strings are reported, not treated as paths', () => {
    expect(parseSource('https://github.com/acme').kind).toBe('invalid');
    expect(parseSource('https://github.com/acme/repo#bad ref').kind).toBe('invalid');
  });

  test('file:// URLs, github: and owner/repo shorthands (the bare one only when the caller allows it)', () => {
    expect(parseSource('file:///srv/git/acme/tests.git#v1')).toEqual({
      kind: 'git',
      url: 'file:///srv/git/acme/tests.git',
      ref: 'v1',
      host: 'local',
      owner: 'acme',
      repo: 'tests',
    });
    const gh = {
      kind: 'git',
      url: 'https://github.com/acme/tests.git',
      host: 'github.com',
      owner: 'acme',
      repo: 'tests',
    };
    expect(parseSource('github:acme/tests')).toEqual(gh);
    expect(parseSource('acme/tests', { shorthand: true })).toEqual(gh);
    expect(parseSource('acme/tests#main', { shorthand: true })).toEqual({ ...gh, ref: 'main' });
    expect(parseSource('acme/tests')).toEqual({ kind: 'path', path: 'acme/tests' });
    expect(parseSource('./acme/tests', { shorthand: true })).toEqual({ kind: 'path', path: './acme/tests' });
  });

  test('owner/repo segments that would climb out of .axis/ and odd refs are invalid', () => {
    expect(parseSource('https://evil.example/../../etc/repo').kind).toBe('invalid');
    expect(parseSource('file:///srv/../repo.git').kind).toBe('invalid');
    expect(parseSource('https://github.com/a/b#../../x').kind).toBe('invalid');
    expect(parseSource('https://github.com/a/b#-upload-pack=x').kind).toBe('invalid');
  });

  test('checkouts live at <base>/<host>/<owner>/<repo>@<ref>, the ref made one safe segment', () => {
    expect(checkoutDir({ host: 'github.com', owner: 'acme', repo: 'tests', ref: 'v1.2' })).toBe(
      '.axis/remotes/github.com/acme/tests@v1.2',
    );
    expect(checkoutDir({ host: 'gitlab.example.com', owner: 'g/sub', repo: 'r' })).toBe(
      '.axis/remotes/gitlab.example.com/g/sub/r@HEAD',
    );
    expect(
      checkoutDir({ host: 'local', owner: 'o', repo: 'r', ref: 'feature/x' }, '.axis/skills-cache'),
    ).toBe('.axis/skills-cache/local/o/r@feature_x');
  });
});
