/**
 * `axis run --failed` re-runs the failed pairs of a report under the profile that report was made with
 * (report.json `profile`) unless `--profile` names another: a pair of a profile's own agent would
 * otherwise be missing from the base config ("Nothing to run"), and a judge or limits the profile sets
 * would be silently dropped.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from './helpers.js';
import { profileConfig, toyAgent } from '../compare/helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

const T = 60_000;
let dir = '';
const write = (rel: string, content: unknown) => writeIn(dir, rel, content);
const agent = toyAgent;
const config = profileConfig;
const PROFILES = {
  two: { agents: [agent('toy'), agent('flaky')] },
  solo: { agents: [agent('flaky')] },
};

interface Manifest {
  reportId: string;
  profile?: string;
  rerunOf?: string;
  results: { agentName: string; status: string }[];
}
const reports = () => readdirSync(join(dir, '.axis/reports')).sort();
const manifest = (id: string) =>
  JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8')) as Manifest;
const pairs = (m: Manifest) => m.results.map((r) => `${r.agentName}:${r.status}`);

let first = '';

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-failed-profile-')));
  write('axis.config.json', config(PROFILES));
  write('scenarios/hello.json', {
    name: 'hello',
    prompt: 'Write out.txt',
    checks: [{ name: 'out.txt', file: 'out.txt', exists: true }],
    // flaky fails its setup until the file `fixed` exists
    setup: [
      { action: 'run_script', command: 'test "$AXIS_AGENT" != flaky || test -f "$AXIS_CONFIG_DIR/fixed"' },
    ],
  });
  const run = await axis(['run', '--profile', 'two', '--no-score', '--json'], dir);
  expect(run.code, run.stderr).toBe(1);
  first = (JSON.parse(run.stdout) as Manifest).reportId;
  expect(pairs(manifest(first))).toEqual(['toy:completed', 'flaky:failed']);
  write('fixed', '');
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('axis run --failed and the report profile', () => {
  it(
    're-runs under the profile the report was made with, and says so',
    async () => {
      const r = await axis(['run', '--failed', first, '--no-score'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stderr).toContain(`profile "two" (the profile report ${first} was made with)`);
      const id = reports().at(-1)!;
      expect(manifest(id)).toMatchObject({ rerunOf: first, profile: 'two' });
      expect(pairs(manifest(id))).toEqual(['flaky:completed']);
    },
    T,
  );

  it(
    '--profile names another',
    async () => {
      const r = await axis(['run', '--failed', first, '--no-score', '--profile', 'solo'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stderr).not.toContain('was made with');
      expect(manifest(reports().at(-1)!)).toMatchObject({ rerunOf: first, profile: 'solo' });
    },
    T,
  );

  it(
    'refuses, running nothing, when the report profile is gone from the config',
    async () => {
      write('axis.config.json', config({ solo: PROFILES.solo }));
      const before = reports();
      try {
        const r = await axis(['run', '--failed', first, '--no-score'], dir);
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(r.stderr).toContain(`Report ${first} was made with profile "two"`);
        expect(r.stderr).toContain('axis.config.json no longer declares it (known profiles: solo)');
        expect(r.stderr).toContain('--profile <name>');
        expect(reports()).toEqual(before);
        expect(existsSync(join(dir, 'fixed'))).toBe(true);
      } finally {
        write('axis.config.json', config(PROFILES));
      }
    },
    T,
  );
});
