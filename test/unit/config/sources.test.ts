import { describe, expect, test } from 'vitest';
import { parseSource, remoteDir } from '../../../src/config/sources.js';

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

  test('clone dirs reverse the host labels', () => {
    expect(remoteDir({ host: 'github.com', owner: 'acme', repo: 'tests' })).toBe(
      '.axis/remotes/com.github/acme/tests',
    );
    expect(remoteDir({ host: 'gitlab.example.com', owner: 'g/sub', repo: 'r' })).toBe(
      '.axis/remotes/com.example.gitlab/g/sub/r',
    );
  });
});
