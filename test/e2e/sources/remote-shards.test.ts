/**
 * Shards of a suite whose scenarios come from a git branch: when the branch moves between two shards, the
 * shards ran different commits of the remote (even if the scenario files themselves did not change: a
 * fixture the scenarios copy may have), so the merge refuses their blobs.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../../helpers/git-repos.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const dirs: string[] = [];
const tmp = (prefix: string) => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(d);
  return d;
};
beforeAll(buildDist);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('sharded runs of remote scenarios', () => {
  it('shards that checked out different commits of a branch are not merged (exit 2)', async () => {
    const repo = createRepo(tmp('axis-shard-git-'), 'acme', 'suite');
    repo.commit({
      'scenarios/a.json': { name: 'a', prompt: 'p', judge: 'j' },
      'scenarios/b.json': { name: 'b', prompt: 'p', judge: 'j' },
      'fixtures/data.txt': 'v1\n',
    });
    const dir = tmp('axis-shard-proj-');
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: [repo.url], agents: [TOY_AGENT] }),
    );
    const s1 = await axis(['run', '--no-score', '--shard', '1/2'], dir);
    const s2 = await axis(['run', '--no-score', '--shard', '2/2'], dir);
    expect([s1.code, s2.code], s1.stderr + s2.stderr).toEqual([0, 0]);
    const same = await axis(['reports', 'merge', join(dir, '.axis/blobs')], tmp('axis-shard-merge-'));
    expect(same.code, same.stderr).toBe(0);
    const before = tmp('axis-shard-blobs-');
    cpSync(join(dir, '.axis/blobs'), before, { recursive: true });

    repo.commit({ 'fixtures/data.txt': 'v2\n' });
    const moved = await axis(['run', '--no-score', '--shard', '2/2'], dir);
    expect(moved.code, moved.stderr).toBe(0);
    const r = await axis(['reports', 'merge', join(dir, '.axis/blobs')], tmp('axis-shard-merge-'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the blobs are not shards of one run (config hash differs)');
    expect(r.stderr).toContain('the same commit of each remote source');

    // In the checkout, the config is loaded again at the branch's newest commit: not the one the shards ran.
    const here = await axis(['reports', 'merge', before], dir);
    expect(here.code).toBe(2);
    expect(here.stderr).toContain('a branch that moved since the shards ran changes the hash');
  }, 60_000);
});
