/**
 * `axis baseline set` merges a report into the file it reads: two at once (two CI jobs saving partial
 * runs) must each see the other's pairs, or one of them is lost while both say they wrote it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject } from './helpers.js';

let dir = '';
beforeAll(() => {
  buildDist();
  dir = simProject('axis-baseline-concurrent-', {}, ['a', 'b']);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reportId = async (): Promise<string> =>
  (JSON.parse((await axis(['reports', '--json'], dir)).stdout) as { reportId: string }[])[0]!.reportId;

describe('concurrent axis baseline set', () => {
  it('two processes saving different reports into one baseline keep both reports’ pairs', async () => {
    expect((await axis(['run', '-s', 'a'], dir)).code).toBe(0);
    const a = await reportId();
    expect((await axis(['run', '-s', 'b'], dir)).code).toBe(0);
    const b = await reportId();
    for (let round = 0; round < 8; round++) {
      const name = `cc${round}`;
      const both = await Promise.all([
        axis(['baseline', 'set', name, '--from', a], dir),
        axis(['baseline', 'set', name, '--from', b], dir),
      ]);
      for (const r of both) expect(r.code, r.stderr).toBe(0);
      const file = JSON.parse(readFileSync(join(dir, `.axis/baselines/${name}.json`), 'utf8')) as {
        results: Record<string, unknown>;
      };
      expect(Object.keys(file.results).sort(), `round ${round}`).toEqual(['a', 'b']);
    }
  }, 120_000);
});
