/** `axis init` with awkward paths: odd characters in names, and folders it cannot write to. */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';

const dirs: string[] = [];
const tmp = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-init-writes-')));
  dirs.push(dir);
  return dir;
};
beforeAll(buildDist);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('axis init writes', () => {
  it.each(['js', 'ts'])(
    '--format %s with a quote in the scenarios path writes a config that loads',
    async (f) => {
      const dir = tmp();
      const init = await axis(['init', '--no-skills', '--format', f, '-s', `it's "here"`], dir);
      expect(init.code, init.stderr).toBe(0);
      const validate = await axis(['validate', '--json'], dir);
      expect(validate.code, validate.stderr).toBe(0);
      const plan = JSON.parse(validate.stdout) as { scenarios: { key: string; file: string }[] };
      expect(plan.scenarios.map((s) => s.key)).toEqual(['hello-world']);
    },
  );
});
