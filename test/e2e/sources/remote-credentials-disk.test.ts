/**
 * A source URL's credentials (https://user:token@host/…) are passed to git and never written: not into a
 * checkout's .git/config, where a remote scenario's `copy` (match `.git/config`) would hand them to the
 * agent. Git reaches the https URL through `url.<base>.insteadOf` in a config of the test's own, so the
 * credentials travel as a user's would while the repository is a local bare one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepo, type TestRepo } from '../../helpers/git-repos.js';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 120_000;
const SECRET = 'pw-secret-4711';
const SOURCE = `https://bot:${SECRET}@127.0.0.1:9/acme/suite.git`;
const tmp = tempDir;
afterAll(removeTempDirs);

let repo: TestRepo;
let gitConfig: string;
beforeAll(() => {
  buildDist();
  const root = tmp('axis-creds-disk-');
  repo = createRepo(root, 'acme', 'suite');
  repo.commit({
    'scenarios/leak.json': {
      name: 'leak',
      prompt: 'p',
      setup: [{ action: 'copy', match: '.git/config', destination: 'from-checkout' }],
      checks: [{ file: 'out.txt', exists: true }],
    },
    'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\nbody\n',
  });
  gitConfig = join(root, 'gitconfig');
  writeFileSync(gitConfig, `[url "${repo.url}"]\n\tinsteadOf = ${SOURCE}\n`);
});

/** Every file below `root` holding `needle`, relative to `root`. */
const holding = (root: string, needle: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && readFileSync(join(e.parentPath, e.name)).includes(needle))
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1));

it(
  'no file under .axis holds the password of a scenario or skill source; the checkout is reused, and used offline',
  async () => {
    const dir = tmp('axis-creds-disk-proj-');
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: [`${SOURCE}#main`], skills: [SOURCE], agents: [TOY_AGENT] }),
    );
    const env = { GIT_CONFIG_GLOBAL: gitConfig };
    const v = await axis(['validate'], dir, env);
    expect(v.code, v.stderr).toBe(0);
    const r = await axis(['run', '--no-score'], dir, env);
    expect(r.code, r.stderr).toBe(0);
    expect(holding(join(dir, '.axis'), SECRET)).toEqual([]);
    // The checkout still knows its source: kept on the next run (not cloned again), used when git cannot reach it.
    const kept = join(dir, '.axis/remotes/127.0.0.1/acme/suite@main/kept');
    writeFileSync(kept, '');
    const again = await axis(['validate'], dir, env);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(kept)).toBe(true);
    const offline = await axis(['validate'], dir, { GIT_CONFIG_GLOBAL: '/dev/null' });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toContain(
      `note: https://bot:***@127.0.0.1:9/acme/suite.git#main: cannot reach https://bot:***@127.0.0.1:9/acme/suite.git:`,
    );
    expect(offline.stderr).not.toContain(SECRET);
  },
  T,
);

it(
  'a checkout made before, with the URL and its password in .git/config, is kept and loses the password',
  async () => {
    const dir = tmp('axis-creds-disk-old-');
    const checkout = join(dir, '.axis/remotes/127.0.0.1/acme/suite@main');
    execFileSync('git', ['clone', '-q', '-b', 'main', repo.url, checkout]);
    execFileSync('git', ['remote', 'set-url', 'origin', SOURCE], { cwd: checkout });
    execFileSync('git', ['config', 'axis.ref', 'main'], { cwd: checkout });
    writeFileSync(join(checkout, 'kept'), '');
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: [`${SOURCE}#main`], agents: [TOY_AGENT] }),
    );
    const v = await axis(['validate'], dir, { GIT_CONFIG_GLOBAL: gitConfig });
    expect(v.code, v.stderr).toBe(0);
    expect(existsSync(join(checkout, 'kept'))).toBe(true);
    expect(holding(join(dir, '.axis'), SECRET)).toEqual([]);
  },
  T,
);
