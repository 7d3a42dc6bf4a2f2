/**
 * A `#ref` that names both a branch and a tag: what AXIS checks the remote for and what it fetches must be
 * the same commit, or every run would find the checkout "moved" and clone it again.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepo, type TestRepo } from '../../helpers/git-repos.js';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const tmp = tempDir;
afterAll(removeTempDirs);

const scenario = (name: string) => ({ name, prompt: 'p', checks: [{ file: 'out.txt', exists: true }] });

let repo: TestRepo;
beforeAll(() => {
  buildDist();
  repo = createRepo(tmp('axis-refs-git-'), 'acme', 'suite');
  repo.commit({ 'scenarios/tagged.json': scenario('tagged') });
  repo.tag('v1');
  repo.run('checkout', '-q', '-b', 'v1');
  repo.commit({ 'scenarios/branch.json': scenario('branch') });
  repo.run('push', '-q', 'origin', 'refs/heads/v1:refs/heads/v1');
});

async function keys(ref: string, dir: string): Promise<string[]> {
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: [`${repo.url}#${ref}`], agents: [TOY_AGENT] }),
  );
  const r = await axis(['validate', '--json'], dir);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { scenarios: { key: string }[] }).scenarios.map((s) => s.key);
}

it('#v1, a branch and a tag, is the tag (as git reads it) on every run, checked out once; #refs/heads/v1 is the branch', async () => {
  const dir = tmp('axis-refs-proj-');
  expect(await keys('v1', dir)).toEqual(['tagged']);
  const kept = join(dir, '.axis/remotes/local/acme/suite@v1/kept');
  writeFileSync(kept, '');
  expect(await keys('v1', dir)).toEqual(['tagged']);
  expect(existsSync(kept)).toBe(true); // current: not cloned again
  expect(await keys('refs/heads/v1', dir)).toEqual(['branch', 'tagged']);
}, 60_000);
