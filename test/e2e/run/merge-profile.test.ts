/**
 * `axis reports merge` loads the config with the profile the shards ran (their report.json `profile`);
 * when the config no longer declares it, the refusal names the blob and the profile (exit 2, no report
 * written) instead of a bare "Invalid configuration".
 */
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
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
const reports = () => (existsSync(join(dir, '.axis/reports')) ? readdirSync(join(dir, '.axis/reports')) : []);

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-merge-profile-')));
  write('axis.config.json', config({ two: { agents: [agent('toy'), agent('other')] } }));
  write('scenarios/hello.json', {
    name: 'hello',
    prompt: 'Write out.txt',
    checks: [{ name: 'out.txt', file: 'out.txt', exists: true }],
  });
  const run = await axis(['run', '--profile', 'two', '--no-score', '--shard', '1/1', '-o', 'out'], dir);
  expect(run.code, run.stdout + run.stderr).toBe(0);
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('axis reports merge and the shards profile', () => {
  it(
    'names the blob and its profile when the config no longer declares it',
    async () => {
      write('axis.config.json', config({ solo: {} }));
      const before = reports();
      const r = await axis(['reports', 'merge', 'out'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('Blob out/axis-blob-1-of-1.zip was made with profile "two"');
      expect(r.stderr).toContain('axis.config.json no longer declares it (known profiles: solo)');
      expect(r.stderr).toContain('-c <config>');
      expect(reports()).toEqual(before);
    },
    T,
  );
});
