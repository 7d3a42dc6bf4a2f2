/**
 * A git URL may carry credentials (`https://user:token@host/…`, `https://token@host/…`). Git itself never
 * prints them; AXIS's own messages about the source must not either: they end up in CI logs.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { isTrusted } from '../../../src/config/remotes.js';
import { shownUrl } from '../../../src/config/sources.js';
import { resolveSkillSources } from '../../../src/runner/skills.js';
import { createRepo } from '../../helpers/git-repos.js';

let dir = '';
beforeAll(() => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-remote-creds-')));
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(
    join(dir, 'scenarios/a.json'),
    JSON.stringify({ name: 'a', prompt: 'p', judge: [{ check: 'x' }] }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('shownUrl masks a password, and a bare token in an http(s) URL; nothing else changes', () => {
  expect(shownUrl('https://user:s3cret@host/o/r.git#main')).toBe('https://user:***@host/o/r.git#main');
  expect(shownUrl('https://ghp_tok3n@github.com/o/r')).toBe('https://***@github.com/o/r');
  expect(shownUrl('ssh://git@host/o/r.git')).toBe('ssh://git@host/o/r.git');
  expect(shownUrl('ssh://git:pw@host/o/r.git')).toBe('ssh://git:***@host/o/r.git');
  expect(shownUrl('git@github.com:o/r.git')).toBe('git@github.com:o/r.git');
  expect(shownUrl('acme/suite#v1')).toBe('acme/suite#v1');
  expect(shownUrl('https://host/o/r.git')).toBe('https://host/o/r.git');
});

it('a trust_code entry written with the credentials still trusts its source, and only it (at its #ref)', () => {
  const url = 'https://bot:pw@host/o/r.git';
  const spec = shownUrl(`${url}#main`);
  for (const t of [`${url}#main`, url, 'https://bot:***@host/o/r.git', spec])
    expect(isTrusted([t], url, spec), t).toBe(true);
  expect(isTrusted(['https://bot:pw@host/o/other.git'], url, spec)).toBe(false);
  expect(isTrusted(['https://bot:pw@host/o/r.git#dev'], url, spec)).toBe(false); // another ref
});

it('axis validate names an unreachable source, and a trust_code entry, without password or token', async () => {
  const config = (extra: Record<string, unknown>) =>
    writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ agents: ['claude-code'], ...extra }));
  config({
    scenarios: [
      './scenarios',
      'https://bot:s3cret-pass-123@127.0.0.1:9/acme/suite.git#main',
      'https://ghp_tok3n456789@127.0.0.1:9/acme/other.git',
    ],
  });
  const r = await axis(['validate'], dir);
  expect(r.code).toBe(2);
  const out = r.stdout + r.stderr;
  expect(out).toContain('https://bot:***@127.0.0.1:9/acme/suite.git');
  expect(out).toContain('https://***@127.0.0.1:9/acme/other.git');
  expect(out).not.toContain('s3cret-pass-123');
  expect(out).not.toContain('ghp_tok3n456789');

  config({
    scenarios: ['./scenarios', 'https://bot:s3cret-pass-123@127.0.0.1:9/acme/suite.git'],
    settings: { remotes: { trust_code: ['https://bot:0ther-pass-789@127.0.0.1:9/acme/suit.git'] } },
  });
  const t = await axis(['validate'], dir);
  expect(t.code).toBe(2);
  const tout = t.stdout + t.stderr;
  expect(tout).toContain('settings.remotes.trust_code[0]');
  expect(tout).toContain('https://bot:***@127.0.0.1:9/acme/suite.git');
  expect(tout).not.toContain('s3cret-pass-123');
  expect(tout).not.toContain('0ther-pass-789');
}, 60_000);

it('a skill source that cannot be fetched is named without its password or token', async () => {
  const sources = [
    'https://bot:sk1ll-pass-42@127.0.0.1:9/acme/pack.git#v1',
    'https://ghp_sk1lltok@127.0.0.1:9/acme/two.git',
  ];
  const err = await resolveSkillSources(sources, dir).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err?.message).toContain('https://bot:***@127.0.0.1:9/acme/pack.git#v1');
  expect(err?.message).toContain('https://***@127.0.0.1:9/acme/two.git');
  expect(err?.message).not.toMatch(/sk1ll-pass-42|ghp_sk1lltok/);
});

/** Every file below `root`, as text. */
const filesOf = (root: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));

it("an agent's skill source with a password is masked in validate --json and in the run's report files", async () => {
  const repo = createRepo(join(dir, 'git'), 'acme', 'pack');
  repo.commit({ 'SKILL.md': '---\nname: pack\ndescription: d\n---\nbody\n' });
  const source = 'https://bot:sk1ll-pass-77@127.0.0.1:9/acme/pack.git';
  // The cache a previous run left (the remote is unreachable now): used as it is, as documented.
  const cache = join(dir, '.axis/skills-cache/127.0.0.1/acme/pack@HEAD');
  execFileSync('git', ['clone', '-q', repo.url, cache]);
  execFileSync('git', ['remote', 'set-url', 'origin', source], { cwd: cache });
  execFileSync('git', ['config', 'axis.ref', ''], { cwd: cache });
  mkdirSync(join(dir, 'tapes'), { recursive: true });
  writeFileSync(join(dir, 'tapes/a.json'), JSON.stringify({ turns: [{ text: 'done' }] }));
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: ['./scenarios'],
      agents: [{ agent: 'claude-code', skills: [source] }],
      settings: { simulate: true },
    }),
  );
  const v = await axis(['validate', '--json'], dir);
  expect(v.code, v.stderr).toBe(0);
  expect(v.stdout).toContain('https://bot:***@127.0.0.1:9/acme/pack.git');
  expect(v.stdout + v.stderr).not.toContain('sk1ll-pass-77');
  const r = await axis(['run', '--no-score'], dir);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout + r.stderr).not.toContain('sk1ll-pass-77');
  const files = filesOf(join(dir, '.axis/reports'));
  expect(files.some((f) => f.includes('https://bot:***@127.0.0.1:9/acme/pack.git'))).toBe(true);
  expect(files.filter((f) => f.includes('sk1ll-pass-77'))).toEqual([]);
}, 120_000);
