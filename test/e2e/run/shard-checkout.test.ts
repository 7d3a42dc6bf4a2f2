/**
 * Shards run from checkouts that differ in a file the config only names (a simulator tape): the config
 * hash covers the tape's content, so the merge refuses the blobs instead of mixing two suites' scores.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist } from './helpers.js';
import { newProject } from './shard-fixture.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

/** A copy of the suite in another directory (another machine's checkout), its agent paths moved along. */
function checkout(from: string): string {
  const to = tempDir('axis-checkout-');
  cpSync(from, to, { recursive: true });
  const config = join(to, 'axis.config.json');
  writeFileSync(config, readFileSync(config, 'utf8').split(from).join(to));
  return to;
}

describe('sharded runs from different checkouts', () => {
  it('a tape edited between the shards makes the merge refuse the blobs (exit 2)', async () => {
    const a = newProject();
    const b = checkout(a);
    const tape = join(b, 'tapes/count.json');
    writeFileSync(tape, readFileSync(tape, 'utf8').replace('"score": 9', '"score": 2'));
    const s1 = await axis(['run', '--shard', '1/2', '--runs', '1'], a);
    const s2 = await axis(['run', '--shard', '2/2', '--runs', '1'], b);
    expect([s1.code, s2.code], s1.stderr + s2.stderr).toEqual([0, 0]);
    const r = await axis(
      ['reports', 'merge', join(a, '.axis/blobs'), join(b, '.axis/blobs')],
      makeProject({}),
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the blobs are not shards of one run (config hash differs)');
  }, 60_000);

  it('a merge in a checkout that lost a tape says which tape, not only that the config hash differs (exit 2)', async () => {
    const a = newProject();
    await axis(['run', '--shard', '1/2', '--runs', '1'], a);
    await axis(['run', '--shard', '2/2', '--runs', '1'], a);
    rmSync(join(a, 'tapes/count.json'));
    const r = await axis(['reports', 'merge', join(a, '.axis/blobs')], a);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the blobs were not run with');
    expect(r.stderr).toContain(
      `a tape of this config is missing here (a tape's content counts in the hash): ${join(a, 'tapes/count.json')}`,
    );
  }, 60_000);

  it('a shard run with --no-score and one scored are not merged into one headline (exit 2)', async () => {
    const a = newProject();
    await axis(['run', '--shard', '1/2', '--runs', '1', '--no-score'], a);
    await axis(['run', '--shard', '2/2', '--runs', '1'], a);
    const r = await axis(['reports', 'merge', join(a, '.axis/blobs')], makeProject({}));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the blobs are not shards of one run (scoring differs)');
    expect(r.stderr).toMatch(/scoring off \(--no-score\): \S*axis-blob-1-of-2\.zip/);
  }, 60_000);

  it('the same checkout in another directory still merges (exit 0); a partial merge says why it is incomplete', async () => {
    const a = newProject();
    const b = checkout(a);
    await axis(['run', '--shard', '1/2', '--runs', '1'], a);
    await axis(['run', '--shard', '2/2', '--runs', '1'], b);
    const r = await axis(['reports', 'merge', join(a, '.axis/blobs'), join(b, '.axis/blobs')], a);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Run incomplete');

    const partial = await axis(['reports', 'merge', '--allow-partial', join(a, '.axis/blobs')], a);
    expect(partial.code).toBe(1);
    expect(partial.stdout).toContain('Run incomplete: shard 2/2 missing (merged with --allow-partial).');
    expect(partial.stdout).not.toContain('0 jobs cancelled');
  }, 60_000);
});
