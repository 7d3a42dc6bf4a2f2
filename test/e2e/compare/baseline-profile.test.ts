/**
 * `axis baseline compare` holds a report to the `baseline_tolerance` it ran with: a report made with
 * `--profile ci` is compared with the ci profile's tolerance, as `axis run --profile ci
 * --compare-baseline` compared it, not with the base config's.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { AGENT, tape } from './helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

let dir = '';
const config = {
  scenarios: './scenarios',
  agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
  settings: { simulate: true, thresholds: { baseline_tolerance: 1 } },
  judge: { provider: 'anthropic', max_retries: 0 },
  profiles: { ci: { settings: { thresholds: { baseline_tolerance: 10 } } } },
};
const write = (rel: string, content: unknown) => writeIn(dir, rel, content);

beforeAll(() => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-baseline-profile-')));
  write('axis.config.json', config);
  write('scenarios/hello.json', { name: 'hello', prompt: 'Write out.txt', judge: 'out.txt was written' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('axis baseline compare and profiles', () => {
  it('uses the tolerance of the profile the report ran with', async () => {
    write('tapes/hello.json', tape(9));
    expect((await axis(['run', '--profile', 'ci'], dir)).code).toBe(0);
    expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
    write('tapes/hello.json', tape(8)); // a few points lower: within ci's 10, beyond the base's 1
    expect((await axis(['run', '--profile', 'ci'], dir)).code).toBe(0);

    const cmp = await axis(['baseline', 'compare'], dir);
    expect(cmp.stdout).not.toContain('✗');
    expect(cmp.code, cmp.stdout + cmp.stderr).toBe(0);
  }, 30_000);

  it('names the report and its profile when the config no longer declares it; --profile picks one', async () => {
    const id = (JSON.parse((await axis(['reports', '--json'], dir)).stdout) as { reportId: string }[])[0]!
      .reportId;
    write('axis.config.json', { ...config, profiles: { strict: {} } });
    try {
      const gone = await axis(['baseline', 'compare'], dir);
      expect(gone.code, gone.stdout + gone.stderr).toBe(2);
      expect(gone.stderr).toContain(`Report ${id} was made with profile "ci"`);
      expect(gone.stderr).toContain('axis.config.json no longer declares it (known profiles: strict)');
      expect(gone.stderr).toContain('--profile <name>');
      // The base tolerance (1) now holds the few points lost to a regression.
      const strict = await axis(['baseline', 'compare', '--profile', 'strict'], dir);
      expect(strict.code, strict.stdout + strict.stderr).toBe(1);
      expect(strict.stdout).toContain('✗');
    } finally {
      write('axis.config.json', config);
    }
  }, 30_000);

  it('-c <dir> whose .axis/ has no config beside it compares with the default tolerance, as run there', async () => {
    const bare = realpathSync(mkdtempSync(join(tmpdir(), 'axis-baseline-noconfig-')));
    try {
      cpSync(join(dir, '.axis'), join(bare, '.axis'), { recursive: true });
      const inside = await axis(['baseline', 'compare'], bare);
      const viaC = await axis(['baseline', 'compare', '-c', bare], tmpdir());
      expect(viaC.stderr).toBe('');
      expect(viaC.code).toBe(inside.code);
      expect(viaC.stdout).toBe(inside.stdout);
      expect(viaC.stdout).toContain('tolerance 1 point');
      // Without a config there is no profile to take a tolerance from: --profile is refused, not ignored.
      const profile = await axis(['baseline', 'compare', '--profile', 'ci'], bare);
      expect(profile.code, profile.stdout).toBe(2);
      expect(profile.stderr).toContain('--profile ci: there is no config in ');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  }, 30_000);
});
