/**
 * `--compare-baseline` on one shard would gate a slice: pairs whose runs are split get a headline from
 * part of them, and every pair on another machine reads as missing. The merge is the gate (docs/ci.md),
 * so the combination is refused before any job runs.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject, toyAgent, writeJson } from './helpers.js';

let dir = '';
const write = (rel: string, content: unknown) => writeJson(dir, rel, content);

beforeAll(() => {
  buildDist();
  dir = simProject('axis-shard-compare-', {}, ['a']);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('axis run --shard with --compare-baseline', () => {
  it('is refused (exit 2) pointing at the merge, and runs nothing', async () => {
    for (const flag of [['--compare-baseline'], ['--compare-baseline', 'v1']]) {
      const r = await axis(['run', '--shard', '1/2', ...flag], dir);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        '--compare-baseline gates a whole run, not one shard: compare the merged report (axis reports merge <blobs> --compare-baseline)',
      );
    }
    expect(readdirSync(dir)).not.toContain('.axis');
  }, 30_000);

  it("a shard's own report is not a baseline and is not compared with one (exit 2)", async () => {
    const shard = await axis(['run', '--shard', '1/2', '--runs', '3'], dir);
    expect(shard.code, shard.stderr).toBe(0);
    const set = await axis(['baseline', 'set'], dir);
    expect(set.code, set.stderr).toBe(2);
    expect(set.stderr).toMatch(
      /Report \S+ is shard 1\/2 of a sharded run: it holds part of the runs\. Use the merged report \(axis reports merge <blobs>\)/,
    );
    expect(existsSync(join(dir, '.axis/baselines/main.json'))).toBe(false);
    write('.axis/baselines/main.json', { name: 'main', createdAt: '', updatedAt: '', results: {} });
    const cmp = await axis(['baseline', 'compare'], dir);
    expect(cmp.code, cmp.stderr).toBe(2);
    expect(cmp.stderr).toContain('is shard 1/2 of a sharded run');
  }, 60_000);

  it("axis compare refuses a shard's own report too (exit 2): its pairs hold part of their runs", async () => {
    const two = simProject('axis-shard-ab-', {}, ['a']);
    try {
      writeJson(two, 'axis.config.json', {
        scenarios: './scenarios',
        agents: [toyAgent('toy'), toyAgent('toy2')],
        settings: { simulate: true },
        judge: { provider: 'anthropic', max_retries: 0 },
      });
      const shard = await axis(['run', '--shard', '1/2', '--runs', '3'], two);
      expect(shard.code, shard.stderr).toBe(0);
      for (const json of [[], ['--json']]) {
        const ab = await axis(['compare', '--agents', 'toy,toy2', ...json], two);
        expect(ab.code, ab.stdout).toBe(2);
        expect(ab.stderr).toMatch(
          /Report \S+ is shard 1\/2 of a sharded run: it holds part of the runs\. Use the merged report \(axis reports merge <blobs>\)/,
        );
      }
    } finally {
      rmSync(two, { recursive: true, force: true });
    }
  }, 60_000);
});
